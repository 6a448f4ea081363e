"""Parsed conversations kept in memory, extended with only the messages stored since.

Messages are append-only (a stored message is never rewritten), so a conversation read
once needs only the rows after its newest seq on the next read: one small query instead
of fetching and validating the whole chat every turn. One cheap `max(seq)` per read, in
the same snapshot, keeps the copy true when another process appended to or deleted the
conversation.

What is asked about the whole chat is kept with the copy and extended the same way (where
each turn begins, which tool uses are still unanswered), so neither a rerun that draws
the newest turns nor a turn that settles the chat scans the rest.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from swiggy_core.models import (
    ChatMessage,
    McpToolResultBlock,
    McpToolUseBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from swiggy_core.store import chats
from swiggy_core.store.database import Database
from swiggy_core.store.records import StoredMessage

# Conversations kept; the least recently read one is dropped first.
MAX_CACHED_CONVERSATIONS: Final = 64


@dataclass(frozen=True, slots=True)
class History:
    """A conversation's stored messages, oldest first, and where each of its turns begins."""

    stored: tuple[StoredMessage, ...] = ()
    messages: tuple[ChatMessage, ...] = ()
    # The index in `messages` of every message that opens a turn (`ChatMessage.opens_turn`).
    turn_starts: tuple[int, ...] = ()
    # The ids of tool uses no later message answers yet (a request the person left open).
    open_uses: frozenset[str] = frozenset()

    @property
    def last_seq(self) -> int:
        return self.stored[-1].seq if self.stored else -1

    def extended(self, rows: Sequence[StoredMessage]) -> History:
        """This history with `rows` (stored after it) appended: only they are looked at."""
        if not rows:
            return self
        offset = len(self.messages)
        added = tuple(row.message for row in rows)
        starts = (offset + i for i, message in enumerate(added) if message.opens_turn())
        return History(
            stored=self.stored + tuple(rows),
            messages=self.messages + added,
            turn_starts=self.turn_starts + tuple(starts),
            open_uses=_still_open(self.open_uses, added),
        )


def _still_open(open_uses: frozenset[str], added: Sequence[ChatMessage]) -> frozenset[str]:
    """The tool uses left unanswered once `added` follows (as `tool_pairs` pairs them: a
    result answers the use of its id before it; the API never repeats an id)."""
    still = set(open_uses)
    for message in added:
        for block in message.content if isinstance(message.content, list) else ():
            if isinstance(block, McpToolUseBlock | ToolUseBlock):
                still.add(block.id)
            elif isinstance(block, McpToolResultBlock | ToolResultBlock):
                still.discard(block.tool_use_id)
    return frozenset(still)


EMPTY_HISTORY: Final = History()


class HistoryCache:
    """Stored messages per conversation id, oldest first (safe to share between threads)."""

    def __init__(self, capacity: int = MAX_CACHED_CONVERSATIONS) -> None:
        self._capacity = capacity
        self._entries: OrderedDict[str, History] = OrderedDict()
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"HistoryCache(conversations={len(self._entries)})"

    def load(self, db: Database, conversation_id: str) -> History:
        """The conversation as the database holds it now."""
        with self._lock:
            cached = self._entries.get(conversation_id, EMPTY_HISTORY)
        extends, rows = chats.load_after(db, conversation_id, cached.last_seq)
        found = (cached if extends else EMPTY_HISTORY).extended(rows)
        self._keep(conversation_id, found)
        return found

    def forget(self, conversation_id: str) -> None:
        with self._lock:
            self._entries.pop(conversation_id, None)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def _keep(self, conversation_id: str, found: History) -> None:
        # Two readers may race and an older copy may land last: harmless, since every
        # read compares the copy's newest seq with the database's first.
        with self._lock:
            self._entries[conversation_id] = found
            self._entries.move_to_end(conversation_id)
            while len(self._entries) > self._capacity:
                self._entries.popitem(last=False)
