"""The reads that prepare an approval are audited in the transaction that stores it, on
SQLite and PostgreSQL; rows left when the holding ends are written together then; a
holding keeps only its own thread's and its own store's calls."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime

from approval_records import new_approval
from sqlalchemy import event

from swiggy_core.store import ChatStore
from swiggy_core.store.tool_audit import ToolCallEntry

USER = "alice@sandbox"


def _read(tool: str) -> ToolCallEntry:
    return ToolCallEntry(
        at=datetime.now(UTC), user_id=USER, world="sandbox", vertical_id="food",
        conversation_id=None, server="instamart", tool=tool, arguments={"token": "secret"},
    )  # fmt: skip


def _transactions(store: ChatStore) -> list[object]:
    begun: list[object] = []
    event.listen(store.engine, "checkout", lambda *args: begun.append(args))
    return begun


def test_the_reads_are_written_with_the_approval_they_prepared(
    open_store: Callable[..., ChatStore],
) -> None:
    store = open_store()
    chat = store.create_conversation(USER, "food")
    begun = _transactions(store)
    with store.holding_tool_calls() as reads:
        for tool in ("get_addresses", "get_payment_options", "get_cart"):
            store.record_tool_call(_read(tool))
        assert begun == []  # held: nothing written yet
        store.open_approval(
            new_approval(chat, user_id=USER),
            lambda record: ("approval_requested", {"approval": record.id}),
            reads,
        )
        assert reads == []
    assert len(begun) == 1  # one transaction: the approval, its audit entry and the reads
    audited = store.tool_calls(USER)
    assert [entry.tool for entry in audited] == ["get_cart", "get_payment_options", "get_addresses"]
    assert all(entry.arguments == {"token": "***"} for entry in audited)  # redacted


def test_reads_left_when_the_holding_ends_are_written_together(
    open_store: Callable[..., ChatStore],
) -> None:
    store = open_store()
    begun = _transactions(store)
    try:
        with store.holding_tool_calls():
            store.record_tool_call(_read("get_addresses"))
            store.record_tool_call(_read("get_cart"))
            raise ValueError("the cart was empty")  # refused: no approval is stored
    except ValueError:
        pass
    assert len(begun) == 1
    assert [entry.tool for entry in store.tool_calls(USER)] == ["get_cart", "get_addresses"]


def test_a_holding_keeps_only_its_own_threads_calls(
    open_store: Callable[..., ChatStore],
) -> None:
    store = open_store()
    elsewhere = threading.Thread(target=store.record_tool_call, args=(_read("search_products"),))
    with store.holding_tool_calls() as reads:
        elsewhere.start()
        elsewhere.join(30)
        assert [entry.tool for entry in store.tool_calls(USER)] == ["search_products"]
        store.record_tool_call(_read("get_cart"))
        assert [entry.tool for entry in reads] == ["get_cart"]
    assert len(store.tool_calls(USER)) == 2


def test_a_holding_keeps_only_its_own_stores_calls(
    open_store: Callable[..., ChatStore],
) -> None:
    mine, other = open_store(), open_store()  # two engines in one thread
    with mine.holding_tool_calls() as reads:
        other.record_tool_call(_read("get_orders"))
        assert reads == []
    assert [entry.tool for entry in other.tool_calls(USER)] == ["get_orders"]
