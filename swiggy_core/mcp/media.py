"""What an MCP tool result holds besides text, as the parts the app stores.

An image of a type the Messages API takes, within the size cap, stays an image; a PDF
resource becomes a document; any other blob, an audio clip, a resource link or anything
over the cap becomes a file part (kept for the person when it fits, named to the model in
one line). A text resource is plain text and joins the result's text.
"""

from __future__ import annotations

from typing import Any, Final
from urllib.parse import unquote, urlsplit

from swiggy_core.tool_content import (
    IMAGE_MEDIA_TYPES,
    MEDIA_MAX_BYTES,
    PDF_MEDIA_TYPE,
    Base64Source,
    DocumentContent,
    FileContent,
    ImageContent,
    MediaPart,
    base64_size,
    decoded,
    size_text,
)

_TOO_BIG: Final = f"Too large to keep (over {size_text(MEDIA_MAX_BYTES)}); left out."
_NOT_BASE64: Final = "Its data was not valid base64; left out."
_LINK: Final = "A link the server named; not opened."
_EXTENSIONS: Final = {"image/jpeg": "jpg", "image/svg+xml": "svg", "audio/mpeg": "mp3"}
_CONTENT_TYPES: Final = frozenset({"text", "image", "audio", "resource", "resource_link"})


def text_parts(result: Any) -> list[str]:
    """The result's text: text parts and embedded text resources (a paragraph of their
    own), in order."""
    texts: list[str] = []
    for part in result.content:
        if getattr(part, "type", None) == "text":
            texts.append(part.text)
        elif getattr(part, "type", None) == "resource" and hasattr(part.resource, "text"):
            texts.append(f"\n\n{part.resource.text}" if texts else part.resource.text)
    return texts


def media_parts(result: Any) -> tuple[MediaPart, ...]:
    """The result's images, documents and files, in order."""
    media: list[MediaPart] = []
    for index, part in enumerate(result.content, start=1):
        kind = getattr(part, "type", None)
        if kind in ("image", "audio"):
            name = f"{kind}-{index}.{_extension(part.mime_type)}"
            media.append(_blob(name, "", part.mime_type, part.data))
        elif kind == "resource" and hasattr(part.resource, "blob"):
            resource = part.resource
            uri = str(resource.uri)
            media.append(_blob(_name_of(uri), uri, resource.mime_type, resource.blob))
        elif kind == "resource_link":
            uri = str(part.uri)
            media.append(
                FileContent(
                    uri=uri,
                    name=part.name or _name_of(uri),
                    mime_type=part.mime_type,
                    size=part.size,
                    note=_LINK,
                )
            )
    return tuple(media)


def without_mirror(structured: dict[str, Any] | None) -> dict[str, Any] | None:
    """structuredContent, unless it only mirrors the content list (a tool returning a list
    of content blocks gets `{"result": [...]}` from the SDK's server): kept, that mirror
    would carry every image's base64 into the text the model reads."""
    if structured is None or set(structured) != {"result"}:
        return structured
    mirrored = structured["result"]
    if isinstance(mirrored, list) and all(
        isinstance(item, dict) and item.get("type") in _CONTENT_TYPES for item in mirrored
    ):
        return None
    return structured


def _blob(name: str, uri: str, mime_type: str | None, data: str) -> MediaPart:
    size = base64_size(data)
    if size > MEDIA_MAX_BYTES:
        return FileContent(uri=uri, name=name, mime_type=mime_type, size=size, note=_TOO_BIG)
    if decoded(data) is None:
        return FileContent(uri=uri, name=name, mime_type=mime_type, size=size, note=_NOT_BASE64)
    source = Base64Source(media_type=mime_type or "", data=data)
    if mime_type in IMAGE_MEDIA_TYPES:
        return ImageContent(source=source)
    if mime_type == PDF_MEDIA_TYPE:
        return DocumentContent(source=source, title=name)
    return FileContent(uri=uri, name=name, mime_type=mime_type, size=size, data=data)


def _name_of(uri: str) -> str:
    """The last path segment of a resource's URI ("report.pdf"), else "file"."""
    path = unquote(urlsplit(uri).path).rstrip("/")
    return path.rsplit("/", 1)[-1] or "file"


def _extension(mime_type: str | None) -> str:
    if not mime_type:
        return "bin"
    return _EXTENSIONS.get(mime_type, mime_type.rsplit("/", 1)[-1].split("+")[0] or "bin")
