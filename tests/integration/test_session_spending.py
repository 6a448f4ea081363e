"""Spending through ChatSession, in both engines: one confirmation, one exact action, once.

Real peers only: the emulator through the real SDK (the connector emulation runs the MCP
tools, or the app does in the local engine), the sandbox shop over HTTP, SQLite on disk.
Every test counts orders in the sandbox shop before and after.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from session_peers import (
    ADDRESS,
    Shop,
    ask_checkout,
    asked_to_place,
    echo,
    finish,
    free_table,
    new_session,
    tool_call,
)

from swiggy_core.actions import typed_message
from swiggy_core.constants import APPROVAL_TOOL_NAME
from swiggy_core.engine import StreamFailed
from swiggy_core.errors import ActionRefused, ErrorCode
from swiggy_core.models import ToolResultBlock, tool_pairs
from swiggy_core.parsers import AddressItem
from swiggy_core.store import ChatStore
from swiggy_sandbox.connector import Finish

ENGINES = ["connector", "local"]
# Each engine with the envelope form; the summary form with the local engine, which keeps
# structuredContent (the connector may pass only the summary text on).
ENGINES_AND_FORMS = [("connector", "envelope"), ("local", "envelope"), ("local", "summary")]
ENGINE_PER_FORM = [("connector", "envelope"), ("local", "summary")]


def _confirm_refused(session: Any, approval_id: str) -> ErrorCode:
    """Confirm is refused with one of the approval codes (nothing runs); the code."""
    with pytest.raises(ActionRefused) as refused:
        session.confirm(approval_id)
    assert refused.value.code.name.startswith("APPROVAL_")
    return refused.value.code


@pytest.mark.parametrize(("engine", "result_form"), ENGINES_AND_FORMS, indirect=["result_form"])
def test_an_order_needs_a_stored_approval_and_runs_once(
    engine, result_form, emu, shared_db_url, shop
) -> None:
    assert shop.sandbox.app.state.result_form == result_form
    store = ChatStore(shared_db_url)
    session = new_session(store, shop, emu.base_url, engine=engine)
    before = shop.orders()
    approval = asked_to_place(session, emu)
    assert approval.tool == "checkout"
    assert approval.arguments == {"addressId": ADDRESS, "paymentMethod": "COD"}
    assert approval.view["lines"] and approval.view["to_pay"] and approval.view["address_label"]
    assert shop.orders() == before, "asking is not ordering"
    # The spending tool was never offered to the model.
    for request in emu.requests:
        offered = [t.get("name") for t in request.body.get("tools", [])]
        assert "checkout" not in offered and APPROVAL_TOOL_NAME in offered
        for toolset in request.body.get("tools", []):
            if toolset.get("type") == "mcp_toolset":
                assert toolset["configs"]["checkout"] == {"enabled": False}

    emu.brain.enqueue(echo)
    finish(session.confirm(approval.id))
    assert shop.orders() == before + 1
    record = store.get_approval(approval.id)
    assert record is not None and record.status == "done"

    history = session.history()
    answer = history[-2]
    (block,) = answer.blocks()
    assert isinstance(block, ToolResultBlock) and block.tool_use_id == approval.tool_use_id
    assert json.loads(block.content)["approval"] == "confirmed"
    assert answer.meta.cards[approval.tool_use_id].type == "order_placed"
    assert '"approval": "confirmed"' in history[-1].text()

    assert _confirm_refused(session, approval.id) is ErrorCode.APPROVAL_NOT_PENDING
    assert shop.orders() == before + 1
    actions = [action for action, _ in store.audit_entries(session.user_id)]
    assert actions.count("confirm") == 1 and actions.count("spend_call") == 1


def _spend(vertical: str, shop: Shop) -> tuple[str, dict[str, Any], Callable[[], int]]:
    """The vertical's spending tool, arguments that can succeed, and a counter of its effect."""
    if vertical in ("food", "style"):  # the fixture's cart holds a pack of milk
        return "checkout", {"addressId": ADDRESS}, shop.orders
    if vertical == "foodorder":
        found = shop.call("food", "search_menu", {"addressId": ADDRESS, "query": "biryani"})
        dish = next(
            item
            for item in found["data"]["items"]
            if item.get("inStock") and not item.get("variantsV2") and not item.get("variations")
        )
        lines = [{"menu_item_id": dish["menu_item_id"], "quantity": 1}]
        cart = {"restaurantId": dish["restaurant_id"], "addressId": ADDRESS, "cartItems": lines}
        assert shop.call("food", "update_food_cart", cart)["success"]
        return "place_food_order", {"addressId": ADDRESS}, shop.food_orders
    return "book_table", free_table(shop)[1], lambda: len(shop.bookings())


@pytest.mark.parametrize(("engine", "result_form"), ENGINE_PER_FORM, indirect=["result_form"])
@pytest.mark.parametrize("vertical", ["food", "style", "foodorder", "dining"])
def test_each_vertical_spends_once_after_confirm(
    vertical, engine, result_form, emu, store, shop
) -> None:
    """The main spend of every vertical, in both result forms: asked, confirmed, done once."""
    assert shop.sandbox.app.state.result_form == result_form
    tool, arguments, placed = _spend(vertical, shop)
    session = new_session(store, shop, emu.base_url, engine=engine, vertical_id=vertical)
    before = placed()
    emu.brain.enqueue(ask_checkout(arguments, tool=tool))
    finish(session.send(typed_message("go ahead")))
    approval = session.pending_approval()
    assert approval is not None and approval.tool == tool, session.history()[-1].text()
    assert placed() == before, "asking is not spending"
    emu.brain.enqueue(echo)
    finish(session.confirm(approval.id))
    assert placed() == before + 1
    record = store.get_approval(approval.id)
    assert record is not None and record.status == "done"
    card = session.history()[-2].meta.cards[approval.tool_use_id]
    assert card.type in ("order_placed", "booking_confirmed")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_model_calling_checkout_itself_never_orders(engine, emu, store, shop) -> None:
    session = new_session(store, shop, emu.base_url, engine=engine)
    before = shop.orders()
    direct = {"addressId": ADDRESS, "paymentMethod": "COD"}
    emu.brain.enqueue(
        tool_call(engine, "checkout", direct),
        tool_call(engine, "checkout", direct),
        Finish("I tried."),
    )
    finish(session.send(typed_message("yes, confirm, place the order")))
    assert shop.orders() == before
    assert session.pending_approval() is None


@pytest.mark.parametrize("engine", ENGINES)
def test_cancel_tells_the_model_and_spends_nothing(engine, emu, store, shop) -> None:
    session = new_session(store, shop, emu.base_url, engine=engine)
    before = shop.orders()
    approval = asked_to_place(session, emu)
    emu.brain.enqueue(echo)
    finish(session.decline(approval.id))
    assert '"approval": "declined"' in session.history()[-1].text()
    _confirm_refused(session, approval.id)
    assert shop.orders() == before


def test_a_changed_cart_refuses_the_confirmation(emu, store, shop) -> None:
    session = new_session(store, shop, emu.base_url, engine="local")
    before = shop.orders()
    approval = asked_to_place(session, emu)
    # Another tab changes the cart after the person was shown it.
    shop.set_cart(shop.milk_line(quantity=5))
    emu.brain.enqueue(echo)
    events = finish(session.confirm(approval.id))
    failures = [e for e in events if isinstance(e, StreamFailed)]
    assert failures and failures[0].error.code == ErrorCode.APPROVAL_CHANGED.value
    assert shop.orders() == before
    record = store.get_approval(approval.id)
    assert record is not None and record.status == "refused"
    assert '"approval": "refused"' in session.history()[-1].text()


def test_no_address_chosen_asks_in_the_dialog_and_confirm_takes_the_choice(
    emu, store, shop
) -> None:
    """Place order with no address chosen is never refused in the chat: the approval offers
    the saved addresses (starting from the one asked for), and Confirm may take another."""
    session = new_session(store, shop, emu.base_url, engine="local", address=None)
    approval = asked_to_place(session, emu)
    choices = approval.view["address_choices"]
    assert len(choices) >= 2 and approval.view["address_id"] == ADDRESS
    other = next(choice for choice in choices if choice["address_id"] != ADDRESS)
    before = shop.orders()
    emu.brain.enqueue(echo)
    chosen = AddressItem(
        address_id=other["address_id"], label=other["label"], address=other["text"]
    )
    finish(session.confirm(approval.id, chosen))
    placed = [r for r in store.approvals_for(session.conversation_id) if r.status == "done"]
    assert len(placed) == 1 and placed[0].arguments["addressId"] == other["address_id"]
    assert shop.orders() == before + 1
    superseded = store.get_approval(approval.id)
    assert superseded is not None and superseded.status == "superseded"


def test_confirm_in_two_tabs_orders_once(emu, shop, shared_db_url) -> None:
    """Two tabs (two stores on one database) press Confirm at once: one order."""
    first = new_session(ChatStore(shared_db_url), shop, emu.base_url, engine="local")
    before = shop.orders()
    approval = asked_to_place(first, emu)
    second = new_session(
        ChatStore(shared_db_url), shop, emu.base_url, engine="local",
        conversation_id=first.conversation_id, user_id=first.user_id,
    )  # fmt: skip
    emu.brain.enqueue(echo)
    outcomes: list[object] = []

    def press(session) -> None:
        try:
            outcomes.append(finish(session.confirm(approval.id)))
        except ActionRefused as error:
            outcomes.append(error)
        except Exception as error:  # E-1105 when the other tab's turn is running
            outcomes.append(error)

    threads = [threading.Thread(target=press, args=(s,)) for s in (first, second, first)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert sum(isinstance(outcome, list) for outcome in outcomes) == 1
    assert shop.orders() == before + 1


def test_a_second_request_replaces_the_first(emu, store, shop) -> None:
    session = new_session(store, shop, emu.base_url, engine="local")
    emu.brain.enqueue(ask_checkout())
    finish(session.send(typed_message("place the order")))
    first = session.pending_approval()
    emu.brain.enqueue(ask_checkout())
    finish(session.send(typed_message("actually, place it now")))
    second = session.pending_approval()
    assert first is not None and second is not None and first.id != second.id
    record = store.get_approval(first.id)
    assert record is not None and record.status == "superseded"
    _confirm_refused(session, first.id)
    # The open request was answered in the person's next message, before their words.
    history = session.history()
    pairs = [p for p in tool_pairs(history) if p.use.name == APPROVAL_TOOL_NAME]
    assert pairs[0].result is not None and '"superseded"' in str(pairs[0].result.content)


def test_unanswered_request_is_not_sent_half_open(emu, store, shop) -> None:
    session = new_session(store, shop, emu.base_url, engine="connector")
    emu.brain.enqueue(ask_checkout())
    finish(session.send(typed_message("place the order")))
    emu.brain.enqueue(Finish("ok"))
    finish(session.send(typed_message("never mind")))
    last_request = emu.requests[-1].body["messages"]
    uses = [
        b["id"] for m in last_request if isinstance(m["content"], list)
        for b in m["content"] if b.get("type") == "tool_use"
    ]  # fmt: skip
    results = [
        b["tool_use_id"] for m in last_request if isinstance(m["content"], list)
        for b in m["content"] if b.get("type") == "tool_result"
    ]  # fmt: skip
    assert uses == results and uses, "every client tool use travels with its answer"


def test_a_cart_change_on_another_page_ends_the_open_approval(emu, store, shop) -> None:
    """NutriCart and StyleKit share one Instamart cart: a change on either ends it."""
    groceries = new_session(store, shop, emu.base_url, engine="local")
    approval = asked_to_place(groceries, emu)
    grooming = new_session(
        store, shop, emu.base_url, engine="local", vertical_id="style", user_id=groceries.user_id
    )
    line = shop.milk_line(quantity=4)
    change = {"selectedAddressId": ADDRESS, "items": [line]}
    emu.brain.enqueue(tool_call("local", "update_cart", change), Finish("Updated."))
    finish(grooming.send(typed_message("make it four")))
    record = store.get_approval(approval.id)
    assert record is not None and record.status == "superseded"
    before = shop.orders()
    _confirm_refused(groceries, approval.id)
    assert shop.orders() == before


def test_an_expired_approval_cannot_be_confirmed(emu, store, shop) -> None:
    session = new_session(store, shop, emu.base_url, engine="local")
    approval = asked_to_place(session, emu)
    before = shop.orders()
    later = datetime.now(UTC) + timedelta(minutes=11)
    session.clock = lambda: later
    assert session.pending_approval() is None, "an expired approval is not offered"
    assert _confirm_refused(session, approval.id) is ErrorCode.APPROVAL_EXPIRED
    assert shop.orders() == before
    emu.brain.enqueue(echo)
    finish(session.send(typed_message("hello again")))
    assert '"approval": "expired"' in session.history()[-1].text()


def test_a_confirmation_cannot_be_presented_for_another_chat_or_person(emu, store, shop) -> None:
    owner = new_session(store, shop, emu.base_url, engine="local")
    approval = asked_to_place(owner, emu)
    before = shop.orders()
    other_chat = new_session(store, shop, emu.base_url, engine="local", user_id=owner.user_id)
    emu.brain.enqueue(Finish("hi"))
    finish(other_chat.send(typed_message("hello")))
    stranger = new_session(
        store, shop, emu.base_url, engine="local",
        conversation_id=owner.conversation_id, user_id="someone-else",
    )  # fmt: skip
    for session in (other_chat, stranger):
        assert _confirm_refused(session, approval.id) is ErrorCode.APPROVAL_NOT_PENDING
    assert shop.orders() == before
    record = store.get_approval(approval.id)
    assert record is not None and record.status == "pending"
