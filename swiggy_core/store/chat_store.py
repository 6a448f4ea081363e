"""`ChatStore`: the one object the rest of the app uses to reach the database."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any, Final, Unpack

from sqlalchemy.engine import Engine

from swiggy_core.logsafe import install_redaction
from swiggy_core.models import ChatMessage
from swiggy_core.store import (
    approvals,
    audit,
    chat_listing,
    chat_search,
    chats,
    held_calls,
    tokens,
    tool_audit,
)
from swiggy_core.store.approval_states import UNSETTLED
from swiggy_core.store.chat_listing import Paging
from swiggy_core.store.chat_search import ChatHit
from swiggy_core.store.database import BEST_EFFORT_WAIT_MS, Database
from swiggy_core.store.faults import StoreError
from swiggy_core.store.history_cache import History, HistoryCache
from swiggy_core.store.leases import LeaseBook
from swiggy_core.store.migrations import migrate
from swiggy_core.store.records import (
    ApprovalRecord,
    ChatDeletion,
    ConversationInfo,
    NewApproval,
    StoredMessage,
)
from swiggy_core.store.spend_history import SpendRecord, spend_history
from swiggy_core.store.spending_state import SpendingState, spending_state
from swiggy_core.store.tool_audit import ToolCallEntry

# How long an SQLite writer waits for another writer's lock before reporting "busy".
DEFAULT_BUSY_TIMEOUT_MS: Final = 5000


class ChatStore:
    """Chats, approvals, audit and preferences in SQL; one instance per database URL.

    SQLite by default, PostgreSQL by URL. Safe to share between threads. Every public
    method either succeeds or raises a coded `StoreError`.
    """

    def __init__(
        self, database_url: str, *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS
    ) -> None:
        install_redaction()  # a URL's password and the drivers' logs, even without app.py
        self._db = Database(database_url, busy_timeout_ms=busy_timeout_ms)
        self._history = HistoryCache()
        self.leases = LeaseBook(self._db)
        try:
            migrate(self._db)
            self._db.pin_file()
        except StoreError:
            self._db.close()
            raise

    @property
    def engine(self) -> Engine:
        """The SQLAlchemy engine (for tests and maintenance scripts)."""
        return self._db.engine

    # -- conversations and messages ----------------------------------------------------
    def create_conversation(self, user_id: str, vertical_id: str, title: str = "") -> str:
        return chats.create_conversation(self._db, user_id, vertical_id, title)

    def append_messages(self, conversation_id: str, messages: Sequence[ChatMessage]) -> list[int]:
        """Add messages after the last stored one (never rewriting); returns their seqs."""
        return chats.append_messages(self._db, conversation_id, messages)

    def load_messages(self, conversation_id: str) -> list[ChatMessage]:
        """Every message of the conversation, oldest first (parsed once, then extended)."""
        return list(self._history.load(self._db, conversation_id).messages)

    def load_history(self, conversation_id: str) -> History:
        """The conversation's messages with where each turn begins (kept, then extended)."""
        return self._history.load(self._db, conversation_id)

    def load_since(self, conversation_id: str, after_seq: int = -1) -> list[StoredMessage]:
        """Messages with seq > after_seq, oldest first."""
        stored = self._history.load(self._db, conversation_id).stored
        return [message for message in stored if message.seq > after_seq]

    def last_seq(self, conversation_id: str) -> int:
        """The seq of the newest message; -1 when there is none."""
        return chats.last_seq(self._db, conversation_id)

    def list_conversations(
        self, user_id: str, vertical_id: str, **paging: Unpack[Paging]
    ) -> list[ConversationInfo]:
        """The user's conversations in one vertical, most recently active first: `limit`
        of them (all when None), after `before` (the last of the previous page)."""
        return chat_listing.list_conversations(self._db, user_id, vertical_id, **paging)

    def list_chats(
        self, user_id: str, vertical_id: str, **paging: Unpack[Paging]
    ) -> list[ConversationInfo]:
        """The user's chats in one vertical that hold a message, most recent first,
        paged as `list_conversations`."""
        return chat_listing.list_chats(self._db, user_id, vertical_id, **paging)

    def count_chats(self, user_id: str, vertical_id: str) -> int:
        """How many chats `list_chats` lists, counted in SQL."""
        return chat_listing.count_chats(self._db, user_id, vertical_id)

    def find_chat(
        self, user_id: str, vertical_id: str, conversation_id: str
    ) -> ConversationInfo | None:
        """This chat if it is one `list_chats` lists for the user and vertical."""
        return chat_listing.find_chat(self._db, user_id, vertical_id, conversation_id)

    def search_chats(self, user_id: str, query: str, limit: int = 20) -> list[ChatHit]:
        """The person's chats (every shop) whose title or words hold every word of
        `query`, best first; the query is only ever read as words."""
        return chat_search.search_chats(self._db, user_id, query, limit)

    def new_chat(self, user_id: str, vertical_id: str) -> str:
        """An empty conversation for "New chat" (the newest empty one is reused)."""
        return chats.new_chat(self._db, user_id, vertical_id)

    def rename_chat(self, user_id: str, conversation_id: str, title: str) -> bool:
        """Retitle the user's chat (messages untouched); False when it is not theirs."""
        return chats.rename_chat(self._db, user_id, conversation_id, title)

    def delete_chats(
        self,
        user_id: str,
        vertical_id: str,
        only: Collection[str] | None = None,
        spare: Collection[str] = (),
    ) -> ChatDeletion:
        """Delete the user's chats in a vertical (or `only` these), keeping busy ones."""
        deletion = chats.delete_chats(self._db, user_id, vertical_id, only, spare)
        for conversation_id in deletion.deleted:  # a deleted chat must not linger here
            self._history.forget(conversation_id)
        return deletion

    def conversation_owner(self, conversation_id: str) -> str | None:
        return chats.conversation_owner(self._db, conversation_id)

    def delete_conversation(self, conversation_id: str) -> None:
        """Remove the conversation and its messages; its approvals and audit stay."""
        chats.delete_conversation(self._db, conversation_id)
        self._history.forget(conversation_id)

    def count_conversations(self) -> int:
        return chats.count_conversations(self._db)

    # -- approvals ---------------------------------------------------------------------
    def create_approval(self, new: NewApproval) -> ApprovalRecord:
        """Store a new approval in status "pending"."""
        return approvals.create_approval(self._db, new)

    def open_approval(
        self,
        new: NewApproval,
        audited: Callable[[ApprovalRecord], approvals.AuditEntry],
        tool_calls: list[ToolCallEntry] | None = None,
    ) -> ApprovalRecord:
        """Supersede the chat's pending approvals, store `new` as pending and audit it, as
        one transaction; with the held calls that prepared it (`holding_tool_calls`),
        which are then taken from that list."""
        record = approvals.open_approval(self._db, new, audited, tool_calls or ())
        if tool_calls:
            tool_calls.clear()  # written
        return record

    def holding_tool_calls(self) -> AbstractContextManager[list[ToolCallEntry]]:
        """Hold the tool calls recorded in this context (this thread) for the approval they
        prepare; those left are written together when the holding ends."""
        return held_calls.holding(self._db)

    def get_approval(self, approval_id: str) -> ApprovalRecord | None:
        return approvals.get_approval(self._db, approval_id)

    def approvals_to_settle(
        self, conversation_id: str, open_uses: Collection[str]
    ) -> list[ApprovalRecord]:
        """The chat's approvals a dead turn may have left unsettled, and those its open
        requests (tool use ids) made, whatever their status; oldest first, one read."""
        return approvals.approvals_to_settle(self._db, conversation_id, open_uses)

    def approvals_for(
        self,
        conversation_id: str,
        statuses: Collection[str] | None = None,
        *,
        tool_use_ids: Collection[str] | None = None,
    ) -> list[ApprovalRecord]:
        """A conversation's approvals (optionally only these statuses, only those asked by
        these tool uses), oldest first."""
        return approvals.approvals_for(self._db, conversation_id, statuses, tool_use_ids)

    def approvals_of_user(self, user_id: str, statuses: Collection[str]) -> list[ApprovalRecord]:
        """A person's approvals in these statuses across their conversations, oldest first."""
        return approvals.approvals_of_user(self._db, user_id, statuses)

    def unsettled_approvals(self) -> list[ApprovalRecord]:
        """Everyone's confirmations left executing or unknown (settled at start-up)."""
        return approvals.approvals_in(self._db, [status.value for status in UNSETTLED])

    def transition_approval(
        self,
        approval_id: str,
        from_statuses: Collection[str],
        to_status: str,
        *,
        result: dict[str, Any] | None = None,
        note: str = "",
        now: datetime | None = None,
        require_unexpired: bool = False,
    ) -> bool:
        """Atomic compare-and-set of an approval's status; True only for the one winner."""
        return approvals.transition(
            self._db,
            approval_id,
            from_statuses,
            to_status,
            result=result,
            note=note,
            now=now,
            require_unexpired=require_unexpired,
        )

    def record_approval_facts(self, approval_id: str, status: str, facts: dict[str, Any]) -> bool:
        """Write a confirmation's facts while it is still in `status`; True if it was."""
        return approvals.record_facts(self._db, approval_id, status, facts)

    def begin_spend(
        self,
        approval_id: str,
        user_id: str,
        facts: dict[str, Any],
        check: Callable[[int], None],
        *,
        day: str,
        now: datetime,
    ) -> bool:
        """pending → executing after `check(today's paise)`, one confirmation per person
        at a time; False when it was no longer pending (or expired)."""
        return approvals.begin_spend(self._db, approval_id, user_id, facts, check, day=day, now=now)

    def spending_state(self, user_id: str, day: str, limits_name: str) -> SpendingState:
        """The person's limits, what they spent on `day` and their orders awaiting a
        payment, in one read (what a new spending request is checked against)."""
        return spending_state(self._db, user_id, day, limits_name)

    def spent_today(self, user_id: str, day: str, *, excluding: str | None = None) -> int:
        """Paise the person's spends of the India date `day` add up to."""
        return approvals.spent_today(self._db, user_id, day, excluding=excluding)

    def spend_history(self, user_id: str, *, since_day: str | None = None) -> list[SpendRecord]:
        """The person's spends of the India date `since_day` and later (every day when
        None), oldest first, each saying whether the ledger counts it against the limits."""
        return spend_history(self._db, user_id, since_day)

    def expire_approvals(self, now: datetime | None = None) -> list[str]:
        return approvals.expire_approvals(self._db, now)

    def supersede_approvals(
        self,
        conversation_id: str,
        server_key: str | None = None,
        note: str = "",
        *,
        seen: bool = False,
    ) -> list[str]:
        """The chat's pending approvals (of one server) become "superseded"; `seen` when
        the caller has just read one pending (then no read looks for one first)."""
        return approvals.supersede_approvals(self._db, conversation_id, server_key, note, seen=seen)

    # -- audit and preferences ---------------------------------------------------------
    def record_audit(
        self,
        user_id: str,
        action: str,
        detail: dict[str, Any],
        *,
        conversation_id: str | None = None,
    ) -> None:
        audit.record_audit(self._db, user_id, action, detail, conversation_id)

    def audit_entries(
        self,
        user_id: str,
        *,
        conversation_id: str | None = None,
        actions: Collection[str] | None = None,
    ) -> list[tuple[str, dict[str, Any]]]:
        """The person's audit entries, oldest first (only these `actions` when given)."""
        return audit.audit_entries(self._db, user_id, conversation_id, actions)

    # -- the audit of every tool call ---------------------------------------------------
    def record_tool_call(self, entry: ToolCallEntry) -> None:
        """Append one tool call to the audit (arguments redacted), or to the rows held in
        this context (`holding_tool_calls`)."""
        held = held_calls.held_here(self._db)
        if held is not None:
            held.append(entry)
            return
        tool_audit.record_tool_call(self._db, entry)

    def tool_calls(
        self,
        user_id: str,
        *,
        limit: int = 200,
        server: str | None = None,
        tool: str | None = None,
        outcome: str | None = None,
        since: datetime | None = None,
    ) -> list[ToolCallEntry]:
        """The person's latest tool calls, newest first, optionally filtered."""
        return tool_audit.tool_call_entries(
            self._db, user_id, limit=limit, server=server, tool=tool, outcome=outcome, since=since
        )

    def set_preference(
        self, user_id: str, name: str, value: dict[str, Any], *, best_effort: bool = False
    ) -> None:
        """Remember a per-user setting; `best_effort` gives up soon on a locked database
        (for what is only a convenience, like the address last chosen)."""
        wait_ms = BEST_EFFORT_WAIT_MS if best_effort else None
        audit.set_preference(self._db, user_id, name, value, wait_ms=wait_ms)

    def get_preference(self, user_id: str, name: str) -> dict[str, Any] | None:
        return audit.get_preference(self._db, user_id, name)

    # -- remembered sign-ins (ciphertext only: `swiggy_core.oauth.TokenVault` encrypts) ----
    def save_remembered_token(self, user_id: str, backend: str, ciphertext: str) -> None:
        tokens.save_token(self._db, user_id, backend, ciphertext)

    def load_remembered_token(self, user_id: str, backend: str) -> str | None:
        return tokens.load_token(self._db, user_id, backend)

    def forget_remembered_token(self, user_id: str, backend: str) -> None:
        tokens.forget_token(self._db, user_id, backend)

    def close(self) -> None:
        """Close every pooled connection."""
        self._db.close()
