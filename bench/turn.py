"""Time in our own code per chat turn, at 10, 50 and 200 turns of history.

A real ChatSession (SQLite on disk, the connector engine) sends one more message into a
grocery chat recorded from the sandbox server; the emulator answers at once through the
real SDK. Our own code's time is the turn's wall time minus the time spent inside the
SDK's stream (the request, the emulator, reading the reply): loading the history,
building the request, parsing and storing the reply. Prints median and p95 per size,
the growth from 10 to 200 turns and the verdict; targets: median ≤ 10 ms at every size
and growth ≤ 1.3×.

    python bench/turn.py
"""

from __future__ import annotations

import logging
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeAlias

from _chat import grocery_chat, record_grocery_calls

from swiggy_core.constants import MCP_SERVERS
from swiggy_core.engine import TurnSetup, make_client
from swiggy_core.mcp import McpManager
from swiggy_core.models import ChatMessage
from swiggy_core.store import ChatStore
from swiggy_core.turn.session import ChatSession
from swiggy_sandbox.connector import Finish
from swiggy_sandbox.connector.brains import FunctionAgentBrain
from swiggy_sandbox.emulator import EmulatorServer
from swiggy_sandbox.servers import DEMO_TOKEN, SandboxHttpServer

SIZES = (10, 50, 200)
WARM = 3
ROUNDS = 10
PER_ROUND = 4
TARGET_MEDIAN_MS = 10.0
TARGET_GROWTH = 1.3
WAIT_SECONDS = 120.0


Timed: TypeAlias = "tuple[ChatSession, TimedClient, ChatStore]"


class TimedClient:
    """The real SDK client, with the time spent inside `beta.messages.stream` added up."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self.beta = self
        self.messages = self
        self.seconds = 0.0

    @contextmanager
    def stream(self, **kwargs: Any) -> Iterator[Any]:
        started = time.perf_counter()
        try:
            with self._client.beta.messages.stream(**kwargs) as stream:
                yield stream
        finally:
            self.seconds += time.perf_counter() - started


def _own_ms(session: ChatSession, client: TimedClient, text: str) -> float:
    inside = client.seconds
    started = time.perf_counter()
    handle = session.send(ChatMessage(role="user", content=text))
    if not handle.wait(WAIT_SECONDS):
        raise SystemExit("a turn did not finish")
    wall = time.perf_counter() - started
    return (wall - (client.seconds - inside)) * 1000


def _session(folder: Path, turns: int, sandbox: SandboxHttpServer, base_url: str) -> Timed:
    """A session on a chat of `turns` recorded turns, its own store, warmed up."""
    store = ChatStore(f"sqlite:///{folder / f'turns-{turns}.db'}")
    conversation_id = store.create_conversation("bench-user", "food")
    store.append_messages(conversation_id, grocery_chat(turns, record_grocery_calls(sandbox)))
    client = TimedClient(make_client("sk-ant-bench", base_url))
    setup = TurnSetup(
        vertical_id="food",
        model="claude-sonnet-4-5",
        swiggy_token=DEMO_TOKEN,
        server_urls={key: sandbox.url_for(key) for key in MCP_SERVERS},
        engine="connector",
    )
    session = ChatSession(
        store=store,
        user_id="bench-user",
        vertical_id="food",
        client=lambda: client,  # type: ignore[arg-type, return-value]
        setup=setup,
        manager=McpManager(),
        conversation_id=conversation_id,
    )
    for index in range(WARM):
        _own_ms(session, client, f"warm-up {index}")
    return session, client, store


def _measure(sessions: dict[int, Timed]) -> dict[int, list[float]]:
    """Turns in rounds that alternate the sizes, so a change in the machine's load
    touches every size alike."""
    figures: dict[int, list[float]] = {turns: [] for turns in sessions}
    for round_index in range(ROUNDS):
        for turns, (session, client, _) in sessions.items():
            for index in range(PER_ROUND):
                text = f"and some more milk, please ({round_index}.{index})"
                figures[turns].append(_own_ms(session, client, text))
    return figures


def main() -> None:
    logging.getLogger("swiggy_core").setLevel(logging.ERROR)
    brain = FunctionAgentBrain(lambda ctx: Finish("Noted."))
    results: dict[int, tuple[float, float]] = {}
    with (
        tempfile.TemporaryDirectory() as folder,
        SandboxHttpServer() as sandbox,
        EmulatorServer(brain) as emulator,
    ):
        sessions = {n: _session(Path(folder), n, sandbox, emulator.base_url) for n in SIZES}
        for turns, figures in _measure(sessions).items():
            median = statistics.median(figures)
            p95 = statistics.quantiles(figures, n=20)[-1]
            results[turns] = (median, p95)
            print(f"{turns:4d} turns: median {median:6.1f} ms   p95 {p95:6.1f} ms", flush=True)
        for _, _, store in sessions.values():
            store.close()
    growth = results[SIZES[-1]][0] / results[SIZES[0]][0]
    worst = max(median for median, _ in results.values())
    met = worst <= TARGET_MEDIAN_MS and growth <= TARGET_GROWTH
    print(f"slowest median: {worst:.1f} ms   target ≤ {TARGET_MEDIAN_MS:.0f} ms")
    print(f"growth {SIZES[0]} → {SIZES[-1]} turns: {growth:.2f}×   target ≤ {TARGET_GROWTH}×")
    print("met" if met else "MISSED")
    sys.exit(0)


if __name__ == "__main__":
    main()
