"""What the real Messages API checks inside a `tool_result`'s content, and in the image
blocks a person's message carries (400 otherwise).

A tool result may hold text, image, document and search_result blocks. An image's base64
must decode, be one of the four image types, be the type it says it is and be at most
5 MB; a document's base64 must be a PDF. Nothing else (our stored `file` parts, for one)
may reach the API. An image block of a message is checked the same way, and only a user
message may hold one.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterator, Sequence
from typing import Any, Final

RESULT_PART_TYPES: Final = ("text", "image", "search_result", "document")
IMAGE_TYPES: Final = ("image/jpeg", "image/png", "image/gif", "image/webp")
MAX_IMAGE_BYTES: Final = 5 * 1024 * 1024  # per base64 image, decoded
# Leading bytes of each image type, as the API sniffs them.
_MAGIC: Final = {
    "image/png": (b"\x89PNG\r\n\x1a\n",),
    "image/jpeg": (b"\xff\xd8\xff",),
    "image/gif": (b"GIF87a", b"GIF89a"),
    "image/webp": (b"RIFF",),
}


def tool_result_problem(body: dict[str, Any]) -> str:
    """The first thing the API would refuse in a tool_result's content ("" when none)."""
    for where, _role, block in _blocks(body, "tool_result"):
        parts = block.get("content")
        if not isinstance(parts, list):
            continue
        for number, part in enumerate(parts):
            if problem := _part_problem(f"{where}.tool_result.content.{number}", part):
                return problem
    return ""


def message_image_problem(body: dict[str, Any]) -> str:
    """The first image block of a message the API would refuse ("" when none)."""
    for where, role, block in _blocks(body, "image"):
        if role != "user":
            return f"{where}: Image blocks are only allowed in user messages"
        if "source" not in block:
            return f"{where}.image.source: Field required"
        if problem := _image_problem(f"{where}.image.source", block["source"]):
            return problem
    return ""


def _blocks(body: dict[str, Any], kind: str) -> Iterator[tuple[str, Any, dict[str, Any]]]:
    """Each content block of type `kind` in the messages: (where, its message's role, it)."""
    for position, message in enumerate(body.get("messages") or []):
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, list):
            continue
        for index, block in enumerate(content):
            if isinstance(block, dict) and block.get("type") == kind:
                yield f"messages.{position}.content.{index}", message.get("role"), block


def tag_problem(where: str, block: Any, expected: Sequence[str]) -> str:
    """The API's refusal of a block whose `type` is none of `expected` ("" when it is one)."""
    kind = block.get("type") if isinstance(block, dict) else None
    if kind in expected:
        return ""
    tags = ", ".join(f"'{name}'" for name in expected)
    return (
        f"{where}: Input tag '{kind}' found using 'type' does not match any of the "
        f"expected tags: {tags}"
    )


def _part_problem(where: str, part: Any) -> str:
    if problem := tag_problem(where, part, RESULT_PART_TYPES):
        return problem
    kind = part.get("type")
    if kind == "image":
        return _image_problem(f"{where}.image.source", part.get("source"))
    if kind == "document":
        return _document_problem(f"{where}.document.source", part.get("source"))
    return ""


def _image_problem(where: str, source: Any) -> str:
    if not isinstance(source, dict):
        return f"{where}: Input should be a valid dictionary"
    if source.get("type") != "base64":
        return ""  # url and file sources are the API's to fetch; not emulated
    media_type = source.get("media_type")
    if media_type not in IMAGE_TYPES:
        allowed = ", ".join(f"'{name}'" for name in IMAGE_TYPES[:-1])
        return f"{where}.base64.media_type: Input should be {allowed} or '{IMAGE_TYPES[-1]}'"
    data = _decoded(source.get("data"))
    if data is None:
        return f"{where}.base64.data: The image data is not valid base64"
    if not data.startswith(_MAGIC[media_type]):
        return f"{where}.base64: Image does not match the provided media type {media_type}"
    if len(data) > MAX_IMAGE_BYTES:
        return (
            f"{where}.base64: image exceeds 5 MB maximum: {len(data)} bytes > "
            f"{MAX_IMAGE_BYTES} bytes"
        )
    return ""


def _document_problem(where: str, source: Any) -> str:
    if not isinstance(source, dict) or source.get("type") != "base64":
        return ""
    if source.get("media_type") != "application/pdf":
        return f"{where}.base64.media_type: Input should be 'application/pdf'"
    data = _decoded(source.get("data"))
    if data is None or not data.startswith(b"%PDF"):
        return f"{where}.base64.data: The PDF specified was not valid"
    return ""


def _decoded(data: Any) -> bytes | None:
    if not isinstance(data, str) or not data:
        return None
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return None
