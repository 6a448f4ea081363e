"""Billed-equivalent input tokens of a grocery chat: the app's requests against naive ones.

Four scripted NutriCart conversations (12 and 100 turns, each a minute apart and with a
person's pauses, see _token_chats) run through the real `anthropic` SDK, the Messages API
emulator (its prompt-cache accounting follows the documented rules, on a clock the bench
moves, so a pause costs no waiting) and the sandbox MCP servers, with the offline planner
as the model. In the same run each conversation is sent as the app sends it under each
cache policy (5-minute breakpoints, 1-hour ones, or 1-hour on the tools and system prompt
and 5-minute on the conversation), and once naive (the whole stored history, no
cache_control, no context editing; nothing is cached, so its bill does not depend on the
pauses and one naive run serves both chats of a length). Billed-equivalent input = input
+ 1.25 × 5-minute writes + 2 × 1-hour writes + 0.1 × reads. Targets: ≥ 80 % saved over
12 turns, ≥ 95 % over 100, under the policy the app uses.

The model must see what it saw before, whatever the pauses and the policy: every run of
the same words gets the same replies from the model, turn by turn (same words, same tool
calls), paused or not. The policy that saves most over the four chats must be the one the
app uses (swiggy_core.constants.CACHE_POLICY).

    python bench/tokens.py            # --turns prints every turn of the long chats too
"""

from __future__ import annotations

import argparse
import logging
import sys
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import anthropic
from _token_chats import Chat, bench_chats

from swiggy_core.actions import typed_message
from swiggy_core.constants import CACHE_POLICY, MCP_SERVERS, SWIGGY_TZ
from swiggy_core.conversation import sanitize_messages
from swiggy_core.conversation.cache_points import (
    POLICY_TTLS,
    CacheTtl,
    with_cache_policy,
    without_cache_marks,
)
from swiggy_core.engine import TurnSetup
from swiggy_core.engine.setup import build_turn_params
from swiggy_core.models import ChatMessage
from swiggy_sandbox.catalog.wire import address_wire
from swiggy_sandbox.emulator import EmulatorServer
from swiggy_sandbox.planner import PlannerBrain
from swiggy_sandbox.servers import RateLimits, SandboxHttpServer

# A Friday lunchtime; the chats' minutes count from here.
START = datetime(2026, 11, 20, 13, 0, tzinfo=SWIGGY_TZ)
MODEL = "claude-haiku-4-5"
WRITE_RATES: dict[CacheTtl, float] = {"5m": 1.25, "1h": 2.0}
READ_RATE = 0.1
TTLS: tuple[CacheTtl, ...] = ("5m", "1h")
POLICIES = tuple(POLICY_TTLS)
TARGETS = {12: 0.80, 100: 0.95}
# Without --turns, long chats show their first turns and every tenth.
SHOWN_FIRST_TURNS = 3
SHOWN_EVERY = 10


class BenchClock:
    """The emulator's prompt-cache clock: seconds the bench sets before each request."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Bill:
    """Usage per turn as the emulator reported it, and what the model did each turn."""

    turns: list[dict[str, int]] = field(default_factory=list)
    replies: list[list[Any]] = field(default_factory=list)

    def add(self, usage: Any, content: list[dict[str, Any]]) -> None:
        split = usage.cache_creation
        hour = int(split.ephemeral_1h_input_tokens) if split else 0
        self.turns.append(
            {
                "input": int(usage.input_tokens),
                "5m": int(usage.cache_creation_input_tokens or 0) - hour,
                "1h": hour,
                "read": int(usage.cache_read_input_tokens or 0),
            }
        )
        self.replies.append([_what_the_model_did(block) for block in content])

    @staticmethod
    def billed(turn: dict[str, int]) -> float:
        writes = sum(WRITE_RATES[ttl] * turn[ttl] for ttl in TTLS)
        return turn["input"] + writes + READ_RATE * turn["read"]

    def total(self) -> float:
        return sum(self.billed(turn) for turn in self.turns)


def _what_the_model_did(block: dict[str, Any]) -> Any:
    """A reply block without its per-run ids: words said, tools called with what."""
    if block["type"] == "text":
        return block["text"]
    if block["type"] in ("mcp_tool_use", "tool_use"):
        return (block["name"], block.get("input"))
    return block["type"]


def naive(params: dict[str, Any], history: list[ChatMessage]) -> dict[str, Any]:
    """The same turn with no optimisation: whole history, no cache_control, no edits."""
    sendable = [message for message in history if not message.meta.excluded]
    plain = {key: value for key, value in params.items() if key != "context_management"}
    plain["messages"] = [message.to_param() for message in sanitize_messages(sendable)]
    return without_cache_marks(plain)


def run_chat(sandbox: SandboxHttpServer, chat: Chat, user: str, policy: str | None) -> Bill:
    """One conversation through a fresh emulator (its own prompt cache); naive if no policy."""
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
    clock = BenchClock()
    with (
        EmulatorServer(PlannerBrain(), clock=clock) as emulator,
        anthropic.Anthropic(api_key="sk-bench", base_url=emulator.base_url, max_retries=0) as sdk,
    ):
        for text, minute in zip(chat.said, chat.minutes(), strict=True):
            history.append(typed_message(text))
            clock.now = minute * 60.0
            params: Any = build_turn_params(setup, history, now=START + timedelta(minutes=minute))
            params = with_cache_policy(params, policy) if policy else naive(params, history)
            with sdk.beta.messages.stream(**params) as stream:
                reply = stream.get_final_message()
            blocks = [block.model_dump(mode="json", exclude_none=True) for block in reply.content]
            bill.add(reply.usage, blocks)
            history.append(ChatMessage.model_validate({"role": "assistant", "content": blocks}))
    return bill


def report(chat: Chat, bills: dict[str, Bill], baseline: Bill, every_turn: bool) -> bool:
    """Per turn (all, or the first three and every tenth), then each policy's saving."""
    print(f"{chat.name}:\n  turn  minute      naive" + "".join(f"{p:>11}" for p in POLICIES))
    minutes = chat.minutes()
    for index, plain in enumerate(baseline.turns):
        turn = index + 1
        if every_turn or turn <= SHOWN_FIRST_TURNS or turn % SHOWN_EVERY == 0:
            tuned = "".join(f"{Bill.billed(bills[p].turns[index]):11,.0f}" for p in POLICIES)
            print(f"  {turn:4d} {minutes[index]:7d} {Bill.billed(plain):10,.0f}{tuned}")
    target = TARGETS[len(chat.said)]
    saved = {policy: 1 - bills[policy].total() / baseline.total() for policy in POLICIES}
    for policy in POLICIES:
        print(f"  {policy:>9}: {bills[policy].total():10,.0f}  saved {saved[policy]:.1%}")
    met = saved[CACHE_POLICY] >= target
    print(
        f"{chat.name}: naive {baseline.total():,.0f}  app ({CACHE_POLICY}) "
        f"{bills[CACHE_POLICY].total():,.0f}  saved {saved[CACHE_POLICY]:.1%}  "
        f"target ≥ {target:.0%}  {'met' if met else 'MISSED'}\n"
    )
    return met


def choose_policy(runs: list[tuple[dict[str, Bill], Bill]]) -> bool:
    """The policy that saves most over all the chats, against the one the app uses."""
    naive_total = sum(baseline.total() for _, baseline in runs)
    saved = {p: 1 - sum(bills[p].total() for bills, _ in runs) / naive_total for p in POLICIES}
    best = max(POLICIES, key=lambda policy: saved[policy])
    shown = "  ".join(f"{policy} {saved[policy]:.1%}" for policy in POLICIES)
    verdict = "met" if best == CACHE_POLICY else "MISSED"
    print(f"all chats saved: {shown}; best {best}; the app uses {CACHE_POLICY}  {verdict}")
    return best == CACHE_POLICY


def same_replies(chats: list[Chat], runs: list[tuple[dict[str, Bill], Bill]]) -> bool:
    """Whether every run of the same words got the same replies, paused or not."""
    seen: dict[tuple[str, ...], list[list[Any]]] = {}
    same = True
    for chat, (bills, _) in zip(chats, runs, strict=True):
        for policy in POLICIES:
            first = seen.setdefault(chat.said, bills[policy].replies)
            same &= bills[policy].replies == first
    print(
        f"the model replied the same in every run of the same words: {'met' if same else 'MISSED'}"
    )
    return same


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--turns", action="store_true", help="print every turn of every chat")
    args = parser.parse_args()
    limits = RateLimits(requests=100_000, writes=100_000)
    met = True
    chats = bench_chats()
    runs: list[tuple[dict[str, Bill], Bill]] = []
    naive_bills: dict[tuple[str, ...], Bill] = {}
    with SandboxHttpServer(clock=lambda: START, limits=limits) as sandbox:
        for number, chat in enumerate(chats):
            bills = {p: run_chat(sandbox, chat, f"bench-{number}-{p}", p) for p in POLICIES}
            if chat.said not in naive_bills:  # the naive bill ignores pauses: nothing cached
                naive_bills[chat.said] = run_chat(sandbox, chat, f"bench-{number}-naive", None)
            baseline = naive_bills[chat.said]
            every_turn = args.turns or len(chat.said) <= 2 * SHOWN_EVERY
            met &= report(chat, bills, baseline, every_turn)
            runs.append((bills, baseline))
        met &= choose_policy(runs)
        met &= same_replies(chats, runs)
        # The sandbox stops with the emulated connector's MCP sessions still open: uvicorn
        # logs their cancellation, which says nothing about tokens.
        logging.getLogger("uvicorn.error").setLevel(logging.CRITICAL)
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
