"""Conversations, messages and the audit trail in SQL (SQLite by default).

Messages are stored in the same wire format the API uses (one TypeAdapter), so a
restored chat can be sent back unchanged. Nothing here ever stores a credential: audit
details pass through `redact` first.
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.pool import StaticPool

from swiggy_core.models import ChatMessage, conversation_adapter

_metadata = MetaData()

conversations = Table(
    "conversations",
    _metadata,
    Column("id", String(36), primary_key=True),
    Column("user_id", String(128), nullable=False, index=True),
    Column("vertical_id", String(32), nullable=False),
    Column("title", String(200), nullable=False, default=""),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)
messages = Table(
    "messages",
    _metadata,
    Column("conversation_id", String(36), ForeignKey("conversations.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("body", Text, nullable=False),
)
preferences = Table(
    "preferences",
    _metadata,
    Column("user_id", String(128), primary_key=True),
    Column("name", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)
audit = Table(
    "audit",
    _metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("user_id", String(128), nullable=False),
    Column("action", String(64), nullable=False),
    Column("detail", Text, nullable=False),
)

# Values that look like credentials: bearer tokens, Anthropic keys, long opaque strings.
_SECRET_KEYS = re.compile(r"token|key|secret|password|authorization", re.I)
_SECRET_VALUES = re.compile(r"(sk-ant-[\w-]+|Bearer\s+[\w.~+/-]+)")


def redact(value: Any) -> Any:
    """Replace credential-like values anywhere in a JSON-like structure."""
    if isinstance(value, dict):
        return {
            key: "[redacted]" if _SECRET_KEYS.search(str(key)) else redact(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [redact(item) for item in value]
    if isinstance(value, str):
        return _SECRET_VALUES.sub("[redacted]", value)
    return value


@dataclass(frozen=True, slots=True)
class ConversationInfo:
    id: str
    user_id: str
    vertical_id: str
    title: str
    updated_at: datetime


class ChatStore:
    """Persistence for chats; one instance per database URL."""

    def __init__(self, database_url: str) -> None:
        self.engine: Engine = _make_engine(database_url)
        _metadata.create_all(self.engine)

    def create_conversation(self, user_id: str, vertical_id: str, title: str = "") -> str:
        conversation_id = str(uuid.uuid4())
        now = datetime.now(UTC)
        with self.engine.begin() as conn:
            conn.execute(
                insert(conversations).values(
                    id=conversation_id,
                    user_id=user_id,
                    vertical_id=vertical_id,
                    title=title[:200],
                    created_at=now,
                    updated_at=now,
                )
            )
        return conversation_id

    def save_messages(self, conversation_id: str, chat: list[ChatMessage]) -> None:
        """Replace the stored messages of a conversation with `chat`."""
        rows = [
            {"conversation_id": conversation_id, "seq": seq, "body": body}
            for seq, body in enumerate(_dump_each(chat))
        ]
        with self.engine.begin() as conn:
            conn.execute(delete(messages).where(messages.c.conversation_id == conversation_id))
            if rows:
                conn.execute(insert(messages), rows)
            values: dict[str, Any] = {"updated_at": datetime.now(UTC)}
            title = _title_of(chat)
            if title:
                values["title"] = title
            conn.execute(
                update(conversations).where(conversations.c.id == conversation_id).values(**values)
            )

    def load_messages(self, conversation_id: str) -> list[ChatMessage]:
        with self.engine.connect() as conn:
            bodies = conn.execute(
                select(messages.c.body)
                .where(messages.c.conversation_id == conversation_id)
                .order_by(messages.c.seq)
            ).scalars()
            payload = "[" + ",".join(bodies) + "]"
        return conversation_adapter.validate_json(payload)

    def list_conversations(self, user_id: str, vertical_id: str) -> list[ConversationInfo]:
        query = (
            select(conversations)
            .where(conversations.c.user_id == user_id, conversations.c.vertical_id == vertical_id)
            .order_by(conversations.c.updated_at.desc())
        )
        with self.engine.connect() as conn:
            return [
                ConversationInfo(r.id, r.user_id, r.vertical_id, r.title, r.updated_at)
                for r in conn.execute(query)
            ]

    def delete_conversation(self, conversation_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(messages).where(messages.c.conversation_id == conversation_id))
            conn.execute(delete(conversations).where(conversations.c.id == conversation_id))

    def record_audit(self, user_id: str, action: str, detail: dict[str, Any]) -> None:
        """Append to the audit trail (approvals, orders, bookings), credentials redacted."""
        with self.engine.begin() as conn:
            conn.execute(
                insert(audit).values(
                    at=datetime.now(UTC),
                    user_id=user_id,
                    action=action,
                    detail=json.dumps(redact(detail), default=str),
                )
            )

    def audit_entries(self, user_id: str) -> list[tuple[str, dict[str, Any]]]:
        query = select(audit.c.action, audit.c.detail).where(audit.c.user_id == user_id)
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(audit.c.id)).all()
        return [(row.action, json.loads(row.detail)) for row in rows]

    def set_preference(self, user_id: str, name: str, value: dict[str, Any]) -> None:
        """Remember a small per-user setting (e.g. the chosen address); never a secret."""
        body = json.dumps(redact(value))
        with self.engine.begin() as conn:
            conn.execute(
                delete(preferences).where(
                    preferences.c.user_id == user_id, preferences.c.name == name
                )
            )
            conn.execute(insert(preferences).values(user_id=user_id, name=name, value=body))

    def get_preference(self, user_id: str, name: str) -> dict[str, Any] | None:
        query = select(preferences.c.value).where(
            preferences.c.user_id == user_id, preferences.c.name == name
        )
        with self.engine.connect() as conn:
            body = conn.execute(query).scalar_one_or_none()
        return None if body is None else dict(json.loads(body))

    def count_conversations(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(conversations)).scalar_one())


def _make_engine(database_url: str) -> Engine:
    if database_url in ("sqlite://", "sqlite:///:memory:"):
        # One shared connection, or every new connection would see an empty database.
        return create_engine(
            database_url, poolclass=StaticPool, connect_args={"check_same_thread": False}
        )
    if database_url.startswith("sqlite"):
        return create_engine(database_url, connect_args={"check_same_thread": False})
    return create_engine(database_url)


def _dump_each(chat: list[ChatMessage]) -> list[str]:
    return [conversation_adapter.dump_json([m]).decode()[1:-1] for m in chat]


def _title_of(chat: list[ChatMessage]) -> str:
    for message in chat:
        if message.role == "user" and message.text().strip():
            return message.text().strip().splitlines()[0][:80]
    return ""
