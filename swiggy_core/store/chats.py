"""Conversations and their append-only messages.

Each message is one row keyed by (conversation_id, seq), stored in the API's own wire
format, so a restored chat can be sent back unchanged. Rows are only ever inserted: two
tabs (or processes) appending to one conversation both keep their messages.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection, Sequence
from typing import Final

from pydantic import ValidationError
from sqlalchemy import Connection, bindparam, case, delete, func, insert, select, update

from swiggy_core.errors import ErrorCode
from swiggy_core.models import ChatMessage, conversation_adapter
from swiggy_core.store.chat_listing import has_messages, shop_of
from swiggy_core.store.chat_search_index import forget_texts, index_texts, searchable_text
from swiggy_core.store.database import Database
from swiggy_core.store.faults import StoreError, is_conflict, store_error
from swiggy_core.store.records import ChatDeletion, StoredMessage
from swiggy_core.store.schema import (
    TITLE_LENGTH,
    approvals,
    conversations,
    messages,
    turn_leases,
    utc_now,
)

# A concurrent writer that took the same seq makes us start over; this bounds the retries.
APPEND_ATTEMPTS: Final = 20
# Titles come from the first line of the first user message, cut to this many characters.
TITLE_CHARS: Final = 80
# Approvals in these states still belong to a live chat: it is not deleted under them
# (waiting for the person, being carried out, or cut off and not settled yet).
BUSY_APPROVALS: Final = ("pending", "executing", "unknown")

_GONE: Final = (
    "This chat no longer exists (it was deleted, perhaps in another tab), so nothing "
    "could be added to it. Start a new chat; your message is kept on this page."
)
_UNREADABLE: Final = (
    "A stored message in this chat could not be read. Start a new chat; "
    "the old one is kept in the database."
)

# A turn's statements, built once: building one per call (and its cache key) cost more
# than running it.
# Touching the conversation sets its title only while it has none ("" keeps it as it is).
_TOUCH: Final = (
    update(conversations)
    .where(conversations.c.id == bindparam("chat_id"))
    .values(
        updated_at=bindparam("touched_at"),
        title=case(
            (conversations.c.title == "", bindparam("new_title")), else_=conversations.c.title
        ),
    )
)
_INSERT: Final = insert(messages)
_LAST_SEQ: Final = select(func.max(messages.c.seq)).where(
    messages.c.conversation_id == bindparam("chat_id")
)
_SINCE: Final = (
    select(messages.c.seq, messages.c.body, messages.c.created_at)
    .where(messages.c.conversation_id == bindparam("chat_id"), messages.c.seq > bindparam("after"))
    .order_by(messages.c.seq)
)


def create_conversation(db: Database, user_id: str, vertical_id: str, title: str) -> str:
    conversation_id = str(uuid.uuid4())
    now = utc_now()
    with db.write() as conn:
        conn.execute(
            insert(conversations).values(
                id=conversation_id,
                user_id=user_id,
                vertical_id=vertical_id,
                title=title[:TITLE_LENGTH],
                created_at=now,
                updated_at=now,
            )
        )
    return conversation_id


def append_messages(db: Database, conversation_id: str, chat: Sequence[ChatMessage]) -> list[int]:
    """Insert `chat` after the last stored message; returns the seqs it was given."""
    if not chat:
        return []
    bodies = [conversation_adapter.dump_json([message]).decode()[1:-1] for message in chat]
    title = title_of(chat)
    texts = [searchable_text(message) for message in chat]
    last_conflict: StoreError | None = None
    for _attempt in range(APPEND_ATTEMPTS):
        try:
            with db.write() as conn:
                seqs = _append_once(conn, conversation_id, bodies, title)
                index_texts(conn, conversation_id, seqs, texts)
                return seqs
        except StoreError as error:
            if not is_conflict(error):
                raise
            last_conflict = error
    raise store_error(ErrorCode.STORE_BUSY) from last_conflict


def _append_once(
    conn: Connection, conversation_id: str, bodies: list[str], title: str
) -> list[int]:
    # Touching the conversation first takes its row lock (PostgreSQL), so appenders to
    # one conversation queue here instead of colliding on seq below.
    touched = conn.execute(
        _TOUCH, {"chat_id": conversation_id, "touched_at": utc_now(), "new_title": title}
    )
    if touched.rowcount != 1:
        raise store_error(ErrorCode.STORE_FAILED, _GONE)
    last = conn.execute(_LAST_SEQ, {"chat_id": conversation_id}).scalar_one()
    start = -1 if last is None else int(last)
    seqs = list(range(start + 1, start + 1 + len(bodies)))
    now = utc_now()
    conn.execute(
        _INSERT,
        [
            {"conversation_id": conversation_id, "seq": seq, "body": body, "created_at": now}
            for seq, body in zip(seqs, bodies, strict=True)
        ],
    )
    return seqs


def load_after(
    db: Database, conversation_id: str, known_seq: int
) -> tuple[bool, list[StoredMessage]]:
    """In one snapshot: whether the conversation still extends the copy that ends at
    `known_seq`, and the messages it needs: those stored after it when it does, every
    message when it does not (deleted or replaced elsewhere)."""
    with db.read() as conn:
        last = conn.execute(_LAST_SEQ, {"chat_id": conversation_id}).scalar_one()
        newest = -1 if last is None else int(last)
        if newest == known_seq:
            return True, []
        extends = newest > known_seq
        after = known_seq if extends else -1
        rows = conn.execute(_SINCE, {"chat_id": conversation_id, "after": after}).all()
    chat = _parse([row.body for row in rows])
    stored = [
        StoredMessage(row.seq, message, row.created_at)
        for row, message in zip(rows, chat, strict=True)
    ]
    return extends, stored


def last_seq(db: Database, conversation_id: str) -> int:
    with db.read() as conn:
        last = conn.execute(_LAST_SEQ, {"chat_id": conversation_id}).scalar_one()
    return -1 if last is None else int(last)


def new_chat(db: Database, user_id: str, vertical_id: str) -> str:
    """A conversation with no message yet: the newest empty one is reused, else one is made,
    so pressing "New chat" again and again leaves no trail of empty rows."""
    query = (
        select(conversations.c.id)
        .where(shop_of(user_id, vertical_id), ~has_messages())
        .order_by(conversations.c.created_at.desc())
        .limit(1)
    )
    with db.write() as conn:
        reused = conn.execute(query).scalar_one_or_none()
        if reused is not None:
            # Newest first everywhere: the reused chat is the one a reload opens.
            conn.execute(
                update(conversations)
                .where(conversations.c.id == reused)
                .values(updated_at=utc_now())
            )
            return str(reused)
    return create_conversation(db, user_id, vertical_id, "")


def rename_chat(db: Database, user_id: str, conversation_id: str, title: str) -> bool:
    """Give the user's chat a title (first line, cut to length); False if it is not theirs.

    Only the title changes: the messages stay exactly as they were appended.
    """
    cleaned = title.strip().splitlines()[0].strip()[:TITLE_CHARS] if title.strip() else ""
    if not cleaned:
        raise ValueError("A chat needs a title with at least one visible character.")
    with db.write() as conn:
        touched = conn.execute(
            update(conversations)
            .where(conversations.c.id == conversation_id, conversations.c.user_id == user_id)
            .values(title=cleaned)
        )
    return touched.rowcount == 1


def delete_chats(
    db: Database,
    user_id: str,
    vertical_id: str,
    only: Collection[str] | None = None,
    spare: Collection[str] = (),
) -> ChatDeletion:
    """Delete the user's chats in one vertical (`only` these ids, if given), whole.

    A chat with an approval still waiting for an answer (or being carried out, or not yet
    settled) is kept, as is a chat whose reply is running in any process (a live turn
    lease) and every id in `spare`: nothing is deleted from under them.
    Checked and deleted in one transaction, so an approval created meanwhile is not missed.
    """
    mine = select(conversations.c.id).where(
        conversations.c.user_id == user_id, conversations.c.vertical_id == vertical_id
    )
    if only is not None:
        mine = mine.where(conversations.c.id.in_(list(only)))
    with db.write() as conn:
        ids = [str(row_id) for row_id in conn.execute(mine).scalars()]
        waiting = _waiting(conn, ids) if ids else set()
        kept = [chat_id for chat_id in ids if chat_id in waiting or chat_id in spare]
        doomed = [chat_id for chat_id in ids if chat_id not in kept]
        if doomed:
            forget_texts(conn, doomed)
            conn.execute(delete(messages).where(messages.c.conversation_id.in_(doomed)))
            conn.execute(delete(conversations).where(conversations.c.id.in_(doomed)))
    return ChatDeletion(deleted=tuple(doomed), kept=tuple(kept))


def _waiting(conn: Connection, ids: list[str]) -> set[str]:
    query = select(approvals.c.conversation_id).where(
        approvals.c.conversation_id.in_(ids), approvals.c.status.in_(BUSY_APPROVALS)
    )
    replying = select(turn_leases.c.conversation_id).where(
        turn_leases.c.conversation_id.in_(ids), turn_leases.c.expires_at > utc_now()
    )
    busy = {str(chat_id) for chat_id in conn.execute(query).scalars()}
    return busy | {str(chat_id) for chat_id in conn.execute(replying).scalars()}


def conversation_owner(db: Database, conversation_id: str) -> str | None:
    query = select(conversations.c.user_id).where(conversations.c.id == conversation_id)
    with db.read() as conn:
        owner = conn.execute(query).scalar_one_or_none()
    return None if owner is None else str(owner)


def delete_conversation(db: Database, conversation_id: str) -> None:
    with db.write() as conn:
        forget_texts(conn, [conversation_id])
        conn.execute(delete(messages).where(messages.c.conversation_id == conversation_id))
        conn.execute(delete(conversations).where(conversations.c.id == conversation_id))


def count_conversations(db: Database) -> int:
    with db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(conversations)).scalar_one())


def title_of(chat: Sequence[ChatMessage]) -> str:
    for message in chat:
        if message.role == "user" and message.text().strip():
            return message.text().strip().splitlines()[0][:TITLE_CHARS]
    return ""


def _parse(bodies: list[str]) -> list[ChatMessage]:
    try:
        return conversation_adapter.validate_json("[" + ",".join(bodies) + "]")
    except ValidationError as error:
        raise store_error(ErrorCode.STORE_FAILED, _UNREADABLE) from error
