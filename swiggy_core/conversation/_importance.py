"""How much a tool result's field matters to the model, judged from its key.

HIGH is what the model must send back or quote: identifiers, names, prices and bills,
availability, quantities, slot times. MEDIUM is what the cards show besides (rating, eta,
image, cuisine, brand). LOW is what neither needs: descriptions, terms, tracking,
analytics and metadata, HTML, links, extra images. A key nobody named is MEDIUM when
short; its container is judged field by field instead (see `reduce`).
"""

from __future__ import annotations

import re
from enum import IntEnum
from functools import lru_cache
from typing import Final


class Importance(IntEnum):
    """LOW is dropped first, then MEDIUM; HIGH stays as long as anything does."""

    LOW = 0
    MEDIUM = 1
    HIGH = 2


# Whole keys (lower case, no separators) that win over every word rule below.
_EXACT: Final = {
    "quantitydescription": Importance.HIGH,  # the pack size the cards and the model quote
    "packsize": Importance.HIGH,
    "weight": Importance.HIGH,
    "success": Importance.HIGH,
    "error": Importance.HIGH,
    "message": Importance.HIGH,
    "result": Importance.HIGH,
    "truncated": Importance.HIGH,
}
# Checked first: a description of a price is still a description.
_LOW_WORDS: Final = frozenset(
    {
        *("description", "descriptions", "desc", "about", "review", "reviews", "story"),
        *("tnc", "terms", "conditions", "bullet", "bullets", "disclaimer", "instructions"),
        *("html", "markdown", "css", "svg", "style", "styling", "theme", "color", "colour"),
        *("background", "tracking", "analytics", "telemetry", "impression", "impressions"),
        *("meta", "metadata", "debug", "trace", "log", "logs", "experiment", "experiments"),
        *("widget", "widgets", "seo", "deeplink", "link", "links", "url", "urls", "uri"),
        *("banner", "banners", "masthead", "subtext", "footer", "raw", "internal"),
        *("amenities", "collections", "ribbon", "cta", "hint"),
    }
)
_IMAGE_WORDS: Final = frozenset(
    {"image", "images", "img", "imgs", "photo", "photos", "thumbnail", "logo", "icon"}
    | {"cloudinary", "picture", "pictures"}
)
_LOW_IMAGE_WORDS: Final = frozenset({"masthead", "banner", "banners", "background", "gallery"})
# Card extras that would otherwise read as HIGH ("areaName", "totalRatings", "deliveryTime").
_MEDIUM_WORDS: Final = frozenset(
    {
        *("rating", "ratings", "eta", "sla", "distance", "km", "brand", "cuisine"),
        *("cuisines", "locality", "area", "badge", "badges", "tag", "tags", "highlight"),
        *("highlights", "delivery", "vendor", "travel", "mile"),
        *("similar", "recommendations", "suggestions"),  # not what was asked for
    }
)
# Money wins over the card extras: "deliveryFee" is a bill line, not an eta.
_MONEY_WORDS: Final = frozenset(
    {
        *("price", "prices", "pricing", "mrp", "subtotal", "amount", "cost", "fee", "fees"),
        *("charge", "charges", "pay", "payable", "topay", "discount", "bill", "tax", "taxes"),
        *("rupees", "paise"),
    }
)
_HIGH_WORDS: Final = _MONEY_WORDS | frozenset(
    {
        *("id", "ids", "uuid", "key", "sku", "spin", "code"),
        *("name", "names", "title", "label", "veg"),
        *("total", "value", "currency", "coupon", "ordered"),
        *("stock", "avail", "available", "availability", "inventory", "open", "status"),
        *("free", "sold", "applicable", "cancel", "confirmed", "terminal", "enabled"),
        *("quantity", "qty", "count", "guest", "guests", "seats", "max", "min"),
        *("time", "date", "day", "slot", "slots", "offset", "more", "page"),
        *("address", "lat", "lng", "latitude", "longitude"),
    }
)
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_KEY_CACHE: Final = 4096


def words_of(key: str) -> tuple[str, ...]:
    """A key's lower-case words: discountedFinalPrice → discounted, final, price."""
    return tuple(word.lower() for word in _CAMEL.findall(key))


@lru_cache(maxsize=_KEY_CACHE)
def key_importance(key: str) -> Importance | None:
    """The key's importance, or None for a key no rule names (judge its value instead)."""
    words = words_of(key[:80])
    exact = _EXACT.get("".join(words))
    if exact is not None:
        return exact
    found = set(words)
    if found & _IMAGE_WORDS:  # before LOW: "imageUrl" is an image, not a link
        return Importance.LOW if found & _LOW_IMAGE_WORDS else Importance.MEDIUM
    if found & _LOW_WORDS:
        return Importance.LOW
    if found & _MONEY_WORDS:
        return Importance.HIGH
    if found & _MEDIUM_WORDS:
        return Importance.MEDIUM
    if found & _HIGH_WORDS:
        return Importance.HIGH
    return None


@lru_cache(maxsize=_KEY_CACHE)
def is_image_key(key: str) -> bool:
    """Keys holding images: one is worth keeping, the rest are LOW."""
    return bool(set(words_of(key[:80])) & _IMAGE_WORDS)


@lru_cache(maxsize=_KEY_CACHE)
def is_id_key(key: str) -> bool:
    """Identifier keys, whose strings are never shortened (a cut id is worse than none)."""
    words = words_of(key[:80])
    return bool(words) and words[-1] in ("id", "ids", "uuid", "key", "code")
