"""Parsed conversations kept in memory, extended with only the messages stored since.

Messages are append-only (a stored message is never rewritten), so a conversation read
once needs only the rows after its newest seq on the next read: one small query instead
of fetching and validating the whole chat every turn. One cheap `max(seq)` per read keeps
the copy true when another process appended to or deleted the conversation.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Final

from swiggy_core.store import chats
from swiggy_core.store.database import Database
from swiggy_core.store.records import StoredMessage

# Conversations kept; the least recently read one is dropped first.
MAX_CACHED_CONVERSATIONS: Final = 64


class HistoryCache:
    """Stored messages per conversation id, oldest first (safe to share between threads)."""

    def __init__(self, capacity: int = MAX_CACHED_CONVERSATIONS) -> None:
        self._capacity = capacity
        self._entries: OrderedDict[str, tuple[StoredMessage, ...]] = OrderedDict()
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"HistoryCache(conversations={len(self._entries)})"

    def load(self, db: Database, conversation_id: str) -> tuple[StoredMessage, ...]:
        """Every stored message of the conversation, as the database holds it now."""
        newest = chats.last_seq(db, conversation_id)
        with self._lock:
            cached = self._entries.get(conversation_id, ())
        known = cached[-1].seq if cached else -1
        if newest == known:
            found = cached
        elif newest > known:
            found = cached + tuple(chats.load_since(db, conversation_id, known))
        else:  # fewer than before: deleted (or replaced) elsewhere, so read it afresh
            found = tuple(chats.load_since(db, conversation_id, -1))
        self._keep(conversation_id, found)
        return found

    def forget(self, conversation_id: str) -> None:
        with self._lock:
            self._entries.pop(conversation_id, None)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def _keep(self, conversation_id: str, found: tuple[StoredMessage, ...]) -> None:
        # Two readers may race and an older copy may land last: harmless, since every
        # read compares the copy's newest seq with the database's first.
        with self._lock:
            self._entries[conversation_id] = found
            self._entries.move_to_end(conversation_id)
            while len(self._entries) > self._capacity:
                self._entries.popitem(last=False)
