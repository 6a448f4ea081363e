"""A small HTTP server of a test, answering on its own thread for as long as it is used."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import HTTPServer


@contextmanager
def served(server: HTTPServer) -> Iterator[HTTPServer]:
    """`server` answering on a daemon thread until the block ends; then shut and closed."""
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
