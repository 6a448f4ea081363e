"""Image references become absolute https URLs on Swiggy's image hosts; anything else is dropped.

Allowed: `https` on a host in `IMAGE_HOSTS` (Swiggy's media CDNs; Cloudinary only under
Swiggy's own account path), and plain http on a loopback host, which the offline sandbox
uses to serve its own small SVG images. Parsing cannot know which loopback origin is the
sandbox, so a card shows a loopback image only when `displayable_image_url` is given that
exact origin (`scheme://host:port`). Images are only ever fetched by the browser.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Final
from urllib.parse import quote, urlsplit

from swiggy_core.constants import LOOPBACK_HOSTS, SWIGGY_IMAGE_BASE_URL

_MAX_URL_CHARS = 2_048
# Host → the path every image URL on it must start with ("/" = any path). The allow-list
# for card images (DESIGN.md, "What the page may show"); kept here, beside the parser.
IMAGE_HOSTS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "media-assets.swiggy.com": "/",
        "instamart-media-assets.swiggy.com": "/",
        "dineout-media-assets.swiggy.com": "/",
        "res.cloudinary.com": "/swiggy/",
    }
)
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
_IMAGE_KEY_SET = frozenset(IMAGE_KEYS)


def safe_image_url(value: Any) -> str | None:
    """An absolute https URL on an allowed host (or a loopback http URL), else None."""
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
    primary = record.get(IMAGE_KEYS[0])  # `imageUrl`, the documented key: read it first
    if primary is not None:
        url = safe_image_url(primary)
        if url:
            return url
    if record.keys().isdisjoint(_IMAGE_KEY_SET):
        return None
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
        return ref if _allowed_host(host, parts.path) else None
    if scheme == "http" and host in LOOPBACK_HOSTS:
        return ref
    return None


def _allowed_host(host: str, path: str) -> bool:
    prefix = IMAGE_HOSTS.get(host.lower().rstrip("."))
    if prefix is None:
        return False
    if prefix == "/":
        return True
    # Browsers resolve `..` and `%2e%2e` segments, which could leave the prefix.
    lowered = path.lower()
    return path.startswith(prefix) and ".." not in lowered and "%2e" not in lowered


def displayable_image_url(url: Any, sandbox_origin: str | None = None) -> str | None:
    """`url` if a card may show it: an allowed https image, or one from `sandbox_origin`.

    `sandbox_origin` is the sandbox's own `http://127.0.0.1:<port>`, passed by the page
    that runs it; any other loopback origin (another port, another spelling) is refused.
    Stored cards are checked again here, so a card saved before a rule changed obeys it.
    """
    checked = safe_image_url(url)
    if checked is None:
        return None
    parts = urlsplit(checked)
    if parts.scheme == "https":
        return checked
    origin = _origin(sandbox_origin) if sandbox_origin else None
    return checked if origin is not None and _origin(checked) == origin else None


def _origin(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an http(s) URL, or None when it has none or is malformed."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return parts.scheme, parts.hostname, port or (443 if parts.scheme == "https" else 80)


def _expand_id(ref: str) -> str | None:
    """A bare Swiggy image id (e.g. a cloudinaryImageId) under the CDN base URL."""
    if ref.startswith("/") or ".." in ref or not _ID_RE.fullmatch(ref):
        return None
    return SWIGGY_IMAGE_BASE_URL + quote(ref, safe="/_-.,=%")
