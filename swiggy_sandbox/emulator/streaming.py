"""ASGI responses that can end cleanly, fail in-band, stall, or drop the connection mid-body."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Mapping, Sequence

from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from swiggy_sandbox.emulator.faults import error_payload
from swiggy_sandbox.emulator.script import Fault
from swiggy_sandbox.emulator.sse import encode_event, encode_raw_event

# uvicorn logs this when an app returns before finishing its body. That is exactly how a
# deliberate `cut` is made, so the expected occurrences are filtered out of the log.
ABORT_LOG_MESSAGE = "ASGI callable returned without completing response."
# An event cut off mid-JSON, the way a broken proxy or a truncated buffer would deliver it.
MALFORMED_EVENT_DATA = '{"type": "content_block_delta", "index": 0, "delta": {"type": "text_'


class _DeliberateAbortFilter(logging.Filter):
    """Drops one uvicorn 'returned without completing' record per deliberate abort."""

    def __init__(self) -> None:
        super().__init__()
        self._expected = 0
        self._lock = threading.Lock()

    def expect(self) -> None:
        with self._lock:
            self._expected += 1

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage() != ABORT_LOG_MESSAGE:
            return True
        with self._lock:
            if self._expected:
                self._expected -= 1
                return False
        return True


_ABORT_FILTER = _DeliberateAbortFilter()


def install_abort_log_filter() -> None:
    """Keep deliberate connection drops out of uvicorn's error log (idempotent)."""
    logger = logging.getLogger("uvicorn.error")
    if _ABORT_FILTER not in logger.filters:
        logger.addFilter(_ABORT_FILTER)


class FaultyResponse(Response):
    """Sends body chunks, then finishes cleanly or fails the way `fault` says.

    `fault` None or `error_event` / `malformed` end the body properly (the damage is in
    the events); `cut` returns with the body unfinished so the peer sees a truncated
    read; `stall` goes silent until `stall_seconds` pass, the client leaves, or
    `cancel` is set (server shutdown), and then drops the connection like `cut`.
    """

    def __init__(
        self,
        chunks: Sequence[bytes],
        *,
        cancel: asyncio.Event,
        fault: Fault | None = None,
        status_code: int = 200,
        headers: Mapping[str, str] | None = None,
        media_type: str = "text/event-stream",
    ) -> None:
        # Not calling Response.__init__: it would add a content-length we must not promise.
        self.status_code = status_code
        self.media_type = media_type
        self.background = None
        self.chunks = list(chunks)
        self.fault = fault
        self.cancel = cancel
        self.init_headers(headers)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send(
            {"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers}
        )
        for chunk in self.chunks:
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
            # Yield so each event leaves as its own write, as a real token stream would.
            await asyncio.sleep(0)
        kind = self.fault.kind if self.fault else None
        if kind == "cut":
            _ABORT_FILTER.expect()
            return
        if kind == "stall":
            assert self.fault is not None
            if await wait_quietly(self.cancel, receive, self.fault.stall_seconds):
                return  # uvicorn logs nothing for a response the client abandoned
            _ABORT_FILTER.expect()
            return
        await send({"type": "http.response.body", "body": self._tail(), "more_body": False})

    def _tail(self) -> bytes:
        if self.fault is None:
            return b""
        if self.fault.kind == "error_event":
            message = self.fault.message or "Overloaded"
            return encode_event("error", error_payload(self.fault.error_type, message))
        if self.fault.kind == "malformed":
            return encode_raw_event("content_block_delta", MALFORMED_EVENT_DATA)
        return b""


async def wait_quietly(cancel: asyncio.Event, receive: Receive, seconds: float) -> bool:
    """Send nothing until `seconds` pass or `cancel` is set; True if the client hung up first."""
    shutdown = asyncio.ensure_future(cancel.wait())
    hang_up = asyncio.ensure_future(_until_disconnect(receive))
    try:
        await asyncio.wait({shutdown, hang_up}, timeout=seconds, return_when="FIRST_COMPLETED")
    finally:
        for task in (shutdown, hang_up):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
    # A task cancelled above was still pending, so only a finished hang_up means "gone".
    return hang_up.done() and not hang_up.cancelled()


async def _until_disconnect(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
