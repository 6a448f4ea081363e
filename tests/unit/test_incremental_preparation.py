"""Preparing a turn reuses work from earlier turns, and the request is exactly the same as
one prepared from scratch, turn after turn of a long randomised conversation."""

from __future__ import annotations

import copy
import json
import random
from datetime import datetime
from typing import Any

import pytest

from swiggy_core.constants import SWIGGY_TZ
from swiggy_core.conversation import _slots, reduce, sanitize, summary
from swiggy_core.engine.setup import TurnSetup, build_turn_params
from swiggy_core.models import ChatMessage, MessageMeta, block_from_dict

NOW = datetime(2026, 11, 20, 13, 0, tzinfo=SWIGGY_TZ)
WORDS = ("milk", "eggs", "paneer", "bread", "oats", "for 4 people", "under ₹500", "tomorrow")


def _forget_everything() -> None:
    sanitize._memo.clear()
    summary._said_memo.clear()
    reduce._memo.clear()
    _slots._message_slots.cache_clear()


def _products(rng: random.Random, count: int) -> str:
    items = [
        {
            "id": f"p{rng.randrange(10**6)}",
            "name": f"{rng.choice(WORDS)} pack {n}",
            "price": rng.randrange(20, 900),
            "inStock": rng.random() > 0.2,
            "description": "x" * rng.randrange(0, 400),
        }
        for n in range(count)
    ]
    return json.dumps({"success": True, "data": {"products": items}})


def _reply(rng: random.Random, turn: int) -> ChatMessage:
    blocks: list[Any] = [block_from_dict({"type": "text", "text": f"Looking ({turn})."})]
    for call in range(rng.randrange(0, 3)):
        use_id = f"mcptoolu_{turn}_{call}"
        query = rng.choice(WORDS)
        blocks.append(
            block_from_dict(
                {
                    "type": "mcp_tool_use",
                    "id": use_id,
                    "name": "search_products",
                    "server_name": "swiggy-instamart",
                    "input": {"query": query},
                }
            )
        )
        if rng.random() < 0.9:  # now and then a use whose result never came
            text = _products(rng, rng.choice((1, 3, 40)))  # some far over 5 KB
            blocks.append(
                block_from_dict(
                    {
                        "type": "mcp_tool_result",
                        "tool_use_id": use_id,
                        "is_error": False,
                        "content": [{"type": "text", "text": text}],
                    }
                )
            )
    if rng.random() < 0.3:
        blocks.append(block_from_dict({"type": "text", "text": "   "}))  # blank: dropped
    if rng.random() < 0.2:  # asks the app to confirm: answered in the next user message
        confirm = {"tool": "checkout", "arguments": {"addressId": "a1"}}
        blocks.append(
            block_from_dict(
                {
                    "type": "tool_use",
                    "id": f"toolu_{turn}",
                    "name": "request_confirmation",
                    "input": confirm,
                }
            )
        )
    failed = rng.random() < 0.1  # a failed reply stays on screen but is not sent again
    return ChatMessage(role="assistant", content=blocks, meta=MessageMeta(excluded=failed))


def _answer(reply: ChatMessage, rng: random.Random) -> ChatMessage | None:
    """The app's answer to a confirmation the reply asked for (sometimes never given)."""
    asked = [b for b in reply.blocks() if getattr(b, "type", "") == "tool_use"]
    if not asked or rng.random() < 0.3:
        return None
    answer = {"type": "tool_result", "tool_use_id": asked[0].id, "content": '{"approval": "x"}'}
    return ChatMessage(role="user", content=[block_from_dict(answer)])


def _conversation(seed: int, turns: int) -> list[ChatMessage]:
    rng = random.Random(seed)
    messages: list[ChatMessage] = []
    for turn in range(turns):
        said = " and ".join(rng.sample(WORDS, rng.randrange(1, 3)))
        messages.append(ChatMessage(role="user", content=f"{said} ({turn})"))
        if rng.random() < 0.08:
            continue  # the person wrote twice in a row (the reply never came)
        reply = _reply(rng, turn)
        messages.append(reply)
        if (answer := _answer(reply, rng)) is not None:
            messages.append(answer)
    return messages


@pytest.mark.parametrize(("vertical", "seed"), [("food", 1), ("dining", 2), ("style", 3)])
def test_every_turn_prepared_incrementally_equals_one_prepared_from_scratch(
    vertical: str, seed: int
) -> None:
    history = _conversation(seed, turns=90)
    setup = TurnSetup(vertical_id=vertical, model="claude-sonnet-4-5", swiggy_token="t")
    _forget_everything()
    ends = [n for n, message in enumerate(history, start=1) if message.role == "user"]
    for end in ends:
        # Incremental: the very same message objects each turn, as the store's cache keeps.
        warm = build_turn_params(setup, history[:end], now=NOW)
        _forget_everything()
        fresh = build_turn_params(setup, copy.deepcopy(history[:end]), now=NOW)
        assert json.dumps(warm, sort_keys=True) == json.dumps(fresh, sort_keys=True), end
        # Leave the fresh run's memory out of the next warm turn.
        _forget_everything()
        build_turn_params(setup, history[:end], now=NOW)
