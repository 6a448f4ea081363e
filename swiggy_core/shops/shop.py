"""The Shop record: what one Swiggy server knows about spending, held as data.

A shop names its spending tools (each with how it is prepared and how its answer reads),
its other write tools, the reads that show what a spend acts on and settle an unclear
one, and the words the person is told. Code asks the record instead of the server's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal


class Preparation(StrEnum):
    """What the app reads, shows and re-checks before a spending call may run."""

    # The cart read afresh for the chosen address: lines, bill, to-pay; cash on delivery.
    CART_ORDER = "cart_order"
    # The exact slot and its free deal, checked against the venue's slots right now.
    FREE_TABLE = "free_table"


# How a spending tool's answer reads: an order placed, or a table booked.
SpendResult = Literal["order", "booking"]


@dataclass(frozen=True, slots=True)
class SpendingTool:
    """One tool that spends (or books): held behind the person's confirmation, run once."""

    name: str
    preparation: Preparation
    result: SpendResult
    # A free-text argument the person may add for the shop, kept (trimmed) when present.
    note_argument: str | None = None


@dataclass(frozen=True, slots=True)
class ReadCall:
    """A read tool whose arguments are copied from the spending call's (`copies`)."""

    tool: str
    copies: tuple[str, ...] = ()

    def arguments(self, spend_arguments: Mapping[str, Any]) -> dict[str, Any] | None:
        """The read's arguments; None when the spending call lacks one the read needs."""
        arguments: dict[str, Any] = {}
        for key in self.copies:
            value = spend_arguments.get(key)
            if value in (None, ""):
                return None
            arguments[key] = value
        return arguments


@dataclass(frozen=True, slots=True)
class StatusRead:
    """A read of one placed id's status (for a shop with no list of what was placed)."""

    tool: str
    id_argument: str


@dataclass(frozen=True, slots=True)
class Shop:
    """One Swiggy server as the approval gate, the hooks and the parsers see it."""

    key: str
    spenders: tuple[SpendingTool, ...]
    # Tools that change state but spend nothing (they count against the write budget).
    changes: frozenset[str]
    # Tools that complete a payment: never offered to the model and never approved; the app
    # runs `confirm_order` itself once a UPI payment it polled has gone through.
    held: tuple[str, ...]
    # What one spend makes, as the person is told ("order": "check your orders").
    noun: str
    # What a re-check before the call found changed ("The cart changed since ...").
    subject: str
    cart: ReadCall | None = None
    slots: ReadCall | None = None
    # An unclear spend is settled by comparing this list before and after the call ...
    placed: ReadCall | None = None
    # ... or, with no list, by the status of the id the answer carried.
    status: StatusRead | None = None
    # The ways to pay an order (cash, UPI); None: cash (or a free booking) only.
    payment_options: ReadCall | None = None

    @property
    def spender_names(self) -> tuple[str, ...]:
        return tuple(tool.name for tool in self.spenders)

    @property
    def write_tools(self) -> frozenset[str]:
        """Every tool that changes state on this server: spenders, held ones, the rest."""
        return self.changes | frozenset(self.spender_names) | frozenset(self.held)

    def spender(self, name: str) -> SpendingTool | None:
        """This shop's spending tool called `name`; None when it has none by that name."""
        return next((tool for tool in self.spenders if tool.name == name), None)
