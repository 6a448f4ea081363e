"""What the store hands back: plain frozen dataclasses, never rows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from swiggy_core.models import ChatMessage
from swiggy_core.store.approval_states import ApprovalStatus

APPROVAL_STATUSES: Final[frozenset[str]] = frozenset(status.value for status in ApprovalStatus)


@dataclass(frozen=True, slots=True)
class ConversationInfo:
    id: str
    user_id: str
    vertical_id: str
    title: str
    updated_at: datetime
    created_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class ChatDeletion:
    """What a delete did: the chats removed and those kept because they were busy."""

    deleted: tuple[str, ...]
    kept: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StoredMessage:
    """A message with its per-conversation sequence number (0, 1, 2, ...)."""

    seq: int
    message: ChatMessage
    # When it was stored; None for messages stored before times were kept.
    at: datetime | None = None


@dataclass(frozen=True, slots=True)
class NewApproval:
    """A spending action the model asked for, exactly as it would be executed."""

    user_id: str
    conversation_id: str
    vertical_id: str
    server_key: str
    tool: str
    arguments: dict[str, Any]
    digest: str
    view: dict[str, Any]
    tool_use_id: str
    expires_at: datetime


@dataclass(frozen=True, slots=True)
class ApprovalRecord(NewApproval):
    """A stored approval: the request plus its life so far."""

    id: str
    status: ApprovalStatus
    created_at: datetime
    updated_at: datetime
    result: dict[str, Any] | None
    note: str
