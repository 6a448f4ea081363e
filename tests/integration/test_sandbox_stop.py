"""A sandbox stops at once with its clients connected: their event streams end, none is cut.

The app's MCP manager keeps each session open, and with it the session's GET event stream
(Streamable HTTP) or the SSE transport's stream. Stopping the sandbox (a cache eviction in
the app, the end of a test) must end those streams the way a client leaving does; uvicorn
otherwise waits out its grace period and then cancels each one, logging an error with a
traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import httpx2

from swiggy_core.mcp import McpManager
from swiggy_core.mcp.config import ServerConfig
from swiggy_sandbox.servers import DEMO_TOKEN, SandboxHttpServer


class _Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextmanager
def server_warnings() -> Iterator[list[logging.LogRecord]]:
    """What uvicorn logs at WARNING or above. Entered once the server runs: starting one
    configures uvicorn's loggers afresh, which removes handlers added before."""
    kept = _Kept()
    logger = logging.getLogger("uvicorn.error")
    logger.addHandler(kept)
    try:
        yield kept.records
    finally:
        logger.removeHandler(kept)


def test_open_event_streams_end_when_the_sandbox_stops() -> None:
    sandbox = SandboxHttpServer().start()
    manager = McpManager()
    try:
        http = sandbox.url_for("instamart")
        sse = ServerConfig(key="food-sse", transport="sse", url=f"{sandbox.base_url}/sse/food")
        assert manager.list_tools(http, DEMO_TOKEN)
        assert manager.list_tools(sse, DEMO_TOKEN)
        assert "sessions=2" in repr(manager)  # both sessions stay open, and their streams
        with server_warnings() as warned:
            sandbox.stop()
    finally:
        manager.close()
        sandbox.stop()
    messages = [record.getMessage() for record in warned]
    assert not messages, messages  # e.g. "Cancel 2 running task(s), timeout graceful ..."


def test_a_stream_asked_for_while_stopping_ends_at_once() -> None:
    with SandboxHttpServer() as sandbox:
        streams = sandbox._streams
        assert streams is not None
        streams.end_streams()  # told to stop, not yet stopped: a late GET must not hang
        headers = {"Authorization": f"Bearer {DEMO_TOKEN}", "Accept": "text/event-stream"}
        with httpx2.stream(
            "GET", f"{sandbox.base_url}/sse/food", headers=headers, timeout=30
        ) as response:
            assert response.status_code == 200
            response.read()  # returns: the stream is closed, not left waiting for events
