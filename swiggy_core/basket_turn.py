"""The app's own answer to a shopping list, run on the turn's thread (`ChatSession.
send_answered`): a typed list or a file read at once, a photo read by the model first;
then one search per line and the basket review as the stored reply."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from swiggy_core.basket_list import WantedLine, read_list
from swiggy_core.basket_photo import Photo, listed_items, transcribe
from swiggy_core.basket_reads import review_list
from swiggy_core.basket_records import ListSource
from swiggy_core.basket_reply import error_of, failed_message, review_message
from swiggy_core.errors import SwiggyAssistantError
from swiggy_core.models import ChatMessage, MessageMeta, TextBlock, Usage
from swiggy_core.saved_addresses import Reader, default_address, saved_addresses
from swiggy_core.turn.handle import TurnHandle
from swiggy_core.verticals import Vertical

if TYPE_CHECKING:
    import anthropic

Answer = Callable[[TurnHandle], ChatMessage]


def list_answer(
    read: Reader,
    vertical: Vertical,
    wanted: list[WantedLine],
    address_id: str | None,
    source: ListSource,
) -> Answer:
    """The review of `wanted`, searched where the person delivers (else their first saved
    address); a failure of the reads becomes the stored reply's coded error."""

    def answer(turn: TurnHandle) -> ChatMessage:
        try:
            where = address_id or _first_address(read)
            review = review_list(read, vertical, wanted, where, source)
        except SwiggyAssistantError as error:
            return failed_message(error_of(error), turn.id)
        return review_message(review, turn.id)

    return answer


def photo_answer(
    client: Callable[[], anthropic.Anthropic],
    model: str,
    photo: Photo,
    lines: Callable[[list[WantedLine]], Answer],
) -> Answer:
    """The model's reading of `photo`, its lines then answered by `lines` (a list
    answer); a reply without lines is the stored reply as the model wrote it."""

    def answer(turn: TurnHandle) -> ChatMessage:
        from swiggy_core.engine.errors import classify_api_error  # with the SDK

        try:
            read = transcribe(client(), model, photo)
        except Exception as error:  # the SDK's errors, coded as a model turn's are
            info = classify_api_error(error)
            return failed_message(info.model_copy(update={"retryable": True}), turn.id)
        turn.usage = turn.usage + read.usage  # the session's token totals count it
        return _with_usage(_answer_lines(read.text, turn, lines), read.usage)

    return answer


def _answer_lines(
    reply: str, turn: TurnHandle, lines: Callable[[list[WantedLine]], Answer]
) -> ChatMessage:
    """The reply's "- " lines answered as a list; without any, the reply as written."""
    items = listed_items(reply)
    if items is None:
        meta = MessageMeta(turn_id=turn.id)
        return ChatMessage(role="assistant", content=[TextBlock(text=reply)], meta=meta)
    try:
        wanted = read_list(items)
    except SwiggyAssistantError as error:
        return failed_message(error_of(error), turn.id)
    return lines(wanted)(turn)


def _with_usage(message: ChatMessage, usage: Usage) -> ChatMessage:
    return message.model_copy(update={"meta": message.meta.model_copy(update={"usage": usage})})


def _first_address(read: Reader) -> str:
    address = default_address(saved_addresses(read))
    return address.address_id if address and address.address_id else ""
