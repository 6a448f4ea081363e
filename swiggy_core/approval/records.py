"""What an approval is shown as and keyed by: the view, its digest, the prepared action;
and the spending request a shop's preparation reads."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, Field

from swiggy_core.approval.payment import PaymentChoice
from swiggy_core.errors import ActionRefused, ErrorCode
from swiggy_core.parsers import BillLine, CartLine
from swiggy_core.shops import Shop, SpendingTool

# Calls a read tool of the vertical's server: (tool name, arguments) → result text.
Reader = Callable[[str, dict[str, Any]], str]


class ApprovalInvalid(ActionRefused):
    """The request cannot be approved as asked: `message` tells the person why, in their
    words; `for_model` tells the model what to do about it (the message when not given)."""

    code = ErrorCode.APPROVAL_INVALID

    def __init__(self, message: str, *, for_model: str | None = None) -> None:
        super().__init__(message)
        self.for_model = for_model or message


class AddressChoice(BaseModel):
    """One saved address the dialog offers."""

    address_id: str
    label: str = ""
    text: str = ""


class ApprovalView(BaseModel):
    """Exactly what the Confirm dialog shows (stored with the approval)."""

    kind: Literal["order", "booking", "action"]
    tool: str
    title: str
    lines: list[CartLine] = Field(default_factory=list)
    bill: list[BillLine] = Field(default_factory=list)
    to_pay: float | None = None
    restaurant_name: str | None = None
    address_id: str | None = None
    address_label: str | None = None
    address_text: str | None = None
    date_text: str | None = None
    time_text: str | None = None
    guests: int | None = None
    payment: str | None = None
    note_to_restaurant: str | None = None
    notes: list[str] = Field(default_factory=list)
    # A person's own server's tool: which server, and the exact arguments as shown.
    server_label: str | None = None
    arguments_text: str | None = None
    # No address was chosen before asking: the saved ones, for the dialog to choose from
    # (the view is for `address_label` / `address_text`, the first or the request's).
    address_choices: list[AddressChoice] = Field(default_factory=list)
    # The ways to pay this order (cash, UPI by QR or by an app), for the dialog to choose.
    payment_choices: list[PaymentChoice] = Field(default_factory=list)


class Prepared(BaseModel):
    """An approval ready to store: arguments, digest and view."""

    arguments: dict[str, Any]
    digest: str
    view: ApprovalView


@dataclass(frozen=True, slots=True)
class Spend:
    """One spending request as its shop's preparation reads it."""

    vertical_id: str
    shop: Shop
    tool: SpendingTool
    arguments: dict[str, Any]
    read: Reader
    # The address chosen in the dialog (orders); None: the request's, or the first saved.
    address: Any = None
    # A new request offers the saved addresses; a re-check keeps the one confirmed.
    offer_addresses: bool = True


def digest_of(facts: dict[str, Any]) -> str:
    """A stable digest of what an approval acts on."""
    canonical = json.dumps(facts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()
