"""Run the sandbox HTTP app with uvicorn on a daemon thread (tests, the Streamlit app)."""

from __future__ import annotations

import socket
import threading
import time
from typing import Any, Self

import uvicorn

from swiggy_core.constants import LOOPBACK_BIND_ADDRESS, MCP_SERVERS
from swiggy_sandbox.lifecycle import StartsOnEnter
from swiggy_sandbox.servers.auth import TokenStore
from swiggy_sandbox.servers.http_app import build_http_app
from swiggy_sandbox.servers.stream_ends import StreamsEndOnStop

_START_TIMEOUT_SECONDS = 10.0
_STOP_TIMEOUT_SECONDS = 5.0
_GRACEFUL_SHUTDOWN_SECONDS = 1


class SandboxHttpServer(StartsOnEnter):
    """The three sandbox MCP servers on loopback; port 0 picks a free port.

    Usage: `with SandboxHttpServer() as sandbox: sandbox.url_for("food")`.
    Extra keyword arguments go to `build_http_app` (shop, limits, clock, db_url...).
    """

    def __init__(
        self,
        *,
        port: int = 0,
        store: TokenStore | None = None,
        log_level: str = "warning",
        **app_options: Any,
    ) -> None:
        self.store = store or TokenStore()
        self._requested_port = port
        self._log_level = log_level
        self._app_options = app_options
        self._owns_shop = app_options.get("shop") is None
        self._server: uvicorn.Server | None = None
        self._streams: StreamsEndOnStop | None = None
        self._thread: threading.Thread | None = None
        self._base_url = ""

    @property
    def base_url(self) -> str:
        """`http://127.0.0.1:<port>` once started."""
        if not self._base_url:
            raise RuntimeError("SandboxHttpServer is not running; call start() first")
        return self._base_url

    def url_for(self, server_key: str) -> str:
        """Endpoint URL of 'instamart', 'food' or 'dineout'."""
        return f"{self.base_url}{MCP_SERVERS[server_key].path}"

    def start(self) -> Self:
        """Bind, build the app for the bound URL and serve until stop()."""
        # Bind first: the app needs its own base URL (image links) before it is built.
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((LOOPBACK_BIND_ADDRESS, self._requested_port))
        self._base_url = f"http://{LOOPBACK_BIND_ADDRESS}:{sock.getsockname()[1]}"
        try:
            self.app = build_http_app(self._base_url, self.store, **self._app_options)
        except BaseException:
            sock.close()  # e.g. the shop's database refused us: free the port at once
            raise
        self._streams = StreamsEndOnStop(self.app)
        config = uvicorn.Config(
            self._streams,
            log_level=self._log_level,
            lifespan="on",
            timeout_graceful_shutdown=_GRACEFUL_SHUTDOWN_SECONDS,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [sock]}, name="swiggy-sandbox", daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + _START_TIMEOUT_SECONDS
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the sandbox HTTP server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        """Shut down and wait for the thread (forcing exit if connections linger)."""
        if self._server is None or self._thread is None:
            return
        if self._streams is not None:
            self._streams.end_streams()  # else each open stream waits out the grace period
        self._server.should_exit = True
        self._thread.join(_STOP_TIMEOUT_SECONDS)
        if self._thread.is_alive():
            self._server.force_exit = True
            self._thread.join(_STOP_TIMEOUT_SECONDS)
        self._server = self._thread = None
        if self._owns_shop:
            self.app.state.shop.close()
