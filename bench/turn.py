"""Own CPU per chat turn (a search, its cards and an approval) at 10, 50 and 200 turns.

The turn a person waits on: a real ChatSession (SQLite on disk, the connector engine)
sends their message into a grocery chat of recorded turns (each with a product search and
a cart update, cards parsed, from `_chat.py`); the model searches NutriCart's products
through the MCP connector, the app parses the result into cards and stores the reply,
then the model asks to approve a checkout and the app prepares it (reading the cart over
its own MCP client) and stores the pending approval. The next turn supersedes it.

Whose CPU is whose:
- The model (the Messages API emulator with its MCP connector) and the sandbox MCP
  servers run in another process (`_turn_servers.py`): none of their CPU is ours.
- A turn's CPU is this process's CPU time (`time.process_time`, every thread: the one that
  stores the person's message, the turn's own thread, the MCP client's event loop) from
  `session.send` until the turn has ended; `handle.wait` blocks without using CPU.
- Subtracted from it: the process CPU spent inside the Anthropic SDK (building and
  opening the stream, each step of its event iterator, `get_final_message`, closing) and
  inside the MCP client calls the app makes (`McpManager.call_tool` / `list_tools` /
  `send_request`; their work runs on the loop thread while the turn's thread waits).
  While the turn's thread is inside one of those calls no other code of ours runs, so
  the CPU of those intervals is the SDK's and the MCP client's, reported beside ours.
- What is left is our own code: loading the history, building the request, handling the
  stream's events, the hooks and audit, parsing the cards, storing the reply, closing the
  last approval, preparing and storing the new one.

Baseline in the same run: the bare SDK stream with the very same request kwargs plus the
same MCP calls on a plain McpManager, no app code around them (its process CPU and wall).

Each round runs every size in turn (10, 50, 200, 10, 50, 200, ...), so a change in the
machine's load touches every size alike. Each round gives every size a fresh chat of
exactly that many turns, held in the store's history cache as the page that drew it
holds it; one unmeasured turn warms it (the steady state of a chat in use), then
MEASURED turns are timed. Prints per size the median and p95 of own CPU, the SDK + MCP
client CPU and the wall time, the baseline, the growth of the median 10 → 200 and the
verdict. Targets: median own CPU ≤ 10 ms at every size and growth ≤ 1.2×.

    python bench/turn.py [rounds]
"""

from __future__ import annotations

import json
import logging
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _chat import Call, grocery_chat, record_grocery_calls_at

from swiggy_core.constants import DEFAULT_MODEL, MCP_SERVERS
from swiggy_core.engine import TurnSetup, make_client
from swiggy_core.mcp import McpManager
from swiggy_core.models import ChatMessage
from swiggy_core.store import ChatStore
from swiggy_core.turn.session import ChatSession
from swiggy_sandbox.servers import DEMO_TOKEN

SIZES = (10, 50, 200)
ROUNDS = 15
MEASURED = 2  # timed turns per chat, after one warm turn
TARGET_MS = 10.0
TARGET_GROWTH = 1.2
WAIT_SECONDS = 120.0
USER = "bench-user"
SERVERS_SCRIPT = Path(__file__).with_name("_turn_servers.py")


@dataclass
class Outside:
    """Process CPU seconds spent inside the SDK and the MCP client, and what was asked."""

    cpu: float = 0.0
    stream_kwargs: dict[str, Any] = field(default_factory=dict)
    mcp_calls: list[tuple[Any, ...]] = field(default_factory=list)

    @contextmanager
    def inside(self) -> Iterator[None]:
        started = time.process_time()
        try:
            yield
        finally:
            self.cpu += time.process_time() - started


class TimedStream:
    """The SDK's message stream; every step of it is counted as the SDK's CPU."""

    def __init__(self, stream: Any, outside: Outside) -> None:
        self._stream = stream
        self._outside = outside

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)  # snapshots, the response: plain attribute reads

    def __iter__(self) -> Iterator[Any]:
        events = iter(self._stream)
        while True:
            with self._outside.inside():
                event = next(events, None)
            if event is None:
                return
            yield event

    def get_final_message(self) -> Any:
        with self._outside.inside():
            return self._stream.get_final_message()


class TimedClient:
    """The real SDK client as the session sees it: `client.beta.messages.stream(...)`."""

    def __init__(self, client: Any, outside: Outside) -> None:
        self._client = client
        self._outside = outside
        self.beta = self
        self.messages = self

    @contextmanager
    def stream(self, **kwargs: Any) -> Iterator[Any]:
        self._outside.stream_kwargs = kwargs
        with self._outside.inside():  # the SDK checks and transforms the request here
            manager = self._client.beta.messages.stream(**kwargs)
            stream = manager.__enter__()
        try:
            yield TimedStream(stream, self._outside)
        finally:
            with self._outside.inside():
                manager.__exit__(None, None, None)


class TimedManager(McpManager):
    """The app's MCP client; each call's CPU is counted as the MCP client's."""

    def __init__(self, outside: Outside) -> None:
        super().__init__()
        self.outside = outside

    def call_tool(self, server: Any, token: Any, name: str, arguments: Any, **kw: Any) -> Any:
        self.outside.mcp_calls.append((server, token, name, dict(arguments)))
        with self.outside.inside():
            return super().call_tool(server, token, name, arguments, **kw)

    def list_tools(self, *args: Any, **kw: Any) -> Any:
        with self.outside.inside():
            return super().list_tools(*args, **kw)

    def send_request(self, *args: Any, **kw: Any) -> Any:
        with self.outside.inside():
            return super().send_request(*args, **kw)


@dataclass
class Sample:
    own_ms: float
    outside_ms: float
    wall_ms: float


@dataclass
class Bench:
    store: ChatStore
    setup: TurnSetup
    client: TimedClient
    manager: TimedManager
    outside: Outside
    recorded: list[list[Call]]
    figures: dict[int, list[Sample]] = field(default_factory=dict)
    baseline: list[Sample] = field(default_factory=list)


def _turn(bench: Bench, session: ChatSession, text: str) -> Sample:
    """One turn, timed from the person's message to its end; its approval is checked."""
    outside = bench.outside
    outside.cpu, outside.mcp_calls = 0.0, []
    wall, cpu = time.perf_counter(), time.process_time()
    handle = session.send(ChatMessage(role="user", content=text))
    if not handle.wait(WAIT_SECONDS):
        raise SystemExit("a turn did not finish")
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    _check_turn(bench.store, session)
    return Sample((cpu - outside.cpu) * 1000, outside.cpu * 1000, wall * 1000)


def _check_turn(store: ChatStore, session: ChatSession) -> None:
    """The turn did what the bench claims: a search card stored, an approval pending."""
    assert session.conversation_id is not None
    reply = session.history()[-1]
    kinds = {card.type for card in reply.meta.cards.values()}
    pending = store.approvals_for(session.conversation_id, ["pending"])
    if reply.role != "assistant" or not kinds or len(pending) != 1:
        raise SystemExit(f"the turn did not search and ask: cards {kinds}, {len(pending)} asked")


def _chat_of(bench: Bench, turns: int) -> ChatSession:
    """A fresh chat of `turns` recorded turns, read once into the store's cache."""
    conversation_id = bench.store.create_conversation(USER, "food")
    bench.store.append_messages(conversation_id, grocery_chat(turns, bench.recorded))
    bench.store.load_messages(conversation_id)  # as the page that drew it has
    return ChatSession(
        store=bench.store,
        user_id=USER,
        vertical_id="food",
        client=lambda: bench.client,  # type: ignore[arg-type, return-value]
        setup=bench.setup,
        manager=bench.manager,
        conversation_id=conversation_id,
    )


def _bare(bench: Bench, raw_client: Any, plain: McpManager) -> Sample:
    """The same SDK stream and MCP calls as the last turn, with no app code around them."""
    kwargs, calls = bench.outside.stream_kwargs, list(bench.outside.mcp_calls)
    wall, cpu = time.perf_counter(), time.process_time()
    with raw_client.beta.messages.stream(**kwargs) as stream:
        for _ in stream:
            pass
        stream.get_final_message()
    for server, token, name, arguments in calls:
        plain.call_tool(server, token, name, arguments)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return Sample(0.0, cpu * 1000, wall * 1000)


def _rounds(bench: Bench, rounds: int, raw_client: Any, plain: McpManager) -> None:
    for round_index in range(rounds):
        for turns in SIZES:
            session = _chat_of(bench, turns)
            _turn(bench, session, "warm-up: find milk and place the order")
            for index in range(MEASURED):
                text = f"find some milk and place the order ({round_index}.{index})"
                bench.figures.setdefault(turns, []).append(_turn(bench, session, text))
            bench.baseline.append(_bare(bench, raw_client, plain))
        print(f"round {round_index + 1}/{rounds} done", file=sys.stderr, flush=True)


@contextmanager
def _other_process() -> Iterator[dict[str, Any]]:
    """The emulator and the sandbox servers, in a child process; its URLs."""
    # Its log goes to a file, shown only if it fails to start (stopping it is noisy).
    with tempfile.TemporaryFile("w+") as log:
        child = subprocess.Popen(
            [sys.executable, str(SERVERS_SCRIPT)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
        )
        try:
            assert child.stdout is not None
            line = child.stdout.readline()  # blocks until both servers listen
            if not line:
                log.seek(0)
                raise SystemExit(f"the servers' process did not start:\n{log.read()[-3000:]}")
            yield json.loads(line)
        finally:
            assert child.stdin is not None
            child.stdin.close()
            child.wait(30)


def _median_p95(values: list[float]) -> tuple[float, float]:
    return statistics.median(values), statistics.quantiles(values, n=20)[-1]


def _report(bench: Bench) -> bool:
    medians: dict[int, float] = {}
    for turns in SIZES:
        samples = bench.figures[turns]
        own, p95 = _median_p95([s.own_ms for s in samples])
        medians[turns] = own
        outside = statistics.median(s.outside_ms for s in samples)
        wall = statistics.median(s.wall_ms for s in samples)
        print(f"{turns:4d} turns: own CPU median {own:5.1f} ms  p95 {p95:5.1f} ms   "
              f"SDK + MCP client CPU {outside:5.1f} ms   wall {wall:6.1f} ms   "
              f"({len(samples)} turns)")  # fmt: skip
    bare_cpu = statistics.median(s.outside_ms for s in bench.baseline)
    bare_wall = statistics.median(s.wall_ms for s in bench.baseline)
    print(f"baseline, the bare SDK stream + MCP calls, no app code: CPU {bare_cpu:5.1f} ms   "
          f"wall {bare_wall:6.1f} ms")  # fmt: skip
    worst = max(medians.values())
    growth = medians[SIZES[-1]] / medians[SIZES[0]]
    print(f"slowest median own CPU: {worst:.1f} ms   target ≤ {TARGET_MS:.0f} ms")
    print(f"growth {SIZES[0]} → {SIZES[-1]} turns: {growth:.2f}×   target ≤ {TARGET_GROWTH}×")
    return worst <= TARGET_MS and growth <= TARGET_GROWTH


def main() -> None:
    logging.getLogger("swiggy_core").setLevel(logging.ERROR)
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else ROUNDS
    with tempfile.TemporaryDirectory() as folder, _other_process() as urls:
        servers: dict[str, str] = urls["servers"]
        outside = Outside()
        raw_client = make_client("sk-ant-bench", urls["emulator"])
        setup = TurnSetup(
            vertical_id="food",
            model=DEFAULT_MODEL,
            swiggy_token=DEMO_TOKEN,
            server_urls={key: servers[key] for key in MCP_SERVERS},
            engine="connector",
        )
        bench = Bench(
            store=ChatStore(f"sqlite:///{Path(folder) / 'turns.db'}"),
            setup=setup,
            client=TimedClient(raw_client, outside),
            manager=TimedManager(outside),
            outside=outside,
            recorded=record_grocery_calls_at(servers["instamart"]),
        )
        plain = McpManager()
        try:
            _rounds(bench, rounds, raw_client, plain)
        finally:
            bench.manager.close()
            plain.close()
            bench.store.close()
    print("met" if _report(bench) else "MISSED")


if __name__ == "__main__":
    main()
