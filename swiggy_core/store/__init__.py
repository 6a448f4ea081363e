"""Persistence: conversations with append-only messages, approvals, audit, preferences.

SQLAlchemy Core on SQLite (default) or PostgreSQL (by URL), with versioned migrations.
Every fault reaches callers as a coded `StoreError` (E-41xx).
"""

from swiggy_core.store.approval_states import ApprovalStatus
from swiggy_core.store.chat_store import ChatStore
from swiggy_core.store.faults import StoreError
from swiggy_core.store.records import (
    ApprovalRecord,
    ConversationInfo,
    NewApproval,
    StoredMessage,
)
from swiggy_core.store.redaction import redact

__all__ = [
    "ApprovalRecord",
    "ApprovalStatus",
    "ChatStore",
    "ConversationInfo",
    "NewApproval",
    "StoreError",
    "StoredMessage",
    "redact",
]
