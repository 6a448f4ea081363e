"""Open event streams end the moment the sandbox is told to stop.

An MCP client keeps a GET event stream open on every Streamable HTTP session (and the SSE
transport's stream is one long GET). uvicorn, told to exit, waits for open requests for
its grace period and then cancels them, logging each as an error: stopping a sandbox took
one to two seconds and printed tracebacks. Here a GET request's stream hears "the client
left" as soon as `end_streams()` is called, so it finishes the way a closed browser tab
finishes it, and the response is ended properly: the server stops at its next tick.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

_DISCONNECT: Message = {"type": "http.disconnect"}
_END_OF_BODY: Message = {"type": "http.response.body", "body": b"", "more_body": False}


class StreamsEndOnStop:
    """ASGI wrapper: GET requests still open at `end_streams()` see their client leave."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ending: asyncio.Event | None = None
        self._ended = False  # read by GETs that come after the call

    def end_streams(self) -> None:
        """From any thread: tell every open GET request, and any later one, that its
        client has gone."""
        self._ended = True
        loop, ending = self._loop, self._ending
        if loop is not None and ending is not None and not loop.is_closed():
            loop.call_soon_threadsafe(ending.set)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "GET":
            await self.app(scope, receive, send)
            return
        request = _Request(self._ending_event(), receive, send, ended=self._ended)
        await self.app(scope, request.receive, request.send)
        await request.finish()

    def _ending_event(self) -> asyncio.Event:
        # Made on the server's own loop, by its first GET (the loop runs on its thread).
        if self._ending is None:
            self._loop = asyncio.get_running_loop()
            self._ending = asyncio.Event()
        return self._ending


class _Request:
    """One GET. Once the server ends streams its client is reported gone, and the app is
    then answered as uvicorn answers it for a client that really left: what it sends after
    its response is dropped. A response it leaves open is closed."""

    def __init__(self, ending: asyncio.Event, receive: Receive, send: Send, *, ended: bool):
        self._ending = ending
        self._receive = receive
        self._send = send
        self._gone = ended
        self._started = self._ended = self._dropping = False

    async def receive(self) -> Message:
        if not self._gone and not self._ending.is_set():
            received = await _first_of(self._receive, self._ending.wait)
            if received is not None:
                return received
        self._gone = True
        return _DISCONNECT

    async def send(self, message: Message) -> None:
        if self._gone and (self._ended or self._dropping):
            return
        if message["type"] == "http.response.start":
            if self._started and self._gone:
                self._dropping = True  # a second response, to a client reported gone
                return
            self._started = True
        elif message["type"] == "http.response.body" and not message.get("more_body", False):
            self._ended = True
        await self._send(message)

    async def finish(self) -> None:
        if self._started and not self._ended:
            self._ended = True
            await self._send(_END_OF_BODY)  # an event stream left open: close it cleanly


async def _first_of(receive: Receive, ending: Callable[[], Awaitable[object]]) -> Message | None:
    """The client's next message, or None if the server ends streams first."""
    received: Message | None = None
    async with anyio.create_task_group() as group:

        async def from_client() -> None:
            nonlocal received
            received = await receive()
            group.cancel_scope.cancel()

        async def on_ending() -> None:
            await ending()
            group.cancel_scope.cancel()

        group.start_soon(from_client)
        group.start_soon(on_ending)
    return received
