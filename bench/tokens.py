"""Billed-equivalent input tokens of a grocery chat: the app's requests against naive ones.

Two scripted NutriCart conversations (12 and 100 turns) run through the real `anthropic`
SDK, the Messages API emulator (its prompt-cache accounting follows the documented rules)
and the sandbox MCP servers, with the offline planner as the model. Each conversation runs
twice from the same start: once as the app sends it (cache breakpoints, context editing,
the message cap, truncated old results), once naive (the whole stored history, no
cache_control, no context editing). Billed-equivalent input = input + 1.25 × cache writes
+ 0.1 × cache reads. Targets: ≥ 70 % saved over 12 turns, ≥ 90 % over 100 turns.

    python bench/tokens.py            # --turns prints every turn of the long chat too
"""

from __future__ import annotations

import argparse
import logging
import sys
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import cycle, islice
from typing import Any

import anthropic

from swiggy_core.actions import typed_message
from swiggy_core.constants import MCP_SERVERS, SWIGGY_TZ
from swiggy_core.conversation import sanitize_messages
from swiggy_core.conversation.cache_points import without_cache_marks
from swiggy_core.engine import TurnSetup
from swiggy_core.engine.setup import build_turn_params
from swiggy_core.models import ChatMessage
from swiggy_sandbox.catalog.wire import address_wire
from swiggy_sandbox.emulator import EmulatorServer
from swiggy_sandbox.planner import PlannerBrain
from swiggy_sandbox.servers import RateLimits, SandboxHttpServer

# A Friday lunchtime; each turn is a minute later, as in a real chat.
START = datetime(2026, 11, 20, 13, 0, tzinfo=SWIGGY_TZ)
MODEL = "claude-haiku-4-5"
WRITE_RATE = 1.25
READ_RATE = 0.1
TARGETS = {12: 0.70, 100: 0.90}
# Without --turns, long chats show their first turns and every tenth.
SHOWN_FIRST_TURNS = 3
SHOWN_EVERY = 10

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


def long_chat(turns: int) -> list[str]:
    """`turns` grocery requests cycling through everyday items."""
    said: list[str] = []
    for index, template in enumerate(islice(cycle(_ROUND), turns)):
        item = _ITEMS[(index // len(_ROUND)) % len(_ITEMS)]
        other = _ITEMS[(index // len(_ROUND) + 5) % len(_ITEMS)]
        said.append(template.format(item=item, other=other))
    return said


@dataclass
class Bill:
    """Usage per turn as the emulator reported it."""

    turns: list[dict[str, int]] = field(default_factory=list)

    def add(self, usage: Any) -> None:
        self.turns.append(
            {
                "input": int(usage.input_tokens),
                "write": int(usage.cache_creation_input_tokens or 0),
                "read": int(usage.cache_read_input_tokens or 0),
            }
        )

    @staticmethod
    def billed(turn: dict[str, int]) -> float:
        return turn["input"] + WRITE_RATE * turn["write"] + READ_RATE * turn["read"]

    def total(self) -> float:
        return sum(self.billed(turn) for turn in self.turns)


def naive(params: dict[str, Any], history: list[ChatMessage]) -> dict[str, Any]:
    """The same turn with no optimisation: whole history, no cache_control, no edits."""
    sendable = [message for message in history if not message.meta.excluded]
    plain = {key: value for key, value in params.items() if key != "context_management"}
    plain["messages"] = [message.to_param() for message in sanitize_messages(sendable)]
    return without_cache_marks(plain)


def run_chat(sandbox: SandboxHttpServer, said: list[str], user: str, *, optimised: bool) -> Bill:
    """One conversation through a fresh emulator (its own prompt cache)."""
    token = sandbox.store.issue(user)
    shop = sandbox.app.state.shop
    setup = TurnSetup(
        vertical_id="food",
        model=MODEL,
        swiggy_token=token,
        server_urls={key: sandbox.url_for(key) for key in MCP_SERVERS},
        address=address_wire(shop.saved_addresses(user)[0]),
        engine="connector",
    )
    history: list[ChatMessage] = []
    bill = Bill()
    with (
        EmulatorServer(PlannerBrain()) as emulator,
        anthropic.Anthropic(api_key="sk-bench", base_url=emulator.base_url, max_retries=0) as sdk,
    ):
        for index, text in enumerate(said):
            history.append(typed_message(text))
            now = START + timedelta(minutes=index)
            params: Any = build_turn_params(setup, history, now=now)
            if not optimised:
                params = naive(params, history)
            with sdk.beta.messages.stream(**params) as stream:
                reply = stream.get_final_message()
            bill.add(reply.usage)
            blocks = [block.model_dump(mode="json", exclude_none=True) for block in reply.content]
            history.append(ChatMessage.model_validate({"role": "assistant", "content": blocks}))
    return bill


def report(name: str, optimised: Bill, baseline: Bill, target: float, every_turn: bool) -> bool:
    """Per turn (all of them, or the first three and every tenth), then the totals."""
    print(f"{name}:  turn     naive  optimised   (optimised: input + writes + reads)")
    for index, (plain, tuned) in enumerate(zip(baseline.turns, optimised.turns, strict=True)):
        turn = index + 1
        if every_turn or turn <= SHOWN_FIRST_TURNS or turn % SHOWN_EVERY == 0:
            print(
                f"  {turn:12d} {Bill.billed(plain):9,.0f} {Bill.billed(tuned):10,.0f}"
                f"   ({tuned['input']:,} + {tuned['write']:,}w + {tuned['read']:,}r)"
            )
    saved = 1 - optimised.total() / baseline.total()
    verdict = "met" if saved >= target else "MISSED"
    print(
        f"{name}: naive {baseline.total():,.0f}  optimised {optimised.total():,.0f}  "
        f"saved {saved:.1%}  target ≥ {target:.0%}  {verdict}\n"
    )
    return saved >= target


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--turns", action="store_true", help="print every turn of every chat")
    args = parser.parse_args()
    limits = RateLimits(requests=100_000, writes=100_000)
    chats = {12: list(GROCERY_12), 100: long_chat(100)}
    met = True
    with SandboxHttpServer(clock=lambda: START, limits=limits) as sandbox:
        for turns, said in chats.items():
            tuned = run_chat(sandbox, said, f"bench-{turns}-tuned", optimised=True)
            plain = run_chat(sandbox, said, f"bench-{turns}-naive", optimised=False)
            every_turn = args.turns or turns <= 2 * SHOWN_EVERY
            met &= report(f"{turns} turns", tuned, plain, TARGETS[turns], every_turn)
        # The sandbox stops with the emulated connector's MCP sessions still open: uvicorn
        # logs their cancellation, which says nothing about tokens.
        logging.getLogger("uvicorn.error").setLevel(logging.CRITICAL)
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
