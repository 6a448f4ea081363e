"""A tool result's images and files as a `media` card; its text still parses as usual.

The card holds no bytes: each item points at the content part that does (`data_ref`), so a
picture is stored once, with its result. A result whose text is a real card (products, a
cart, a failure) keeps that card; otherwise the media card shows, the text as its caption.
"""

from __future__ import annotations

from typing import Any, Final

from pydantic import TypeAdapter, ValidationError

from swiggy_core.parsers.plain_results import MediaItem, MediaResult, StatusResult
from swiggy_core.parsers.results import ParsedToolResult
from swiggy_core.tool_content import (
    MEDIA_PART_TYPES,
    DocumentContent,
    FileContent,
    ImageContent,
    TextContent,
    ToolResultPart,
)

# Cards that say less than the media themselves: those give way to the media card.
_PLAIN_TYPES: Final = frozenset({"raw", "info", "status"})
_CAPTION_CHARS: Final = 600
_parts: TypeAdapter[ToolResultPart] = TypeAdapter(ToolResultPart)


def media_parts(content: Any) -> list[tuple[int, Any]]:
    """(index, typed part) of every image, document or file in a result's content list."""
    if not isinstance(content, list):
        return []
    found: list[tuple[int, Any]] = []
    for index, part in enumerate(content):
        kind = part.get("type") if isinstance(part, dict) else getattr(part, "type", None)
        if kind not in MEDIA_PART_TYPES:
            continue
        try:
            found.append(
                (index, part if not isinstance(part, dict) else _parts.validate_python(part))
            )
        except ValidationError:
            continue  # a malformed part shows nothing rather than breaking the card
    return found


def text_content(content: list[Any]) -> list[Any]:
    """The result's content without its media parts."""
    return [part for part in content if not _is_media(part)]


def with_media(parsed: ParsedToolResult | None, found: list[tuple[int, Any]]) -> ParsedToolResult:
    """The card for a result with media: its text's own card when that says more."""
    if parsed is not None and parsed.type not in _PLAIN_TYPES:
        return parsed
    if isinstance(parsed, StatusResult) and not parsed.success:
        return parsed  # a failure is never shown as if it had brought something
    caption = _caption(parsed)
    return MediaResult(items=[_item(index, part) for index, part in found], text=caption)


def _item(index: int, part: Any) -> MediaItem:
    if isinstance(part, ImageContent):
        media_type = part.source.media_type
        name = f"image-{index + 1}.{media_type.rsplit('/', 1)[-1]}"
        return MediaItem(
            kind="image", mime_type=media_type, name=name, size=part.size, data_ref=index
        )
    if isinstance(part, DocumentContent):
        name = part.title or f"document-{index + 1}.pdf"
        return MediaItem(
            kind="file", mime_type=part.source.media_type, name=name, size=part.size, data_ref=index
        )
    assert isinstance(part, FileContent)
    return MediaItem(
        kind="file",
        mime_type=part.mime_type,
        name=part.name,
        size=part.size,
        data_ref=index if part.data else None,
        uri=part.uri or None,
    )


def _caption(parsed: ParsedToolResult | None) -> str:
    text = ""
    if parsed is not None:
        text = str(getattr(parsed, "text", "") or getattr(parsed, "message", "") or "")
    return text.strip()[:_CAPTION_CHARS]


def _is_media(part: Any) -> bool:
    kind = part.get("type") if isinstance(part, dict) else getattr(part, "type", None)
    return kind in MEDIA_PART_TYPES and not isinstance(part, TextContent)
