"""One background event loop for all MCP work (Streamlit's script thread has none)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None


def background_loop() -> asyncio.AbstractEventLoop:
    """The shared loop, started on first use in a daemon thread."""
    global _loop
    with _lock:
        if _loop is None or _loop.is_closed():
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="mcp-loop", daemon=True)
            thread.start()
            _loop = loop
        return _loop


def run_sync(coroutine: Coroutine[Any, Any, T], timeout: float) -> T:
    """Run a coroutine on the background loop and wait for it (never asyncio.run)."""
    future = asyncio.run_coroutine_threadsafe(coroutine, background_loop())
    try:
        return future.result(timeout)
    except TimeoutError:
        future.cancel()
        raise
