"""Run the emulator with uvicorn on loopback in a daemon thread, as a context manager."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, Self, TypeVar, cast, overload

import uvicorn

from swiggy_core.constants import LOOPBACK_BIND_ADDRESS
from swiggy_sandbox.emulator.app import create_app

if TYPE_CHECKING:  # the connector imports this package: a runtime import would cycle
    from swiggy_sandbox.connector import AgentBrain

from swiggy_sandbox.emulator.brains import ScriptedBrain
from swiggy_sandbox.emulator.script import Brain, RecordedRequest
from swiggy_sandbox.emulator.streaming import install_abort_log_filter
from swiggy_sandbox.lifecycle import StartsOnEnter

STARTUP_TIMEOUT_SECONDS = 10.0
# Streams are ended by the stall cancel event, so shutdown is normally well under a second;
# these only bound the worst case (a brain that hangs).
GRACEFUL_SHUTDOWN_SECONDS = 2
STOP_JOIN_SECONDS = 5.0
_POLL_SECONDS = 0.01

# Scripted brains answer whole requests; agent brains (the planner) step behind the connector.
BrainT = TypeVar("BrainT", bound="Brain | AgentBrain")


class EmulatorServer(StartsOnEnter, Generic[BrainT]):
    """A Messages API emulator listening on `base_url` until stopped."""

    @overload
    def __init__(
        self: EmulatorServer[ScriptedBrain],
        brain: None = None,
        *,
        port: int = 0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None: ...

    @overload
    def __init__(
        self, brain: BrainT, *, port: int = 0, clock: Callable[[], float] = time.monotonic
    ) -> None: ...

    def __init__(
        self, brain: Any = None, *, port: int = 0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.brain: BrainT = brain if brain is not None else cast(BrainT, ScriptedBrain())
        self.requests: list[RecordedRequest] = []
        # `clock` times the prompt cache only (see create_app); serving uses real time.
        self.app = create_app(self.brain, self.requests, clock=clock)
        self._requested_port = port
        self._port: int | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def port(self) -> int:
        """The bound TCP port (known once started)."""
        if self._port is None:
            raise RuntimeError("EmulatorServer is not running; call start() first")
        return self._port

    @property
    def base_url(self) -> str:
        """What to pass as `Anthropic(base_url=...)`."""
        return f"http://{LOOPBACK_BIND_ADDRESS}:{self.port}"

    def start(self) -> Self:
        """Start serving and return once the socket accepts connections."""
        if self._thread is not None:
            raise RuntimeError("EmulatorServer is already running")
        install_abort_log_filter()
        config = uvicorn.Config(
            self.app,
            host=LOOPBACK_BIND_ADDRESS,
            port=self._requested_port,
            log_level="warning",
            # Leave the host application's logging setup alone; records propagate to root.
            log_config=None,
            # Pin the protocol stack: how a deliberate cut looks on the wire depends on it.
            http="h11",
            loop="asyncio",
            ws="none",
            lifespan="off",
            timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._run, name="anthropic-emulator", daemon=True)
        self._thread.start()
        try:
            self._port = self._wait_until_listening()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        """Stop quickly, ending any stalled stream; safe to call twice."""
        server, thread, loop = self._server, self._thread, self._loop
        if server is None or thread is None:
            return
        server.should_exit = True
        if loop is not None:
            # The loop may already be closing if the server died; nothing left to cancel then.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self.app.state.stall_cancel.set)
        thread.join(STOP_JOIN_SECONDS)
        if thread.is_alive():
            server.force_exit = True
            thread.join(STOP_JOIN_SECONDS)
        self._server = self._thread = self._loop = None
        self._port = None

    def _run(self) -> None:
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        assert self._server is not None
        self._loop = asyncio.get_running_loop()
        # A fresh event per run: an asyncio.Event binds to the first loop that waits on it.
        self.app.state.stall_cancel = asyncio.Event()
        await self._server.serve()

    def _wait_until_listening(self) -> int:
        deadline = time.monotonic() + STARTUP_TIMEOUT_SECONDS
        server, thread = self._server, self._thread
        assert server is not None and thread is not None
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError("emulator server exited during startup")
            if time.monotonic() > deadline:
                raise TimeoutError(f"emulator did not start within {STARTUP_TIMEOUT_SECONDS:g} s")
            time.sleep(_POLL_SECONDS)
        port = int(server.servers[0].sockets[0].getsockname()[1])
        while True:
            try:
                with socket.create_connection((LOOPBACK_BIND_ADDRESS, port), timeout=1.0):
                    return port
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(_POLL_SECONDS)
