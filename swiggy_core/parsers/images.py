"""Image references become absolute https URLs; anything else is dropped.

The one exception is plain http on a loopback host, which the offline sandbox uses to
serve its own small SVG images.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any
from urllib.parse import quote, urlsplit

from swiggy_core.constants import SWIGGY_IMAGE_BASE_URL

_MAX_URL_CHARS = 2_048
_LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
# Characters never valid in a URL we hand to a browser: whitespace, quotes, brackets,
# control characters. Single character classes: linear, no backtracking.
_FORBIDDEN_RE = re.compile(r"[\s\"'<>\\`{}|^\x00-\x1f\x7f]")
_ID_RE = re.compile(r"[A-Za-z0-9_\-./,=%]+")
_CACHE_SIZE = 4_096
IMAGE_KEYS = (
    "imageUrl",
    "image_url",
    "image",
    "imageId",
    "image_id",
    "cloudinaryImageId",
    "images",
    "imageUrls",
    "thumbnail",
    "img",
    "photo",
    "logo",
)


def safe_image_url(value: Any) -> str | None:
    """An absolute https (or loopback http) URL for an image reference, else None."""
    if isinstance(value, list):
        return next((url for url in map(safe_image_url, value[:5]) if url), None)
    if isinstance(value, dict):
        return safe_image_url(value.get("url") or value.get("src") or value.get("id"))
    if not isinstance(value, str) or len(value) > _MAX_URL_CHARS:
        return None
    return _safe_text_url(value)


@lru_cache(maxsize=_CACHE_SIZE)
def _safe_text_url(value: str) -> str | None:
    """Cached: a product and its variations usually share one image."""
    ref = value.strip()
    if not ref or _FORBIDDEN_RE.search(ref):
        return None
    if ref.startswith("//"):
        ref = "https:" + ref
    scheme, sep, _ = ref.partition(":")
    if sep and "/" not in scheme:
        return _checked_url(ref, scheme.lower())
    return _expand_id(ref)


def image_from(record: dict[str, Any]) -> str | None:
    """The first usable image URL among a record's image keys."""
    for key in IMAGE_KEYS:
        if key in record:
            url = safe_image_url(record[key])
            if url:
                return url
    return None


def _checked_url(ref: str, scheme: str) -> str | None:
    try:
        parts = urlsplit(ref)
        host = parts.hostname
        parts.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError:
        return None
    if not host or parts.username is not None or parts.password is not None:
        return None
    if scheme == "https":
        return ref
    if scheme == "http" and host in _LOOPBACK_HOSTS:
        return ref
    return None


def _expand_id(ref: str) -> str | None:
    """A bare Swiggy image id (e.g. a cloudinaryImageId) under the CDN base URL."""
    if ref.startswith("/") or ".." in ref or not _ID_RE.fullmatch(ref):
        return None
    return SWIGGY_IMAGE_BASE_URL + quote(ref, safe="/_-.,=%")
