"""Typed access to st.session_state: one place names every key the UI keeps.

Chats themselves live in the store (the core owns them); the page keeps only which
conversation it shows, what a button asked for, and what must survive a failed save.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import streamlit as st

from swiggy_core.cart import CartProgress, CartState, derive_cart_after
from swiggy_core.models import CardAction, ChatMessage, ErrorInfo, Usage
from swiggy_core.parsers import AddressItem

if TYPE_CHECKING:  # the engine (and its SDKs) loads with the first turn, not the first page
    from swiggy_core.turn.handle import TurnHandle

PENDING_ACTION = "pending_action"
BACKEND = "backend"
PENDING_DECISION = "pending_decision"
SHOW_DETAILS = "show_details"
PENDING_TOAST = "pending_toast"
TOAST_ICON = ":material/check_circle:"
# How many of the newest turns a chat draws in full at first (older ones page in).
TURNS_SHOWN = 6
Decision = Literal["confirm", "decline"]


@dataclass
class VerticalChat:
    """This browser session's view of one vertical's chat."""

    vertical_id: str
    conversation_id: str | None = None
    # A message that could not be stored (database fault), or words typed while a reply
    # ran: shown again, never lost.
    unsent: str | None = None
    # A message sent while the sandbox was starting: the page sends it once the shop runs,
    # on the run after the first whole page has been drawn (see vertical_page).
    queued: ChatMessage | None = None
    queued_drawn: bool = False
    # A coded problem raised by a button (shown once as a banner on the next run).
    notice: ErrorInfo | None = None
    # Approvals whose dialog has opened by itself once already.
    dialogs_opened: set[str] = field(default_factory=set)
    # Turns whose tokens are already in this session's totals.
    counted_turns: set[str] = field(default_factory=set)
    # The turn this page started and has not yet watched to its end.
    watching: TurnHandle | None = None
    # The turn this page sent whose stored reply is drawn next: follow it into view.
    follow_drawn: str | None = None
    # How many of the newest turns are drawn in full, and for which conversation.
    turns_shown: int = TURNS_SHOWN
    turns_shown_for: str | None = None
    # The conversation whose cut-off confirmations were last settled on opening it.
    settled_for: str | None = None
    # The editor of the person's last message is open.
    editing: bool = False

    def keep_unsent(self, typed: str) -> None:
        """Words that could not be sent now: kept (after any kept before) to send later."""
        self.unsent = f"{self.unsent}\n\n{typed}" if self.unsent else typed

    def show_turns_of(self, conversation_id: str | None) -> int:
        """The turns to draw; another conversation starts again from the newest few."""
        if conversation_id != self.turns_shown_for:
            self.turns_shown, self.turns_shown_for = TURNS_SHOWN, conversation_id
        return self.turns_shown


def set_backend(backend: str) -> None:
    """Which world this session talks to now ("sandbox" or "swiggy")."""
    st.session_state[BACKEND] = backend


def backend() -> str:
    return str(st.session_state.get(BACKEND, "sandbox"))


def vertical_chat(vertical_id: str) -> VerticalChat:
    """This session's chat state for a vertical in the current world (made on first use)."""
    key = f"chat::{backend()}::{vertical_id}"
    if key not in st.session_state:
        st.session_state[key] = VerticalChat(vertical_id=vertical_id)
    chat: VerticalChat = st.session_state[key]
    return chat


def queue_action(action: CardAction) -> None:
    """Remember a card button's action; the chat loop sends it on this rerun."""
    st.session_state[PENDING_ACTION] = action


def pop_action() -> CardAction | None:
    action: CardAction | None = st.session_state.pop(PENDING_ACTION, None)
    return action


def queue_toast(label: str, icon: str = TOAST_ICON) -> None:
    """A short note for the next run ("Added 2 × Yoga Bar"), shown once as a toast."""
    st.session_state[PENDING_TOAST] = (label, icon)


def pop_toast() -> tuple[str, str] | None:
    toast: tuple[str, str] | None = st.session_state.pop(PENDING_TOAST, None)
    return toast


def queue_decision(
    decision: Decision,
    approval_id: str,
    address_key: str | None = None,
    payment_key: str | None = None,
) -> None:
    """Remember Confirm or Cancel for one stored approval (never a sentence), with the
    address and the way to pay chosen in the dialog (kept under these keys), if any."""
    address_id = st.session_state.get(address_key) if address_key else None
    payment_id = st.session_state.get(payment_key) if payment_key else None
    st.session_state[PENDING_DECISION] = (decision, approval_id, address_id, payment_id)


def pop_decision() -> tuple[Decision, str, str | None, str | None] | None:
    decision: tuple[Decision, str, str | None, str | None] | None = st.session_state.pop(
        PENDING_DECISION, None
    )
    return decision


def active_address() -> AddressItem | None:
    """The delivery address chosen in the current world (a sandbox id never leaves it)."""
    address: AddressItem | None = st.session_state.get(f"active_address::{backend()}")
    return address


def set_active_address(address: AddressItem) -> None:
    st.session_state[f"active_address::{backend()}"] = address


def session_usage() -> Usage:
    usage: Usage = st.session_state.setdefault("session_usage", Usage())
    return usage


def add_usage(usage: Usage) -> None:
    st.session_state["session_usage"] = session_usage() + usage


def show_details() -> bool:
    """Tool names and token counts on screen (a per-session setting, off by default)."""
    return bool(st.session_state.get(SHOW_DETAILS, False))


def set_show_details(shown: bool) -> None:
    st.session_state[SHOW_DETAILS] = shown


@dataclass(frozen=True, slots=True)
class _KeptCart:
    messages: list[ChatMessage]
    cart: CartState
    progress: CartProgress


def current_cart(messages: list[ChatMessage], vertical_id: str) -> CartState:
    """The cart of the chat, replayed once: a rerun that read nothing new (the store hands
    back the same message objects then) reuses it, and one that read a new turn replays
    only the messages after the kept progress, not the whole chat."""
    key = f"current_cart::{backend()}::{vertical_id}"
    kept: _KeptCart | None = st.session_state.get(key)
    if kept is not None and _same_history(kept.messages, messages):
        return kept.cart
    progress = kept.progress if kept is not None and _grown(kept, messages) else None
    cart, progress = derive_cart_after(messages, vertical_id, progress)
    st.session_state[key] = _KeptCart(messages, cart, progress)
    return cart


def _same_history(before: list[ChatMessage], now: list[ChatMessage]) -> bool:
    # Append-only: the same length ending in the very same stored message is the same chat.
    return len(before) == len(now) and (not now or before[-1] is now[-1])


def _grown(kept: _KeptCart, now: list[ChatMessage]) -> bool:
    """`now` is the kept chat with messages appended (its progress still holds)."""
    count = kept.progress.count
    return count <= len(now) and (count == 0 or kept.messages[count - 1] is now[count - 1])
