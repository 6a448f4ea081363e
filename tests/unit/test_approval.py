import json

from swiggy_core.actions import CardAction, action_message, typed_message
from swiggy_core.approval import confirm_tool_for, pending_confirmation
from swiggy_core.models import ChatMessage, block_from_dict
from swiggy_core.turns import TurnSetup, build_turn_params


def _reply(tool_name=None, payload=None):
    blocks = [block_from_dict({"type": "text", "text": "Your cart is ₹240. Confirm?"})]
    if tool_name:
        blocks += [
            block_from_dict(
                {
                    "type": "mcp_tool_use",
                    "id": "t1",
                    "name": tool_name,
                    "server_name": "swiggy-instamart",
                    "input": {},
                }
            ),
            block_from_dict(
                {"type": "mcp_tool_result", "tool_use_id": "t1", "content": json.dumps(payload)}
            ),
        ]
    return ChatMessage(role="assistant", content=blocks)


def test_confirm_tool_per_vertical():
    assert confirm_tool_for("food") == "checkout"
    assert confirm_tool_for("style") == "checkout"
    assert confirm_tool_for("foodorder") == "place_food_order"
    assert confirm_tool_for("dining") == "book_table"


def test_asking_to_order_without_a_result_is_pending():
    chat = [typed_message("place the order"), _reply("get_cart", {"success": True, "data": {}})]
    assert pending_confirmation(chat, "food") == "checkout"
    request = action_message(CardAction(kind="request_checkout", label="Place the order"))
    assert pending_confirmation([request, _reply()], "foodorder") == "place_food_order"
    slot = action_message(CardAction(kind="pick_slot", label="Book the 8 pm slot"))
    assert pending_confirmation([slot, _reply()], "dining") == "book_table"


def test_nothing_pending_after_an_order_or_for_other_requests():
    placed = _reply("checkout", {"success": True, "data": {"orderId": "ORD-1"}})
    assert pending_confirmation([typed_message("place the order"), placed], "food") is None
    assert pending_confirmation([typed_message("find milk"), _reply()], "food") is None
    confirm = action_message(CardAction(kind="confirm", label="Yes", tool_name="checkout"))
    assert pending_confirmation([confirm, _reply()], "food") is None
    assert pending_confirmation([typed_message("place the order")], "food") is None


def test_failed_order_still_awaits_confirmation():
    failed = _reply("checkout", {"success": False, "error": {"message": "Cart is empty"}})
    assert pending_confirmation([typed_message("checkout now"), failed], "food") == "checkout"


def _configs(params):
    return params["tools"][0].get("configs", {})


def test_spending_tool_enabled_only_by_a_confirm_action():
    setup = TurnSetup(vertical_id="food", model="claude-haiku-4-5", swiggy_token="tok")
    history = [typed_message("place the order"), _reply()]
    typed = build_turn_params(setup, history, typed_message("yes, confirm checkout"))
    assert _configs(typed)["checkout"] == {"enabled": False}
    assert "confirm=pending:checkout" in typed["system"][-1]["text"]
    confirm = action_message(CardAction(kind="confirm", label="Yes", tool_name="checkout"))
    confirmed = build_turn_params(setup, history, confirm)
    assert "checkout" not in _configs(confirmed)
    # Only the confirmed tool: other spending tools stay off.
    assert _configs(confirmed)["place_food_order"] == {"enabled": False}


def test_audit_keeps_the_yes_and_every_spending_call():
    from swiggy_core.approval import audit_events

    confirm = action_message(CardAction(kind="confirm", label="Yes", tool_name="checkout"))
    placed = _reply("checkout", {"success": True, "data": {"orderId": "ORD-9"}})
    events = audit_events(confirm, placed.blocks(), "food")
    assert events[0] == ("confirm", {"vertical": "food", "tool": "checkout"})
    kind, detail = events[1]
    assert kind == "spend_call" and detail["outcome"] == "order_placed"
    assert detail["id"] == "ORD-9"
    reads = _reply("get_cart", {"success": True, "data": {}})
    assert audit_events(typed_message("show cart"), reads.blocks(), "food") == []
