"""A loopback port that nothing listens on, for tests of what cannot be reached."""

from __future__ import annotations

import socket


def closed_port() -> int:
    """A port on 127.0.0.1 that was free a moment ago (bound, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
