"""Spending goes through the app: the planner asks for approval, the app answers.

The planner never calls checkout, place_food_order or book_table. It calls the client
tool `request_confirmation` with the exact call it wants; that ends the turn and the app
shows the person a Confirm dialog. The app runs the call itself (once) and answers with a
`tool_result` whose JSON says what happened; `approval_reply` turns that into words.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from swiggy_core.constants import APPROVAL_TOOL_NAME
from swiggy_sandbox.connector import CallClientTool, Finish, Step
from swiggy_sandbox.planner import dineout_replies, food_replies, instamart_replies
from swiggy_sandbox.planner.tool_calls import ApprovalAnswer
from swiggy_sandbox.planner.view import ConversationView

# What each spending tool does, in the words the replies use.
_NOUNS = {"checkout": "order", "place_food_order": "order", "book_table": "booking"}
_NOT_DONE = {
    "checkout": "No order was placed.",
    "place_food_order": "No order was placed.",
    "book_table": "No table was booked.",
}
_DONE_REPLIES: dict[str, Callable[[dict[str, Any]], str]] = {
    "checkout": instamart_replies.order_reply,
    "place_food_order": food_replies.food_order_reply,
    "book_table": dineout_replies.booked_reply,
}
_DECLINED = {
    "checkout": "Okay, I won't place the order. Your cart stays as it is.",
    "place_food_order": "Okay, I won't place the order. Your cart stays as it is.",
    "book_table": "Okay, I won't book it. Want me to look at another time or place?",
}


def ask_approval(view: ConversationView, tool: str, arguments: dict[str, Any], review: str) -> Step:
    """Ask the person to approve `tool(arguments)` through the app's Confirm dialog.

    `review` is what the person should check (the bill, or the table); it is said before
    the request. Without the client tool the request cannot be made, so nothing happens.
    """
    if not view.can_ask_approval():
        noun = _NOUNS.get(tool, "action")
        return Finish(
            f"{review}\n\nThis needs the app's Confirm step, which isn't available here, "
            f"so I can't go ahead with the {noun}. {_NOT_DONE.get(tool, '')}".rstrip()
        )
    return CallClientTool(
        APPROVAL_TOOL_NAME,
        {"tool": tool, "arguments": dict(arguments)},
        say_before=f"{review}\n\nPlease review the details and press Confirm in the dialog.",
    )


def approval_reply(answer: ApprovalAnswer) -> Finish:
    """What to say once the app has answered an approval request (never claims too much).

    The app has already shown the outcome (the order or booking card, or the reason on a
    card or notice), so the reply adds the next step instead of saying it again.
    """
    tool = answer.tool
    if answer.approval == "confirmed":
        return _outcome(answer)
    if answer.approval == "declined":
        return Finish(_DECLINED.get(tool, "Okay, I won't go ahead."))
    if answer.approval == "expired":
        noun = _NOUNS.get(tool, "request")
        return Finish(
            f"That confirmation expired, so I didn't go ahead with the {noun}. {_again(tool)}"
        )
    if answer.approval == "refused":
        return Finish(
            f"I couldn't go ahead with the {_NOUNS.get(tool, 'request')}. {_change(tool)}"
        )
    if answer.approval == "failed":
        return Finish(f"It didn't go through. {_again(tool)}")
    if answer.approval == "awaiting_payment":  # the app shows how to pay, then confirms
        return Finish(
            "Pay by UPI as shown above: your order is placed as soon as you have paid, and "
            "nothing is ordered if you don't."
        )
    if answer.approval == "superseded":
        not_done = _NOT_DONE.get(tool, "Nothing was done.")
        return Finish(f"Okay, I've set that aside. {not_done} What would you like instead?")
    return Finish(_unknown(tool))


def _outcome(answer: ApprovalAnswer) -> Finish:
    """The app ran the call: report its own result, exactly."""
    if answer.result is None:
        return Finish(_unknown(answer.tool))
    if answer.result.get("success") is False:
        return Finish(f"Swiggy didn't accept it. {_again(answer.tool)}")
    if not answer.succeeded:
        return Finish(_unknown(answer.tool))
    reply = _DONE_REPLIES.get(answer.tool)
    try:
        if reply is not None:
            return Finish(reply(answer.data))
    except (KeyError, TypeError, ValueError):
        pass  # an unexpected result shape: fall back to the ids it carries
    # Swiggy's spending tools all answer with an orderId (book_table too: no bookingId).
    # A bookingId is read only as a last resort, for older shapes that carried one.
    reference_id = answer.data.get("orderId") or answer.data.get("bookingId")
    reference = f" Reference: {reference_id}." if reference_id else ""
    return Finish(f"Done — Swiggy accepted it.{reference}")


def _unknown(tool: str) -> str:
    noun = _NOUNS.get(tool, "request")
    return f"I can't tell whether the {noun} went through, so I won't try it again."


def _change(tool: str) -> str:
    if tool == "book_table":
        return "Pick another time, or tell me what to change."
    return "Tell me what to change, or say “place the order” to try again."


def _again(tool: str) -> str:
    if tool == "book_table":
        return "Say “book the slot” to see it again."
    return "Say “place the order” to see it again."
