"""Bring back a chat exported as JSON (`swiggy-assistant-chat/1`) as a new chat of yours.

The file is data from outside and nothing in it runs: only the words of each message and
the cards' plain fields are read (typed, size-limited); tool calls, approvals, ids and
anything else in it are ignored. The new chat has a new id, belongs to the person
importing it, is titled "Imported: …", holds only text (no tool call, no approval, no live
card), so it can never confirm or order anything; you can read it, search it and carry on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from swiggy_core.actions import escape_markup
from swiggy_core.errors import ErrorCode, UsageError
from swiggy_core.export.chat import EXPORT_FORMAT
from swiggy_core.export.import_cards import card_line, read_cards
from swiggy_core.models import ChatMessage
from swiggy_core.store import ChatStore
from swiggy_core.store.chats import TITLE_CHARS
from swiggy_core.verticals import VERTICALS

MAX_IMPORT_BYTES: Final = 2 * 1024 * 1024
MAX_IMPORT_MESSAGES: Final = 2_000
MAX_TEXT_CHARS: Final = 20_000
IMPORTED_PREFIX: Final = "Imported: "


class ChatImportError(UsageError):
    """A chat file that cannot be imported; nothing of it was kept."""

    code = ErrorCode.IMPORT_INVALID


class _FileMessage(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)

    role: Literal["user", "assistant"]
    text: Annotated[str, Field(max_length=MAX_TEXT_CHARS)] = ""
    cards: list[Any] = Field(default_factory=list)


class _ChatFile(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)

    format: Literal["swiggy-assistant-chat/1"]
    title: Annotated[str, Field(max_length=200)] = ""
    shop: Annotated[str, Field(max_length=64)]
    messages: list[_FileMessage]


@dataclass(frozen=True, slots=True)
class ImportedChat:
    """The chat made from a file: where it lives and what was left out of it."""

    conversation_id: str
    vertical_id: str
    title: str
    messages: int
    cards_left_out: int


def import_chat(store: ChatStore, user_id: str, data: bytes) -> ImportedChat:
    """A new chat of `user_id` holding the file's words; ChatImportError when the file
    is too big, not an exported chat, or from a shop this app lacks (nothing is kept)."""
    chat_file = read_chat_file(data)
    vertical_id = _shop_id(chat_file.shop)
    messages, left_out = _messages(chat_file.messages)
    if not messages:
        raise ChatImportError("This chat file has no messages to bring back.")
    # A chat imported twice is still "Imported: …" once.
    named = chat_file.title.strip().removeprefix(IMPORTED_PREFIX).strip() or "a chat"
    title = (IMPORTED_PREFIX + named)[:TITLE_CHARS]
    conversation_id = store.create_conversation(user_id, vertical_id, escape_markup(title))
    store.append_messages(conversation_id, messages)
    return ImportedChat(conversation_id, vertical_id, title, len(messages), left_out)


def check_size(size: int) -> None:
    """Refuse a file over MAX_IMPORT_BYTES (before reading it, when its size is known)."""
    if size > MAX_IMPORT_BYTES:
        raise ChatImportError(
            f"This chat file is larger than {MAX_IMPORT_BYTES // (1024 * 1024)} MB, "
            "so it was not imported.",
            code=ErrorCode.IMPORT_TOO_LARGE,
        )


def read_chat_file(data: bytes) -> _ChatFile:
    """The file as an exported chat, within the limits, or a coded ChatImportError."""
    check_size(len(data))
    try:
        raw = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise ChatImportError("This file is not a chat saved as JSON by this app.") from error
    if not isinstance(raw, dict) or raw.get("format") != EXPORT_FORMAT:
        raise ChatImportError(
            f"This file is not a chat saved by this app (its format is not {EXPORT_FORMAT})."
        )
    listed = raw.get("messages")
    if isinstance(listed, list) and len(listed) > MAX_IMPORT_MESSAGES:
        raise ChatImportError(
            f"This chat file holds more than {MAX_IMPORT_MESSAGES:,} messages, "
            "so it was not imported.",
            code=ErrorCode.IMPORT_TOO_LARGE,
        )
    try:
        return _ChatFile.model_validate(raw)
    except ValidationError as error:
        where = ".".join(str(part) for part in error.errors()[0]["loc"])
        raise ChatImportError(
            f"This chat file could not be read: the field {where} is not what an exported "
            "chat holds."
        ) from error


def _shop_id(shop: str) -> str:
    for vertical in VERTICALS.values():
        if shop.strip().casefold() in (vertical.display_name.casefold(), vertical.id):
            return vertical.id
    names = ", ".join(vertical.display_name for vertical in VERTICALS.values())
    raise ChatImportError(
        f"This chat is from a shop this app does not have ({shop[:40]!r}); it has {names}.",
        code=ErrorCode.IMPORT_UNKNOWN_SHOP,
    )


def _messages(listed: list[_FileMessage]) -> tuple[list[ChatMessage], int]:
    """Text-only messages, one per turn (neighbours of one role joined), and how many
    cards could not be read."""
    turns: list[tuple[Literal["user", "assistant"], list[str]]] = []
    left_out = 0
    for message in listed:
        cards, dropped = read_cards(message.cards)
        left_out += dropped
        words = [message.text.strip(), *(card_line(card) for card in cards)]
        words = [escape_markup(text) for text in words if text]
        if not words:
            continue
        if turns and turns[-1][0] == message.role:
            turns[-1][1].extend(words)
        else:
            turns.append((message.role, words))
    chat = [ChatMessage(role=role, content="\n\n".join(words)) for role, words in turns]
    return chat, left_out
