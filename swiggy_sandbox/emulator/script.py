"""What a brain answers: scripted turns in wire format, injected faults, recorded requests."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from swiggy_core.logsafe import redact

FaultKind = Literal[
    "rate_limit",
    "overloaded",
    "server_error",
    "auth",
    "permission",
    "bad_request",
    "error_event",
    "cut",
    "stall",
    "malformed",
    "hang",
]

# Faults answered before any byte of a stream: a plain HTTP error with a JSON body.
HTTP_FAULT_KINDS: frozenset[str] = frozenset(
    {"rate_limit", "overloaded", "server_error", "auth", "permission", "bad_request"}
)
# Faults that begin as a normal 200 event stream and go wrong part-way through.
STREAM_FAULT_KINDS: frozenset[str] = frozenset({"error_event", "cut", "stall", "malformed"})
# `hang` sends no response headers at all for `stall_seconds` (then a 504): the only way
# to make the SDK itself raise APITimeoutError, since it does not wrap mid-body timeouts.
PRE_RESPONSE_FAULT_KINDS: frozenset[str] = frozenset({"hang"})

Block = dict[str, Any]


@dataclass(frozen=True)
class ScriptedTurn:
    """One assistant response: wire-format content blocks, stop reason, optional usage/model."""

    content: list[Block]
    stop_reason: str = "end_turn"
    # Any key given here (input_tokens, output_tokens, cache_*) replaces the estimate.
    usage: dict[str, Any] | None = None
    # None means "echo the model the request asked for", as the real API does.
    model: str | None = None


@dataclass(frozen=True)
class Fault:
    """A failure to inject instead of (or part-way through) a response."""

    kind: FaultKind
    # Stream faults: how many complete blocks of `partial` are sent before failing.
    after_blocks: int = 0
    retry_after: float | None = None
    # Also sent as `retry-after-ms`, which the SDK reads before `retry-after`.
    retry_after_ms: float | None = None
    stall_seconds: float = 30.0
    # Only used by `error_event`; HTTP faults carry the type the real API uses for them.
    error_type: str = "overloaded_error"
    # Empty means the real API's usual wording for this kind.
    message: str = ""
    partial: ScriptedTurn | None = None

    def __post_init__(self) -> None:
        available = len(self.partial.content) if self.partial else 0
        if not 0 <= self.after_blocks <= available:
            # Fail at scripting time, not as a confusing wire error later.
            raise ValueError(
                f"after_blocks={self.after_blocks} but the partial turn has {available} blocks"
            )

    @property
    def is_http(self) -> bool:
        """True when the fault is an HTTP error status rather than a broken stream."""
        return self.kind in HTTP_FAULT_KINDS


@dataclass(frozen=True)
class RecordedRequest:
    """One request exactly as the emulator received it (header names lowercased)."""

    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    query: dict[str, str] = field(default_factory=dict)

    def __repr__(self) -> str:
        # The headers carry the API key and the body the MCP servers' tokens: masked.
        shown = f"method={self.method!r}, path={self.path!r}, headers={self.headers!r}, "
        return redact(f"RecordedRequest({shown}body={self.body!r}, query={self.query!r})")

    @property
    def betas(self) -> list[str]:
        """The `anthropic-beta` header split into its names."""
        raw = self.headers.get("anthropic-beta", "")
        return [name.strip() for name in raw.split(",") if name.strip()]

    @property
    def api_key(self) -> str | None:
        """The credential the client sent, from `x-api-key` or a bearer token."""
        if key := self.headers.get("x-api-key"):
            return key
        scheme, _, token = self.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer":
            return None
        return token.strip() or None


class Brain(Protocol):
    """Decides how the emulator answers one request; scripted, a function, or a planner."""

    def respond(self, request: RecordedRequest) -> ScriptedTurn | Fault: ...


def text_turn(text: str, *, stop_reason: str = "end_turn") -> ScriptedTurn:
    """A turn with a single text block."""
    return ScriptedTurn(content=[text_block(text)], stop_reason=stop_reason)


def text_block(text: str) -> Block:
    """A wire-format text block."""
    return {"type": "text", "text": text}


def tool_use_block(tool_id: str, name: str, tool_input: dict[str, Any]) -> Block:
    """A wire-format client `tool_use` block (the local engine executes it)."""
    return {"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}


def mcp_tool_use_block(
    tool_id: str, name: str, server_name: str, tool_input: dict[str, Any]
) -> Block:
    """A wire-format `mcp_tool_use` block (the connector executed it)."""
    return {
        "type": "mcp_tool_use",
        "id": tool_id,
        "name": name,
        "server_name": server_name,
        "input": tool_input,
    }


def mcp_tool_result_block(
    tool_use_id: str, content: str | list[Block], *, is_error: bool = False
) -> Block:
    """A wire-format `mcp_tool_result` block; a plain string becomes one text item."""
    items = [text_block(content)] if isinstance(content, str) else content
    return {
        "type": "mcp_tool_result",
        "tool_use_id": tool_use_id,
        "is_error": is_error,
        "content": items,
    }


def mcp_tool_listing_block(server_name: str, tools: list[dict[str, Any]]) -> Block:
    """A wire-format `mcp_tool_listing` block: the tools the connector found on a server."""
    return {"type": "mcp_tool_listing", "mcp_server_name": server_name, "tools": tools}
