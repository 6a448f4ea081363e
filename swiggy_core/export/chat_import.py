"""Bring back a chat exported as JSON (`swiggy-assistant-chat/2`, or the words-only `/1`)
as a new chat of yours.

The file is data from outside and nothing in it runs: the words of each message, the
cards' plain fields and (in /2) the stored tool results are read, typed and size-limited;
approvals, ids and anything else in it are ignored, and no tool is called. The results are
re-parsed by the app's own parsers (file_results.py): searches and menus of the chat's
own shop come back as real cards, everything else as a line of text, so the new chat can
never confirm, order, track or fill a cart by itself. It has a new id, belongs to the
person importing it and is titled "Imported: …"; you can read it, search it and carry on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from swiggy_core.actions import escape_markup
from swiggy_core.errors import ErrorCode, UsageError
from swiggy_core.export.chat import EXPORT_FORMAT, WORDS_ONLY_FORMAT
from swiggy_core.export.file_results import FileResult, RebuiltResults, rebuilt_results
from swiggy_core.export.import_cards import card_line, read_cards
from swiggy_core.models import ChatMessage, ContentBlock, MessageMeta, TextBlock
from swiggy_core.store import ChatStore
from swiggy_core.store.chats import TITLE_CHARS
from swiggy_core.verticals import VERTICALS, Vertical

MAX_IMPORT_BYTES: Final = 2 * 1024 * 1024
MAX_IMPORT_MESSAGES: Final = 2_000
MAX_TEXT_CHARS: Final = 20_000
# One stored result's text, and all the results of a file.
MAX_RESULT_CHARS: Final = 256 * 1024
MAX_IMPORT_RESULTS: Final = 500
FORMATS: Final = (EXPORT_FORMAT, WORDS_ONLY_FORMAT)
IMPORTED_PREFIX: Final = "Imported: "


class ChatImportError(UsageError):
    """A chat file that cannot be imported; nothing of it was kept."""

    code = ErrorCode.IMPORT_INVALID


class _FileMessage(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)

    role: Literal["user", "assistant"]
    text: Annotated[str, Field(max_length=MAX_TEXT_CHARS)] = ""
    cards: list[Any] = Field(default_factory=list)
    results: list[FileResult] = Field(default_factory=list)


class _ChatFile(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)

    format: Literal["swiggy-assistant-chat/2", "swiggy-assistant-chat/1"]
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
    # Results of tools this chat's shop does not have (dropped unread).
    tools_left_out: int = 0
    # Cards brought back as real cards, re-parsed from the file's results.
    cards: int = 0


def import_chat(store: ChatStore, user_id: str, data: bytes) -> ImportedChat:
    """A new chat of `user_id` holding the file's words and the cards re-parsed from its
    results; ChatImportError when the file is too big, not an exported chat, or from a
    shop this app lacks (nothing is kept)."""
    chat_file = read_chat_file(data)
    vertical_id = _shop_id(chat_file.shop)
    vertical = VERTICALS[vertical_id]
    built = _Built()
    for message in chat_file.messages:
        _add(built, message, vertical, with_results=chat_file.format == EXPORT_FORMAT)
    messages = built.chat()
    if not messages:
        raise ChatImportError("This chat file has no messages to bring back.")
    # A chat imported twice is still "Imported: …" once.
    named = chat_file.title.strip().removeprefix(IMPORTED_PREFIX).strip() or "a chat"
    title = (IMPORTED_PREFIX + named)[:TITLE_CHARS]
    conversation_id = store.create_conversation(user_id, vertical_id, escape_markup(title))
    store.append_messages(conversation_id, messages)
    return ImportedChat(
        conversation_id,
        vertical_id,
        title,
        len(messages),
        built.cards_left_out,
        built.tools_left_out,
        built.cards,
    )


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
    if not isinstance(raw, dict) or raw.get("format") not in FORMATS:
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
        chat_file = _ChatFile.model_validate(raw)
    except ValidationError as error:
        where = ".".join(str(part) for part in error.errors()[0]["loc"])
        raise ChatImportError(
            f"This chat file could not be read: the field {where} is not what an exported "
            "chat holds."
        ) from error
    _check_results(chat_file)
    return chat_file


def _check_results(chat_file: _ChatFile) -> None:
    results = [result for message in chat_file.messages for result in message.results]
    if len(results) > MAX_IMPORT_RESULTS:
        raise ChatImportError(
            f"This chat file holds more than {MAX_IMPORT_RESULTS:,} tool results, "
            "so it was not imported.",
            code=ErrorCode.IMPORT_TOO_LARGE,
        )
    if any(len(result.result) > MAX_RESULT_CHARS for result in results):
        raise ChatImportError(
            f"A tool result in this chat file is longer than {MAX_RESULT_CHARS // 1024} KB, "
            "so it was not imported.",
            code=ErrorCode.IMPORT_TOO_LARGE,
        )


def _shop_id(shop: str) -> str:
    for vertical in VERTICALS.values():
        if shop.strip().casefold() in (vertical.display_name.casefold(), vertical.id):
            return vertical.id
    names = ", ".join(vertical.display_name for vertical in VERTICALS.values())
    raise ChatImportError(
        f"This chat is from a shop this app does not have ({shop[:40]!r}); it has {names}.",
        code=ErrorCode.IMPORT_UNKNOWN_SHOP,
    )


@dataclass(slots=True)
class _Built:
    """The new chat as it is built: one message per turn (neighbours of one role joined)."""

    turns: list[tuple[Literal["user", "assistant"], list[ContentBlock], RebuiltResults]] = field(
        default_factory=list
    )
    cards_left_out: int = 0
    tools_left_out: int = 0
    cards: int = 0

    def chat(self) -> list[ChatMessage]:
        return [_message(role, blocks, rebuilt) for role, blocks, rebuilt in self.turns]


def _add(built: _Built, message: _FileMessage, vertical: Vertical, *, with_results: bool) -> None:
    """One file message into the chat: its words, then its cards (real ones rebuilt from
    its results when it has any, else its cards' lines)."""
    rebuilt = RebuiltResults()
    if with_results and message.role == "assistant" and message.results:
        rebuilt = rebuilt_results(message.results, vertical)
    else:
        cards, rebuilt.cards_left_out = read_cards(message.cards)
        rebuilt.lines = [card_line(card) for card in cards]
    built.cards_left_out += rebuilt.cards_left_out
    built.tools_left_out += rebuilt.tools_left_out
    built.cards += len(rebuilt.cards)
    words = [escape_markup(text) for text in (message.text.strip(), *rebuilt.lines) if text]
    blocks: list[ContentBlock] = [TextBlock(text=text) for text in words]
    below_words = 1 if message.text.strip() else 0
    blocks[below_words:below_words] = rebuilt.blocks  # under the reply's words, above lines
    if not blocks:
        return
    if built.turns and built.turns[-1][0] == message.role:
        built.turns[-1][1].extend(blocks)
        built.turns[-1][2].cards.update(rebuilt.cards)
    else:
        built.turns.append((message.role, blocks, rebuilt))


def _message(
    role: Literal["user", "assistant"], blocks: list[ContentBlock], rebuilt: RebuiltResults
) -> ChatMessage:
    """Words only as plain text (as /1 imports always were); with cards, as blocks."""
    if not rebuilt.cards:
        texts = [block.text for block in blocks if isinstance(block, TextBlock)]
        return ChatMessage(role=role, content="\n\n".join(texts))
    return ChatMessage(role=role, content=blocks, meta=MessageMeta(cards=rebuilt.cards))
