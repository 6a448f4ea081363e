"""A person's chats on one shop: list, start, rename, delete (never one that is busy).

A chat with a reply still coming in (in this process), or with an order or booking
waiting for the person's answer (the store checks that), is kept and named in the outcome.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from swiggy_core.store import ChatStore, ConversationInfo


@dataclass(frozen=True, slots=True)
class DeleteOutcome:
    """What a delete did: the chats removed, those kept, and which kept ones are replying."""

    deleted: tuple[str, ...]
    kept: tuple[str, ...]
    replying: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ChatPage:
    """The newest chats of a person on one shop, and whether older ones are left out."""

    chats: list[ConversationInfo]
    more: bool


def _replying_here(conversation_id: str) -> bool:
    # Imported here: the turn machinery loads the model SDKs, which a plain page does not need.
    from swiggy_core.turn.handle import running_turn

    return running_turn(conversation_id) is not None


@dataclass(frozen=True)
class ChatsService:
    """The chats of one person on one shop; nobody else's are ever listed or touched."""

    store: ChatStore
    replying: Callable[[str], bool] = _replying_here

    def listed(self, user_id: str, vertical_id: str) -> list[ConversationInfo]:
        """Newest first."""
        return self.store.list_chats(user_id, vertical_id)

    def page(self, user_id: str, vertical_id: str, shown: int) -> ChatPage:
        """The newest `shown` chats, and whether older ones are left out (one more is read
        to tell)."""
        chats = self.store.list_chats(user_id, vertical_id, limit=shown + 1)
        return ChatPage(chats=chats[:shown], more=len(chats) > shown)

    def find(self, user_id: str, vertical_id: str, conversation_id: str) -> ConversationInfo | None:
        """This chat, if it is one of the person's listed chats on this shop."""
        return self.store.find_chat(user_id, vertical_id, conversation_id)

    def count(self, user_id: str, vertical_id: str) -> int:
        """How many chats the person has on this shop."""
        return self.store.count_chats(user_id, vertical_id)

    def newest(self, user_id: str, vertical_id: str) -> str | None:
        """The chat a page opens when none is chosen."""
        stored = self.store.list_conversations(user_id, vertical_id, limit=1)
        return stored[0].id if stored else None

    def new(self, user_id: str, vertical_id: str) -> str:
        return self.store.new_chat(user_id, vertical_id)

    def rename(self, user_id: str, conversation_id: str, title: str) -> bool:
        return self.store.rename_chat(user_id, conversation_id, title)

    def delete(self, user_id: str, vertical_id: str, only: list[str] | None) -> DeleteOutcome:
        """Delete these chats (`None`: all of this shop's), keeping the busy ones."""
        candidates = only or [
            chat.id for chat in self.store.list_conversations(user_id, vertical_id)
        ]
        replying = [chat_id for chat_id in candidates if self.replying(chat_id)]
        outcome = self.store.delete_chats(user_id, vertical_id, only, replying)
        return DeleteOutcome(
            deleted=tuple(outcome.deleted),
            kept=tuple(outcome.kept),
            replying=tuple(chat_id for chat_id in outcome.kept if chat_id in replying),
        )
