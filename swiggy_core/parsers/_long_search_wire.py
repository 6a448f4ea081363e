"""The documented product-search envelope, as msgspec reads it (see long_search).

Every field but the product list stays undecoded text (`Raw`) and is decoded by the
parser's own JSON reader, so its values are those of a full read. An unknown key at either
level refuses the whole text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
from msgspec import UNSET, Raw, UnsetType


class SearchData(msgspec.Struct, forbid_unknown_fields=True):
    products: list[Raw]
    nextOffset: Raw | UnsetType = UNSET  # the wire's names
    similarProducts: Raw | UnsetType = UNSET


class Envelope(msgspec.Struct, forbid_unknown_fields=True):
    data: SearchData
    success: Raw | UnsetType = UNSET
    message: Raw | UnsetType = UNSET


def as_payload(
    envelope: Envelope, products: list[dict[str, Any]], decode: Callable[[bytes], Any]
) -> dict[str, Any]:
    """The envelope as the decoded dict a full read gives, with `products` in place."""
    data: dict[str, Any] = _present(envelope.data, ("nextOffset",), decode)
    data["products"] = products
    data.update(_present(envelope.data, ("similarProducts",), decode))
    payload = _present(envelope, ("success", "message"), decode)
    payload["data"] = data
    return payload


def _present(
    record: msgspec.Struct, names: tuple[str, ...], decode: Callable[[bytes], Any]
) -> dict[str, Any]:
    """The named fields the text had, decoded."""
    found: dict[str, Any] = {}
    for name in names:
        raw = getattr(record, name)
        if raw is not UNSET:
            found[name] = decode(bytes(raw))
    return found
