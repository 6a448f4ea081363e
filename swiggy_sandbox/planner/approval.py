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
from swiggy_sandbox.planner.view import ApprovalAnswer, ConversationView

# What each spending tool does, in the words the replies use.
_NOUNS = {"checkout": "order", "place_food_order": "order", "book_table": "booking"}
_NOT_DONE = {
    "checkout": "No order was placed.",
    "place_food_order": "No order was placed.",
    "book_table": "No table was booked.",
}
_WHERE_TO_CHECK = {
    "checkout": "check your Instamart orders before trying again",
    "place_food_order": "check your food orders before trying again",
    "book_table": "check your bookings before trying again",
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
    """What to say once the app has answered an approval request (never claims too much)."""
    tool, said = answer.tool, _said(answer)
    not_done = _NOT_DONE.get(tool, "Nothing was done.")
    if answer.approval == "confirmed":
        return _outcome(answer, not_done)
    if answer.approval == "declined":
        return Finish(_DECLINED.get(tool, "Okay, I won't go ahead."))
    if answer.approval == "expired":
        return Finish(
            f"That confirmation expired before it was used.{said} {not_done} {_again(tool)}"
        )
    if answer.approval == "refused":
        return Finish(f"The app didn't go ahead.{said} {not_done}")
    if answer.approval == "failed":
        return Finish(f"It didn't go through.{said} {not_done}")
    if answer.approval == "superseded":
        return Finish(f"Okay, I've set that aside. {not_done} What would you like instead?")
    return Finish(_unknown(tool, said))


def _outcome(answer: ApprovalAnswer, not_done: str) -> Finish:
    """The app ran the call: report its own result, exactly."""
    if answer.result is None:
        return Finish(_unknown(answer.tool, _said(answer)))
    if answer.result.get("success") is False:
        reason = answer.error or answer.message or "it was refused"
        return Finish(f"Swiggy couldn't do that: {reason.rstrip('.')}. {not_done}")
    if not answer.succeeded:
        return Finish(_unknown(answer.tool, _said(answer)))
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


def _said(answer: ApprovalAnswer) -> str:
    """The app's own sentence, ready to follow another sentence ("" when it said nothing)."""
    text = answer.message.strip()
    if not text:
        return ""
    return f" {text}" if text.endswith((".", "!", "?")) else f" {text}."


def _unknown(tool: str, said: str) -> str:
    where = _WHERE_TO_CHECK.get(tool, "check the Swiggy app before trying again")
    return f"I can't tell whether it went through.{said} Please {where}."


def _again(tool: str) -> str:
    if tool == "book_table":
        return "Say “book the slot” to see it again."
    return "Say “place the order” to see it again."
