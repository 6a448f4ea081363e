"""Cards of plain outcomes: a status, key facts, images and files, or unparsed text."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from swiggy_core.parsers.card_base import CardModel, ToolResultCard


class StatusResult(ToolResultCard):
    """A plain outcome: success or failure with the server's text."""

    type: Literal["status"] = "status"
    success: bool
    message: str
    code: str | None = None


class InfoResult(ToolResultCard):
    """Key facts as short strings (orders, tracking, coupons, payments, or an unknown payload)."""

    type: Literal["info"] = "info"
    title: str | None = None
    fields: dict[str, str] = Field(default_factory=dict)


class MediaItem(CardModel):
    """One image or file of a tool result, as its card shows it.

    `data_ref` is the index of the result's content part that holds the bytes (they are
    stored once, with the result); None when nothing was kept (a link, or over the cap).
    """

    kind: Literal["image", "file"]
    mime_type: str | None = None
    name: str = ""
    size: int | None = None
    data_ref: int | None = None
    uri: str | None = None


class MediaResult(ToolResultCard):
    """Images and files a tool returned, with the result's text when it had some."""

    type: Literal["media"] = "media"
    items: list[MediaItem] = Field(default_factory=list)
    text: str = ""


class RawResult(ToolResultCard):
    """Text no parser understood (truncated)."""

    type: Literal["raw"] = "raw"
    text: str = ""
    truncated: bool = False
