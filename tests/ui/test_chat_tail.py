"""A rerun of a long chat reads only the turns it draws, and its count of the hidden ones
comes from the stored history's kept turn starts, staying right as turns are added; a
rerun after a new turn replays only that turn into the cart."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import Any, overload

import pytest
from streamlit.testing.v1 import AppTest
from uihelpers import open_page, texts

from swiggy_core import cart
from swiggy_core.models import ChatMessage, MessageMeta, block_from_dict
from swiggy_core.parsers import CartLine, CartResult
from swiggy_core.store import ChatStore

BROWSER = "0123456789abcdef0123456789abcdef"
VIEWER = f"b-{BROWSER}@sandbox"
TURNS = 40
SHOWN = 6  # state.TURNS_SHOWN: the newest turns a chat draws at first
TIMEOUT = 60


def _turn(index: int) -> list[ChatMessage]:
    """The person's question and a reply whose cart holds `index + 1` milk."""
    use_id = f"cart{index}"
    use = {"type": "mcp_tool_use", "id": use_id, "name": "update_cart",
           "server_name": "swiggy-instamart", "input": {}}  # fmt: skip
    result = {"type": "mcp_tool_result", "tool_use_id": use_id, "content": "{}"}
    line = CartLine(name="Milk", quantity=index + 1, spin_id="S1", unit_price=27.0)
    snapshot = CartResult(tool_name="update_cart", items=[line], to_pay=27.0 * (index + 1))
    reply = ChatMessage(
        role="assistant",
        content=[block_from_dict(use), block_from_dict(result)],
        meta=MessageMeta(cards={use_id: snapshot}),
    )
    return [ChatMessage(role="user", content=f"question {index}"), reply]


class CountedHistory(Sequence[ChatMessage]):
    """A chat that notes the index of every message read from it."""

    def __init__(self, messages: list[ChatMessage]) -> None:
        self._messages = messages
        self.read: set[int] = set()

    def __len__(self) -> int:
        return len(self._messages)

    @overload
    def __getitem__(self, index: int) -> ChatMessage: ...
    @overload
    def __getitem__(self, index: slice) -> list[ChatMessage]: ...
    def __getitem__(self, index: int | slice) -> ChatMessage | list[ChatMessage]:
        if isinstance(index, slice):
            self.read.update(range(len(self._messages))[index])
            return self._messages[index]
        self.read.add(index % len(self._messages))
        return self._messages[index]

    def __iter__(self) -> Iterator[ChatMessage]:
        self.read.update(range(len(self._messages)))
        return iter(self._messages)


def _draw(history, starts) -> None:  # type: ignore[no-untyped-def]  # runs as its own script
    from swiggy_core.verticals import get_vertical
    from swiggy_ui.chat import render_history

    render_history(history, get_vertical("food"), turns_shown=6, turn_starts=starts)


def test_a_rerun_reads_only_the_turns_it_draws() -> None:
    messages = [message for index in range(TURNS) for message in _turn(index)]
    history = CountedHistory(messages)
    starts = list(range(0, len(messages), 2))
    at = AppTest.from_function(_draw, args=(history, starts), default_timeout=TIMEOUT).run()
    assert not at.exception
    first = 2 * (TURNS - SHOWN)
    # The drawn turns, and the reply just before them whose cart the first drawn one
    # compares with: nothing older is read.
    assert min(history.read) == first - 1
    assert f"{TURNS - SHOWN} earlier messages" in texts(at.caption)
    assert "Cart updated: +1 × Milk" in texts(at.markdown) + texts(at.caption)
    history.read.clear()
    at.run()
    assert min(history.read) >= first - 1


@pytest.fixture
def stored_chat() -> Iterator[tuple[ChatStore, str]]:
    store = ChatStore(os.environ["SWIGGY_DATABASE_URL"])  # as another tab or replica
    conversation_id = store.create_conversation(VIEWER, "food")
    store.append_messages(conversation_id, [m for index in range(20) for m in _turn(index)])
    yield store, conversation_id
    store.close()


def test_the_page_counts_hidden_turns_from_the_kept_history(
    app: AppTest, stored_chat: tuple[ChatStore, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_scan(messages: Sequence[ChatMessage]) -> list[int]:
        raise AssertionError("the page scanned the whole chat for its turns")

    monkeypatch.setattr("swiggy_ui.chat.turn_starts_of", no_scan)
    replayed: list[str] = []  # every tool call the cart is replayed through
    real_apply = cart.apply_call

    def counted_apply(state: object, call: Any, *rest: object) -> object:
        replayed.append(call.id)
        return real_apply(state, call, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(cart, "apply_call", counted_apply)
    app.session_state["browser_id"] = BROWSER
    at = open_page(app, "nutricart")
    assert not at.exception
    assert "14 earlier messages" in texts(at.caption)
    store, conversation_id = stored_chat
    store.append_messages(conversation_id, _turn(20))
    replayed.clear()
    at.run()
    assert not at.exception
    assert "15 earlier messages" in texts(at.caption)
    assert replayed == ["cart20"]  # the cart replays the new turn only
    said = [texts(m.markdown) for m in at.chat_message if m.name == "user"]
    assert said == [f"question {index}" for index in range(15, 21)]
