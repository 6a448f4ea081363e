"""An ASGI app of a test (a small MCP server) served by uvicorn on a free loopback port."""

from __future__ import annotations

import threading
import time
from typing import Any

import uvicorn


class AsgiThread:
    """`app` under uvicorn on its own daemon thread; `url` ends with `path`."""

    def __init__(self, app: Any, path: str, **config: Any) -> None:
        options = {"host": "127.0.0.1", "port": 0, "log_level": "warning", **config}
        self._server = uvicorn.Server(uvicorn.Config(app, **options))
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._path = path

    @property
    def url(self) -> str:
        port = self._server.servers[0].sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}{self._path}"

    def start(self, name: str, within_seconds: float) -> None:
        """Start serving; fail if `name` is not answering within the time given."""
        self._thread.start()
        deadline = time.monotonic() + within_seconds
        while not self._server.started:
            assert time.monotonic() < deadline, f"{name} did not start"
            time.sleep(0.01)

    def stop(self, join_seconds: float) -> None:
        """Stop at once: a client still holding a stream open (an MCP session's GET) would
        otherwise keep uvicorn waiting until the join gives up."""
        self._server.should_exit = True
        self._server.force_exit = True
        self._thread.join(join_seconds)
        assert not self._thread.is_alive(), f"the server on {self.url} did not stop"
