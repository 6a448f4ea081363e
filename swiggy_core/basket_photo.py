"""A photo of a shopping list (a handwritten list, a fridge shelf, a recipe page) read by
the model into one wanted thing per line.

The photo goes to the model as a base64 image block within the API's documented limits:
JPEG, PNG, GIF or WebP, at most 5 MB, best at most 1568 px on its long edge, so it is
checked and resized here first. The model is asked (`PHOTO_LIST_FOR_MODEL`) to answer
with one "- " line per thing; a reply without such lines (a model that cannot read
images says so) is shown to the person as it is, and no basket is made.
"""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from PIL import Image, UnidentifiedImageError

from swiggy_core.constants import MAX_UPLOAD_BYTES
from swiggy_core.errors import ErrorCode, InputError
from swiggy_core.models import Usage

if TYPE_CHECKING:  # the SDK loads with the client a photo asks for
    import anthropic

PHOTO_MEDIA_TYPES: Final = {
    "JPEG": "image/jpeg",
    "PNG": "image/png",
    "GIF": "image/gif",
    "WEBP": "image/webp",
}
MAX_API_IMAGE_BYTES: Final = 5 * 1024 * 1024  # the API's limit for one base64 image
LONG_EDGE_PX: Final = 1568  # larger images are scaled down by the API anyway
_MAX_PIXELS: Final = 60_000_000  # past this the file is a decompression bomb, not a photo
_JPEG_QUALITY: Final = 85
PHOTO_REPLY_TOKENS: Final = 1024
PHOTO_LIST_FOR_MODEL: Final = (
    "This photo is from a person shopping for groceries: a shopping list, a fridge or "
    "shelf, or a recipe. Write what they would buy as a list, one thing per line, each "
    'line starting with "- " and holding the quantity if one is visible (for example '
    '"- 2 l milk"). Write nothing else. If you cannot read the photo, say so in one '
    'sentence without any "- " lines.'
)


@dataclass(frozen=True)
class Photo:
    """A photo ready for the API: its name, media type and base64 data."""

    name: str
    media_type: str
    data: str

    def block(self) -> dict[str, Any]:
        """The documented image content block."""
        source = {"type": "base64", "media_type": self.media_type, "data": self.data}
        return {"type": "image", "source": source}


def prepare_photo(name: str, data: bytes) -> Photo:
    """`data` checked to be an image of an allowed type, scaled to LONG_EDGE_PX and under
    the API's size. Raises InputError (E-1033) for anything else."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise _unreadable(f"{name} is {len(data) / 1e6:.1f} MB; a photo can be at most "
                          f"{MAX_UPLOAD_BYTES / 1e6:.0f} MB.")  # fmt: skip
    image = _opened(name, data)
    media_type = PHOTO_MEDIA_TYPES.get(image.format or "")
    if media_type is None:
        raise _unreadable(f"{name} is not a JPEG, PNG, GIF or WebP photo.")
    if max(image.size) <= LONG_EDGE_PX and len(data) <= MAX_API_IMAGE_BYTES:
        return Photo(name, media_type, base64.b64encode(data).decode())
    image.thumbnail((LONG_EDGE_PX, LONG_EDGE_PX))
    out = io.BytesIO()
    image.convert("RGB").save(out, format="JPEG", quality=_JPEG_QUALITY)
    return Photo(name, "image/jpeg", base64.b64encode(out.getvalue()).decode())


@dataclass(frozen=True)
class Transcript:
    """What the model read in a photo, and the tokens it took."""

    text: str
    usage: Usage


def transcribe(client: anthropic.Anthropic, model: str, photo: Photo) -> Transcript:
    """The model's reading of the photo (raises the SDK's errors)."""
    content = [photo.block(), {"type": "text", "text": PHOTO_LIST_FOR_MODEL}]
    messages: list[Any] = [{"role": "user", "content": content}]
    reply = client.messages.create(model=model, max_tokens=PHOTO_REPLY_TOKENS, messages=messages)
    text = "".join(getattr(block, "text", "") for block in reply.content)
    used = reply.usage
    usage = Usage(
        input_tokens=used.input_tokens or 0,
        output_tokens=used.output_tokens or 0,
        cache_creation_input_tokens=used.cache_creation_input_tokens or 0,
        cache_read_input_tokens=used.cache_read_input_tokens or 0,
    )
    return Transcript(text, usage)


def listed_items(reply: str) -> str | None:
    """The "- " lines of the model's reply, one thing per line (None: there are none)."""
    items = [line.strip()[2:] for line in reply.splitlines() if line.strip().startswith("- ")]
    return "\n".join(items) if items else None


def _opened(name: str, data: bytes) -> Image.Image:
    try:
        image = Image.open(io.BytesIO(data))
        image.verify()  # a truncated or corrupt file fails here, before any decoding
        image = Image.open(io.BytesIO(data))
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, SyntaxError,
            ValueError) as error:  # fmt: skip
        raise _unreadable(f"{name} could not be read as a photo.") from error
    if image.size[0] * image.size[1] > _MAX_PIXELS:
        raise _unreadable(f"{name} is too large a picture to read.")
    return image


def _unreadable(what: str) -> InputError:
    return InputError(
        f"{what} Send a JPEG, PNG, GIF or WebP photo of your list.",
        code=ErrorCode.PHOTO_UNREADABLE,
    )
