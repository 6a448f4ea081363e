"""The parts of a stored tool result: text, images, PDFs and files, tagged on `type`.

Text, image and document parts have exactly the Messages API's shape, so the local engine
sends them back inside a `tool_result` as they are. A `file` part is the app's own: a blob
the model cannot read (or a link, or anything over the size cap), kept for the person to
download; the model reads one short line naming it instead (`to_param`). Base64 never
reaches the model as text, and nothing here ever cuts it.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

# The image types the Messages API accepts in an image block.
IMAGE_MEDIA_TYPES: Final = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
PDF_MEDIA_TYPE: Final = "application/pdf"
# The API's own limit for one image; a PDF or file above it is not kept either (each part
# is stored with its message and sent again with the history).
MEDIA_MAX_BYTES: Final = 5 * 1024 * 1024
_KB: Final = 1024


class _Part(BaseModel):
    model_config = ConfigDict(extra="ignore")

    def to_param(self) -> dict[str, Any]:
        """The part as the Messages API takes it inside a tool result."""
        return self.model_dump(mode="json", exclude_none=True)


class TextContent(_Part):
    """A text part inside a tool result's content list."""

    type: Literal["text"] = "text"
    text: str


class Base64Source(BaseModel):
    type: Literal["base64"] = "base64"
    media_type: str
    data: str  # base64, never shown as text and never cut


class ImageContent(_Part):
    """An image the model sees (png, jpeg, gif or webp, within the size cap)."""

    type: Literal["image"] = "image"
    source: Base64Source

    @property
    def size(self) -> int:
        return base64_size(self.source.data)

    @property
    def text(self) -> str:
        """How text-only readers (summaries, the audit) mention it."""
        return f"[Image: {self.source.media_type}, {size_text(self.size)}]"


class DocumentContent(_Part):
    """A PDF the model reads (within the size cap); `title` is the resource's name."""

    type: Literal["document"] = "document"
    source: Base64Source
    title: str | None = None

    @property
    def size(self) -> int:
        return base64_size(self.source.data)

    @property
    def text(self) -> str:
        return f"[Document {self.title or 'untitled'}: PDF, {size_text(self.size)}]"


class FileContent(_Part):
    """A resource the model only hears named: a blob it cannot read, a link, or one too big.

    `data` (base64) is kept for the person's download when it was sent and within the cap.
    """

    type: Literal["file"] = "file"
    uri: str = ""
    name: str = "file"
    mime_type: str | None = None
    size: int | None = None
    data: str | None = None
    note: str = ""  # why the model does not get it, when that is worth saying

    @property
    def text(self) -> str:
        facts = [self.mime_type or "unknown type"]
        if self.size is not None:
            facts.append(size_text(self.size))
        where = f" at {self.uri}" if self.uri else ""
        tail = f" {self.note}" if self.note else ""
        return f"[File {self.name}: {', '.join(facts)}{where}.{tail}]"

    def to_param(self) -> dict[str, Any]:
        # Only this line reaches the model: never the blob.
        return {"type": "text", "text": self.text}


ToolResultPart = Annotated[
    TextContent | ImageContent | DocumentContent | FileContent, Field(discriminator="type")
]
MediaPart = ImageContent | DocumentContent | FileContent
MEDIA_PART_TYPES: Final = frozenset({"image", "document", "file"})


def base64_size(data: str) -> int:
    """Bytes that `data` decodes to, without decoding it."""
    stripped = data.strip()
    return max(0, len(stripped) * 3 // 4 - stripped[-2:].count("="))


def decoded(data: str | None) -> bytes | None:
    """The bytes of base64 `data`; None when there is none or it is not base64."""
    if not data:
        return None
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return None


def size_text(size: int) -> str:
    """A size as people read it: 812 B, 12.3 KB, 4.1 MB."""
    if size < _KB:
        return f"{size} B"
    if size < _KB * _KB:
        return f"{size / _KB:.1f} KB"
    return f"{size / (_KB * _KB):.1f} MB"


def part_text(part: object) -> str:
    """The text of any part (stored model or wire dict); media parts give their short line."""
    if isinstance(part, Mapping):
        text = part.get("text")
        if isinstance(text, str):
            return text
        kind = part.get("type")
        return f"[{kind}]" if isinstance(kind, str) else ""
    text = getattr(part, "text", "")
    return text if isinstance(text, str) else ""


def mcp_results_as_text(message: dict[str, Any]) -> dict[str, Any]:
    """A wire message whose `mcp_tool_result` blocks hold images and documents as their
    short lines: that block carries text only (the local engine sends them whole)."""
    content = message["content"]
    if isinstance(content, str) or not any(_has_media(block) for block in content):
        return message
    blocks = [
        {**block, "content": text_only(block["content"])} if _has_media(block) else block
        for block in content
    ]
    return {**message, "content": blocks}


def text_only(parts: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Wire parts with images and documents as their short lines."""
    return [
        dict(part) if part.get("type") == "text" else {"type": "text", "text": _wire_line(part)}
        for part in parts
    ]


def _has_media(block: Mapping[str, Any]) -> bool:
    parts = block.get("content")
    return (
        block.get("type") == "mcp_tool_result"
        and isinstance(parts, list)
        and any(isinstance(part, Mapping) and part.get("type") != "text" for part in parts)
    )


def _wire_line(part: Mapping[str, Any]) -> str:
    source = part.get("source")
    data = source.get("data") if isinstance(source, Mapping) else None
    size = size_text(base64_size(data)) if isinstance(data, str) else "size unknown"
    if part.get("type") == "image":
        media_type = source.get("media_type") if isinstance(source, Mapping) else None
        return f"[Image: {media_type or 'image'}, {size}; shown to the person, not here.]"
    title = part.get("title") or "untitled"
    return f"[Document {title}: {size}; shown to the person, not here.]"
