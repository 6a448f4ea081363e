"""Our parser against the original demo's, side by side on the same tool results.

    python bench/parsers.py --peer DIR [--rounds R] [--clock cpu|wall] [--batch-ms M]

DIR is a checkout of the original demo built with its own `npm ci`:
    git clone https://github.com/KartikeShukla/swiggy-mcp-demo DIR && (cd DIR && npm ci)
(or set SWIGGY_PEER_DEMO=DIR). Its parser is bundled with its own esbuild and timed under
`node`; ours is `swiggy_core.parsers.parse_tool_result`.

The corpus is recorded in this run from the sandbox's Swiggy-shaped MCP servers (see
`bench/_swiggy_corpus.py`): every answer of a scripted session across the four shops
(the typical results), the real 10 KB product search, and a 1 MB product search built from
real products. For each result, each round times a batch of back-to-back calls of ours,
then of theirs (the first alternates), over R rounds, each batch after a garbage
collection (so none pays for the garbage of the batch before); a result's figure is its median per
call. Clocks: process CPU time on both sides (`--clock cpu`, the default) or wall time.

Targets (ratio ours / theirs): ≤ 0.8 for the typical results' median and p99 and for the
10 KB search; ≤ 0.25 at 1 MB. Also prints which card each parser made of each kind of
result, so a reader sees both did comparable work, and what decoding the JSON alone
costs in Python (pydantic-core's `from_json`), the floor under any Python parser.
Figures only: nothing here is a test.
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import platform
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from _peer import PeerError, PeerParser
from _swiggy_corpus import Case, record_corpus
from pydantic_core import from_json

from swiggy_core.parsers import parse_tool_result

_CLOCKS: dict[str, Callable[[], int]] = {"cpu": time.process_time_ns, "wall": time.perf_counter_ns}
_WARM_CALLS = 5


@dataclass(frozen=True)
class Verdict:
    label: str
    ours_us: float
    theirs_us: float
    target_ratio: float

    def line(self) -> str:
        ratio = self.ours_us / self.theirs_us
        verdict = "met" if ratio <= self.target_ratio else "MISSED"
        return (
            f"{self.label:<30} ours {_fmt(self.ours_us)}   original demo {_fmt(self.theirs_us)}"
            f"   ratio {ratio:5.2f}×   target ≤ {self.target_ratio:.2f}×   {verdict}"
        )


def _fmt(us: float) -> str:
    return f"{us / 1000:7.2f} ms" if us >= 10_000 else f"{us:7.1f} µs"


class Ours:
    """Our parser, timed the way the harness times the demo's (a batch, per-call mean)."""

    def __init__(self, cases: list[Case], clock: Callable[[], int]) -> None:
        self._cases = cases
        self._clock = clock

    def per_call_us(self, index: int, reps: int) -> float:
        case = self._cases[index]
        tool, vertical, content = case.tool, case.vertical, case.content
        tool_input = case.tool_input
        start = self._clock()
        for _ in range(reps):
            parse_tool_result(tool, content, vertical, tool_input)
        return (self._clock() - start) / reps / 1_000

    def kind(self, index: int) -> tuple[str, int]:
        case = self._cases[index]
        result = parse_tool_result(case.tool, case.content, case.vertical, case.tool_input)
        items = next((getattr(result, key) for key in _ITEM_LISTS if hasattr(result, key)), [])
        return result.type, len(items)


_ITEM_LISTS = ("items", "restaurants", "slots", "addresses")


class DecodeOnly(Ours):
    """The floor under any Python parser: decoding the result's JSON text, nothing else."""

    def per_call_us(self, index: int, reps: int) -> float:
        text = "\n".join(block["text"] for block in self._cases[index].content)
        start = self._clock()
        for _ in range(reps):
            from_json(text)
        return (self._clock() - start) / reps / 1_000


def _time_side_by_side(
    sides: list[Ours | PeerParser], count: int, rounds: int, batch_us: float
) -> list[list[float]]:
    """Per-result median µs per call of each side, interleaved result by result."""
    reps = []
    for index in range(count):
        for _ in range(_WARM_CALLS):  # warm caches and node's JIT
            for side in sides:
                side.per_call_us(index, 1)
        quickest = min(side.per_call_us(index, 3) for side in sides)
        reps.append(max(1, math.ceil(batch_us / max(quickest, 0.5))))
    times: list[list[list[float]]] = [[[] for _ in range(count)] for _ in sides]
    for round_number in range(rounds):
        order = list(enumerate(sides))
        if round_number % 2:
            order.reverse()  # who goes first alternates
        for index in range(count):
            for number, side in order:
                # Each batch starts with no garbage left by the one before (the decode
                # floor's 1 MB leaves 100,000 objects): a batch pays for its own
                # collections, not its neighbour's.
                gc.collect()
                times[number][index].append(side.per_call_us(index, reps[index]))
    return [[statistics.median(t) for t in side_times] for side_times in times]


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(len(ordered) * 0.99) - 1)]


def _describe(cases: list[Case]) -> str:
    sizes = sorted(case.size for case in cases)
    return (
        f"{len(cases)} results from {len({c.tool for c in cases})} tools, "
        f"{sizes[0]}–{sizes[-1]} B, median {statistics.median(sizes):.0f} B"
    )


def _cards_table(ours: Ours, theirs: PeerParser, cases: list[Case]) -> list[str]:
    """Which card each parser made, per tool (same input)."""
    rows: Counter[tuple[str, str, str]] = Counter()
    for index, case in enumerate(cases):
        mine, mine_count = ours.kind(index)
        peer, peer_count = theirs.kind(index)
        rows[(case.tool, f"{mine}({mine_count})", f"{peer}({peer_count})")] += 1
    lines = [f"  {'tool':<28} {'ours (items)':<24} {'original demo (items)':<24} results"]
    for (tool, mine, peer), times in sorted(rows.items()):
        lines.append(f"  {tool:<28} {mine:<24} {peer:<24} {times}")
    return lines


def main() -> int:
    """Print the figures; exit 2 when the original demo's checkout is missing."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--peer", default=os.environ.get("SWIGGY_PEER_DEMO", ""))
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--clock", choices=sorted(_CLOCKS), default="cpu")
    parser.add_argument("--batch-ms", type=float, default=2.0, help="time per timed batch")
    parser.add_argument("--cards", action="store_true", help="also print each side's cards")
    args = parser.parse_args()
    if not args.peer:
        print("Needs the original demo's checkout: --peer DIR or SWIGGY_PEER_DEMO=DIR.")
        print(__doc__.split("\n\n")[1])
        return 2
    corpus = record_corpus()
    cases = [*corpus.typical, corpus.search_10kb, corpus.search_1mb]
    typical = len(corpus.typical)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"machine: {os.cpu_count()} cores, load {load}; Python {platform.python_version()}")
    print(f"typical results: {_describe(corpus.typical)}")
    print(f"10 KB search: {corpus.search_10kb.size} B; 1 MB search: {corpus.search_1mb.size} B")
    ours = Ours(cases, _CLOCKS[args.clock])
    try:
        with PeerParser(Path(args.peer), [c.as_json() for c in cases], args.clock) as theirs:
            if args.cards:
                print("\n".join(_cards_table(ours, theirs, cases)))
            decode = DecodeOnly(cases, _CLOCKS[args.clock])
            mine, peer, floor = _time_side_by_side(
                [ours, theirs, decode], len(cases), args.rounds, args.batch_ms * 1_000
            )
    except PeerError as error:
        print(f"The original demo could not run: {error}")
        return 2
    print(f"({args.clock} clock; per-call median of {args.rounds} interleaved rounds per result)")
    figures = [
        ("typical results, median", statistics.median, slice(0, typical), 0.8),
        ("typical results, p99", _p99, slice(0, typical), 0.8),
        ("10 KB product search", statistics.median, slice(typical, typical + 1), 0.8),
        ("1 MB product search", statistics.median, slice(typical + 1, typical + 2), 0.25),
    ]
    for label, summary, part, target in figures:
        print(Verdict(label, summary(mine[part]), summary(peer[part]), target).line())
        print(f"{'':30} (decoding its JSON alone in Python: {_fmt(summary(floor[part]))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
