"""A turn's own work does not grow with the chat: a history grown by one turn is prepared
(and its calls listed for the local engine's checks) by working on its new messages only,
and settling the chat before a message reads no earlier message at all."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from approval_records import new_approval
from sqlalchemy import event

from swiggy_core.approval import on_sight
from swiggy_core.constants import APPROVAL_TOOL_NAME
from swiggy_core.conversation import sanitize, summary, truncate
from swiggy_core.conversation.request import prepare_messages
from swiggy_core.engine import exchanges
from swiggy_core.engine.exchanges import conversation_exchanges
from swiggy_core.engine.setup import TurnSetup, build_turn_params
from swiggy_core.hooks import exchanges_of
from swiggy_core.models import ChatMessage, ToolResultBlock, block_from_dict
from swiggy_core.store import ChatStore, approval_queries
from swiggy_core.turn.approval_requests import close_open_requests

TURNS = 60
BIG = json.dumps({"success": True, "data": {"products": [{"name": "x" * 90}] * 80}})


def _turn(index: int, *, ask: bool = False) -> list[ChatMessage]:
    """The person's words and a reply holding one big search result (and an approval
    request, when `ask`)."""
    use = {"type": "mcp_tool_use", "id": f"m{index}", "name": "search_products",
           "server_name": "swiggy-instamart", "input": {"query": f"milk {index}"}}  # fmt: skip
    result = {"type": "mcp_tool_result", "tool_use_id": f"m{index}", "content": BIG}
    blocks = [block_from_dict(use), block_from_dict(result)]
    if ask:
        request = {"type": "tool_use", "id": f"ask{index}", "name": APPROVAL_TOOL_NAME,
                   "input": {"tool": "checkout", "arguments": {}}}  # fmt: skip
        blocks.append(block_from_dict(request))
    said = ChatMessage(role="user", content=f"milk for 4 people under ₹500 ({index})")
    return [said, ChatMessage(role="assistant", content=blocks)]


def _counted(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[int]:
    """Count the calls of `module.name` (a list holding the count)."""
    real: Callable[..., Any] = getattr(module, name)
    count = [0]

    def counting(*args: Any, **kwargs: Any) -> Any:
        count[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counting)
    return count


def test_a_grown_history_is_prepared_from_its_new_messages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    history = [message for index in range(TURNS) for message in _turn(index)]
    setup = TurnSetup(vertical_id="food", model="claude-haiku-4-5", swiggy_token="t")
    build_turn_params(setup, history[:-2])  # the turn before: the same message objects
    sanitised = _counted(monkeypatch, sanitize, "_sanitized")
    read_words = _counted(monkeypatch, summary, "_said")
    reduced = _counted(monkeypatch, truncate, "reduce_for_model")
    build_turn_params(setup, history)
    # Two new messages (and the one before them, whose follower is new), in the whole
    # history and in the window sent: not one per message of the chat.
    assert sanitised[0] <= 6
    assert read_words[0] == 1  # the person's new words only
    assert reduced[0] <= 2  # old results are cut once, not again every turn
    assert prepare_messages(history)  # and the request is still there


def test_settling_before_a_message_reads_no_earlier_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = ChatStore(f"sqlite:///{tmp_path / 'chats.db'}")
    conversation_id = store.create_conversation("alice", "food")
    chat = [message for index in range(TURNS) for message in _turn(index)]
    store.append_messages(conversation_id, [*chat, *_turn(TURNS, ask=True)])

    steps: Any = lambda vertical_id: None  # noqa: E731  # nothing is left to settle by reading
    assert not on_sight.settle_conversation(store, conversation_id, steps).changed
    assert store.load_history(conversation_id).open_uses == {f"ask{TURNS}"}
    # Refused while the turn was cut off: answered now, found without a scan either.
    record = store.create_approval(new_approval(conversation_id, tool_use_id=f"ask{TURNS}"))
    store.transition_approval(record.id, ["pending"], "refused", note="The cart changed.")
    settled = on_sight.settle_conversation(store, conversation_id, steps)
    assert settled.answered == (f"ask{TURNS}",)
    assert store.load_history(conversation_id).open_uses == frozenset()
    store.close()


def test_settling_decodes_only_the_approvals_of_open_requests(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = ChatStore(f"sqlite:///{tmp_path / 'chats.db'}")
    conversation_id = store.create_conversation("alice", "food")
    for index in range(TURNS):  # a long chat of orders placed, each one answered
        store.append_messages(conversation_id, _turn(index, ask=True))
        record = store.create_approval(new_approval(conversation_id, tool_use_id=f"ask{index}"))
        store.transition_approval(record.id, ["pending"], "executing")
        store.transition_approval(record.id, ["executing"], "done")
        answer = ToolResultBlock(tool_use_id=f"ask{index}", content="placed")
        store.append_messages(conversation_id, [ChatMessage(role="user", content=[answer])])
    store.append_messages(conversation_id, _turn(TURNS, ask=True))
    store.create_approval(new_approval(conversation_id, tool_use_id=f"ask{TURNS}"))
    decoded = _counted(monkeypatch, approval_queries, "record_of")
    steps: Any = lambda vertical_id: None  # noqa: E731  # nothing is left to settle by reading
    assert not on_sight.needs_settling(store, conversation_id)
    settled = on_sight.settle_conversation(store, conversation_id, steps)
    assert not settled.changed
    assert [record.tool_use_id for record in settled.requests] == [f"ask{TURNS}"]
    assert decoded[0] == 2  # the open request's pending approval, once per look
    store.close()


def test_the_local_engines_call_history_reads_only_new_messages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    history: list[ChatMessage] = []
    for index in range(TURNS):
        history += _turn(index, ask=index % 3 == 0)
        if index % 3 == 0 and index % 2 == 0:  # some requests answered, others left open
            answer = {"type": "tool_result", "tool_use_id": f"ask{index}", "content": "{}"}
            history.append(ChatMessage(role="user", content=[block_from_dict(answer)]))
    for end in range(1, len(history) + 1):  # turn after turn, the same message objects
        assert conversation_exchanges(history[:end]) == exchanges_of(history[:end])
    conversation_exchanges(history[:-2])
    read = _counted(monkeypatch, exchanges, "exchange_of")
    conversation_exchanges(history)
    assert read[0] == 1  # the one new answered call


def test_answering_the_open_request_reads_only_its_approval(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = ChatStore(f"sqlite:///{tmp_path / 'chats.db'}")
    conversation_id = store.create_conversation("alice", "food")
    for index in range(TURNS):  # a long chat: each turn asked, and was left open
        store.open_approval(
            new_approval(conversation_id, tool_use_id=f"ask{index}"),
            lambda record: ("approval_requested", {"approval": record.id}),
        )
    history = _turn(TURNS - 1, ask=True)
    decoded = _counted(monkeypatch, approval_queries, "record_of")
    said = ChatMessage(role="user", content="now with bread")
    message = close_open_requests(store, conversation_id, history, said)
    assert decoded[0] == 1  # the asked one; superseding it needs no second read
    answer = message.blocks()[0]
    assert isinstance(answer, ToolResultBlock) and answer.tool_use_id == f"ask{TURNS - 1}"
    store.close()


def test_a_request_settling_just_read_is_superseded_in_one_transaction(
    tmp_path: Path,
) -> None:
    store = ChatStore(f"sqlite:///{tmp_path / 'chats.db'}")
    conversation_id = store.create_conversation("alice", "food")
    store.append_messages(conversation_id, _turn(0, ask=True))
    store.create_approval(new_approval(conversation_id, tool_use_id="ask0"))
    history = store.load_messages(conversation_id)
    steps: Any = lambda vertical_id: None  # noqa: E731  # nothing is left to settle by reading
    known = on_sight.settle_conversation(store, conversation_id, steps).requests
    transactions: list[object] = []
    event.listen(store.engine, "checkout", lambda *args: transactions.append(args))
    said = ChatMessage(role="user", content="now with bread")
    message = close_open_requests(store, conversation_id, history, said, known)
    assert len(transactions) == 1  # no read of the approval again, no look for one first
    answer = message.blocks()[0]
    assert isinstance(answer, ToolResultBlock) and "superseded" in str(answer.content)
    assert store.approvals_for(conversation_id, ["superseded"])
    store.close()
