"""Talk to remote MCP servers from worker threads through one background event loop."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx2
from mcp import ClientSession, types
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from swiggy_sandbox.connector.toolsets import ServerSpec

Block = dict[str, Any]
T = TypeVar("T")

CONNECT_TIMEOUT_SECONDS = 10.0
READ_TIMEOUT_SECONDS = 30.0
# One whole operation (connect, initialize, list or call, close) must finish within this.
OPERATION_TIMEOUT_SECONDS = 45.0


class McpConnectionError(Exception):
    """The server could not be reached or refused us; `detail` is what the model is shown."""

    def __init__(self, server_name: str, detail: str) -> None:
        super().__init__(detail)
        self.server_name = server_name
        self.detail = detail


@dataclass(frozen=True)
class ToolCallResult:
    """What `tools/call` returned, as `mcp_tool_result` content.

    `content` holds the text only, as Anthropic's connector may pass it on: a result in the
    summary form reaches the model as its prose. `structured` (the result's
    structuredContent) never goes into `mcp_tool_result`; it is there for callers that play
    the app, which runs tools itself and does get it.
    """

    is_error: bool
    content: list[Block]
    structured: dict[str, Any] | None = None

    @property
    def text(self) -> str:
        """The result's text parts joined."""
        return "".join(str(item.get("text", "")) for item in self.content)


class McpBridge:
    """Runs MCP client sessions on a loop it owns; callers block on the answers."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def list_tools(self, server: ServerSpec) -> list[Block]:
        """The server's tools as listing entries (name, description, input_schema)."""

        async def listing(session: ClientSession) -> list[Block]:
            result = await session.list_tools()
            return [_listed(tool) for tool in result.tools]

        return self._run(self._with_session(server, listing))

    def call_tool(self, server: ServerSpec, name: str, arguments: dict[str, Any]) -> ToolCallResult:
        """Call one tool; protocol-level failures come back as an error result."""

        async def call(session: ClientSession) -> ToolCallResult:
            request = types.CallToolRequest(
                params=types.CallToolRequestParams(name=name, arguments=arguments)
            )
            try:
                # Not session.call_tool: it lists tools to revalidate structured output,
                # and a pinned listing means the connector never asks for one.
                result = await session.send_request(request, types.CallToolResult)
            except MCPError as exc:
                return ToolCallResult(True, [_text(exc.error.message)])
            structured = result.structured_content
            return ToolCallResult(
                bool(result.is_error),
                [_content(item) for item in result.content],
                dict(structured) if isinstance(structured, dict) else None,
            )

        return self._run(self._with_session(server, call))

    def close(self) -> None:
        """Stop the background loop (a later call starts a new one)."""
        with self._lock:
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        if loop is not None and thread is not None:
            loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout=5)

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        future = asyncio.run_coroutine_threadsafe(coro, self._ensure_loop())
        return future.result(OPERATION_TIMEOUT_SECONDS + 5)

    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                thread = threading.Thread(
                    target=loop.run_forever, name="mcp-connector-loop", daemon=True
                )
                thread.start()
                self._loop, self._thread = loop, thread
            return self._loop

    async def _with_session(
        self, server: ServerSpec, work: Callable[[ClientSession], Awaitable[T]]
    ) -> T:
        statuses: list[str] = []
        try:
            async with (
                asyncio.timeout(OPERATION_TIMEOUT_SECONDS),
                _session(server, statuses) as session,
            ):
                return await work(session)
        except Exception as exc:
            raise McpConnectionError(server.name, _describe(server, exc, statuses)) from exc


@asynccontextmanager
async def _session(server: ServerSpec, statuses: list[str]) -> AsyncIterator[ClientSession]:
    """An initialised session; every HTTP error status seen is appended to `statuses`."""

    async def note(response: httpx2.Response) -> None:
        if response.status_code >= 400:
            statuses.append(f"{response.status_code} {response.reason_phrase}".strip())

    headers = {"Authorization": f"Bearer {server.token}"} if server.token else {}
    timeout = httpx2.Timeout(CONNECT_TIMEOUT_SECONDS, read=READ_TIMEOUT_SECONDS)
    async with (
        httpx2.AsyncClient(
            headers=headers, timeout=timeout, event_hooks={"response": [note]}
        ) as http,
        streamable_http_client(server.url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


def _describe(server: ServerSpec, exc: BaseException, statuses: list[str]) -> str:
    """The status line when the server answered with an error, else a connection error."""
    if statuses:
        return statuses[0]
    leaves = [leaf for leaf in _leaves(exc) if not isinstance(leaf, MCPError)]
    reason = f": {str(leaves[0]) or type(leaves[0]).__name__}" if leaves else ""
    return f"Connection error while communicating with MCP server {server.name}{reason}"


def _leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in _leaves(inner)]
    return [exc]


def _listed(tool: Any) -> Block:
    entry: Block = {"name": tool.name, "input_schema": dict(tool.input_schema or {})}
    if tool.description is not None:
        entry["description"] = tool.description
    return entry


def _content(item: Any) -> Block:
    if getattr(item, "type", None) == "text":
        return _text(item.text)
    # mcp_tool_result carries text only: other parts travel as their JSON.
    return _text(json.dumps(item.model_dump(mode="json", exclude_none=True)))


def _text(text: str) -> Block:
    return {"type": "text", "text": text}
