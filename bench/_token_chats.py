"""The grocery chats bench/tokens.py bills: what the person says, and when.

Each chat is a list of requests and the minutes between one request and the next. The
steady chats go on a minute apart; the paused ones are how people shop: a few quick
requests, then a pause to check the fridge or take a call (over five minutes), and now
and then one over an hour (lunch, the evening, the next morning).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import cycle, islice

GROCERY_12 = (
    "find high-protein snacks under 200",
    "add 2 of the first one",
    "add 3 lays classic salted chips",
    "show my cart",
    "eggs and bread for breakfast",
    "add the first one",
    "ingredients for paneer tonight",
    "add the first one",
    "remove the chips",
    "find amul taaza milk",
    "add the first one",
    "show my cart",
)
# The long chat: a week of small top-ups, the same kinds of request over and over.
_ROUND = (
    "find {item}",
    "add the first one",
    "show my cart",
    "find {other}",
    "add 2 of the first one",
)
_ITEMS = ("milk", "eggs", "bread", "curd", "oats", "paneer", "banana", "rice", "atta", "ghee")

# Minutes before each request of the paused 12-turn chat (after the first): two pauses over
# five minutes (12 and 8), one over an hour (95), the rest a minute or three.
PAUSES_12 = (1, 2, 1, 12, 1, 3, 95, 1, 2, 8, 1)
# The paused long chat: rounds of five requests one or two minutes apart, and between
# rounds these pauses in turn: some under an hour, some over (up to the next morning).
_WITHIN_ROUND = (1, 2, 1, 2)
_BETWEEN_ROUNDS = (14, 180, 35, 9, 600, 22, 75, 11, 240, 45)


@dataclass(frozen=True)
class Chat:
    """One conversation: what the person says, and the minutes before each request."""

    name: str
    said: tuple[str, ...]
    gaps: tuple[int, ...]  # len(said) - 1 pauses, in minutes

    def minutes(self) -> list[int]:
        """When each request is made, in minutes from the first."""
        at = [0]
        for gap in self.gaps:
            at.append(at[-1] + gap)
        return at


def long_chat(turns: int) -> tuple[str, ...]:
    """`turns` grocery requests cycling through everyday items."""
    said: list[str] = []
    for index, template in enumerate(islice(cycle(_ROUND), turns)):
        item = _ITEMS[(index // len(_ROUND)) % len(_ITEMS)]
        other = _ITEMS[(index // len(_ROUND) + 5) % len(_ITEMS)]
        said.append(template.format(item=item, other=other))
    return tuple(said)


def long_pauses(turns: int) -> tuple[int, ...]:
    """The paused long chat's minutes between requests."""
    between = cycle(_BETWEEN_ROUNDS)
    gaps: list[int] = []
    for index in range(1, turns):
        within = index % len(_ROUND)
        gaps.append(_WITHIN_ROUND[within - 1] if within else next(between))
    return tuple(gaps)


def bench_chats() -> list[Chat]:
    """The four chats: 12 and 100 turns, each a minute apart and with pauses."""
    long = long_chat(100)
    return [
        Chat("12 turns", GROCERY_12, (1,) * 11),
        Chat("12 turns, paused", GROCERY_12, PAUSES_12),
        Chat("100 turns", long, (1,) * 99),
        Chat("100 turns, paused", long, long_pauses(100)),
    ]
