"""Settle on sight: the true outcome of a confirmation whose turn died, without calling again.

A confirmed call writes down what it is about to do before it runs (`CALLING_KEY`, with the
order ids listed before it). So when a process dies after Confirm:
- no `CALLING_KEY`: the spending tool was never called, nothing was placed;
- otherwise: the shop's order list now, compared with the one before, says whether it
  went through (a shop with no list: the status of the id its answer carried); when
  nothing can tell, the outcome stays unknown and the person is sent to the Swiggy app.
`answer_of` turns any decided record into the answer the model must hear: never "the
person did not confirm" for something they confirmed.
"""

from __future__ import annotations

import json
from typing import Any, Final

from swiggy_core.approval.execute import Execution, outcome_of, reconcile
from swiggy_core.approval.request_tool import AnswerKind, ApprovalAnswer
from swiggy_core.approval.run_action import unknown_action
from swiggy_core.approval.view import Reader
from swiggy_core.shops import shop_for
from swiggy_core.store import ApprovalRecord
from swiggy_core.store.approval_states import PAYING, ApprovalStatus
from swiggy_core.verticals import Vertical

# Facts a confirmation stores on its approval as it goes (see `SessionSteps`).
CALLING_KEY: Final = "calling"  # True once the spending call is about to be sent
BEFORE_KEY: Final = "before"  # order ids listed just before the call (None: unreadable)
TEXT_KEY: Final = "text"  # the spending tool's answer, as received
TOLD_KEY: Final = "told"  # what the model is told about the outcome

INTERRUPTED: Final = "The app was interrupted while placing it"
NEVER_RAN: Final = (
    "The app stopped after you confirmed but before placing it: nothing was placed and "
    "nothing was charged. Ask again if you still want it."
)
_NEVER_RAN_FOR_MODEL: Final = (
    "The person confirmed, but the app stopped before running it: nothing was placed. "
    "Tell them; ask before trying again."
)


def settle(vertical: Vertical, record: ApprovalRecord, read: Reader) -> Execution:
    """The outcome of an `executing` or `unknown` approval, from reads only."""
    facts = record.result or {}
    if record.status == ApprovalStatus.EXECUTING and not facts.get(CALLING_KEY):
        text = json.dumps({"success": False, "error": {"message": NEVER_RAN}})
        return outcome_of(
            vertical,
            record.tool,
            "failed",
            text,
            record.arguments,
            message=_NEVER_RAN_FOR_MODEL,
        )
    if record.view.get("kind") == "action":  # a person's own server: nothing to read back
        return unknown_action(vertical, record.tool, record.arguments)
    stored = facts.get(BEFORE_KEY)
    before = {str(value) for value in stored} if isinstance(stored, list) else None
    return reconcile(
        vertical,
        record.tool,
        record.arguments,
        read,
        before,
        reason=INTERRUPTED,
        answer=str(facts.get(TEXT_KEY) or ""),
    )


# What the model hears (first) and the person is shown (second) of a decided approval.
_DECIDED_FOR_MODEL: Final[dict[ApprovalStatus, tuple[AnswerKind, str]]] = {
    ApprovalStatus.DECLINED: ("declined", "The person pressed Cancel."),
    ApprovalStatus.EXPIRED: ("expired", "Nobody confirmed in time; nothing was placed."),
    ApprovalStatus.SUPERSEDED: (
        "superseded",
        "The person did not confirm; they wrote a new message instead.",
    ),
    ApprovalStatus.REFUSED: ("refused", "The app stopped it at Confirm; nothing was placed."),
}
_SUPERSEDED_FOR_MODEL: Final = "The person did not confirm it. {note}"
_DECIDED_SHOWN: Final[dict[ApprovalStatus, str]] = {
    ApprovalStatus.DECLINED: "You cancelled this {what}.",
    ApprovalStatus.EXPIRED: "This confirmation expired before you confirmed it.",
    ApprovalStatus.SUPERSEDED: "You wrote a new message instead of confirming.",
    ApprovalStatus.REFUSED: "This {what} was stopped when you confirmed it.",
}


def decided_answer(
    vertical: Vertical, record: ApprovalRecord, status: ApprovalStatus
) -> ApprovalAnswer:
    """The answer for `record` decided as `status` (declined, expired, superseded, refused):
    the model's instructions, and the person's words with the record's note."""
    kind, message = _DECIDED_FOR_MODEL[status]
    shown = _DECIDED_SHOWN[status].format(what=_noun(vertical, record))
    if record.note and kind == "refused":
        message, shown = f"{message} {record.note}", record.note
    elif record.note and kind == "superseded":
        message, shown = _SUPERSEDED_FOR_MODEL.format(note=record.note), record.note
    return ApprovalAnswer(approval=kind, tool=record.tool, message=message, shown=shown)


def answer_of(vertical: Vertical, record: ApprovalRecord) -> ApprovalAnswer:
    """What the model hears about a record that is no longer pending nor executing."""
    if record.status in _DECIDED_FOR_MODEL:
        return decided_answer(vertical, record, record.status)
    facts = record.result or {}
    text = str(facts.get(TEXT_KEY) or _unknown_text())
    status = record.status.value if record.status in _OUTCOMES else "unknown"
    if record.status in PAYING:  # a UPI order: the payment panel shows how it goes
        status = "awaiting_payment"
    told = facts.get(TOLD_KEY)
    said = told if isinstance(told, str) and told else None
    return outcome_of(vertical, record.tool, status, text, record.arguments, message=said).answer


_OUTCOMES: Final = frozenset({ApprovalStatus.DONE, ApprovalStatus.FAILED, ApprovalStatus.UNKNOWN})


def _noun(vertical: Vertical, record: ApprovalRecord) -> str:
    if record.view.get("kind") == "action":
        return "request"
    return shop_for(vertical.server_key).noun


def _unknown_text() -> str:
    return json.dumps({"success": False, "error": {"message": INTERRUPTED}})


def facts_of(record: ApprovalRecord) -> dict[str, Any]:
    """A copy of the facts stored on the approval (empty when none)."""
    return dict(record.result or {})
