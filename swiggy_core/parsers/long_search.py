"""A long product search read without decoding the products no card can show.

A product search's cards stop at `PARSER_MAX_ITEMS` products (the result says it was
truncated). Decoding a 1 MB search in full, a thousand products or more, costs 5-7 ms in
any Python JSON decoder; splitting it into the documented envelope and its products'
undecoded text costs about a tenth of that, and only the products kept are decoded.

Only the documented shape takes this path: `{success?, message?, data: {products,
nextOffset?, similarProducts?}}` (SWIGGY_REFERENCE: search_products, your_go_to_items),
from a product shop, as one text block, with more products than a card shows and every
kept one a product record. The walk that finds a result's products then stops inside
that list at the first product past the limit, so what it is given is all it would read.
Anything else, any unknown key included, gets `None` and is read in full as before: the
cards are the ones a full read makes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from swiggy_core.constants import PARSER_MAX_INPUT_CHARS, PARSER_MAX_ITEMS
from swiggy_core.parsers.jsontext import loads
from swiggy_core.parsers.routing import Route, route_for
from swiggy_core.parsers.shapes import is_product_record
from swiggy_core.parsers.unwrap import Unwrapped, single_text_block
from swiggy_core.verticals.catalog import search_lists_of

if TYPE_CHECKING:
    from collections.abc import Sequence

# Below this a full read is quick: at most a few hundred products (a typical search is
# 1-15 KB); the envelope's split pays off only once many products go unread.
LONG_SEARCH_CHARS: Final = 128 * 1024
# The products a full read would visit: the cards' limit, and one more that marks the
# result truncated.
_KEPT_PRODUCTS: Final = PARSER_MAX_ITEMS + 1


def read_long_search(tool_name: str, content: Any, vertical_id: str) -> Unwrapped | None:
    """The result decoded with only its first products, or None to read it in full."""
    text = single_text_block(content)
    if text is None or not LONG_SEARCH_CHARS <= len(text) <= PARSER_MAX_INPUT_CHARS:
        return None
    if route_for(tool_name) is not Route.SEARCH or search_lists_of(vertical_id) != "products":
        return None
    value = _shortened(text)
    return None if value is None else Unwrapped(text=text, value=value)


def _shortened(text: str) -> dict[str, Any] | None:
    """The envelope with its first `_KEPT_PRODUCTS` products, decoded; None if not that."""
    # msgspec loads only here: nothing else needs it, and a first page should not pay
    # for its import.
    import msgspec

    from swiggy_core.parsers import _long_search_wire as wire

    try:
        envelope = msgspec.json.decode(text, type=wire.Envelope)
        listed = envelope.data.products
        if len(listed) < _KEPT_PRODUCTS:
            return None  # every product is read anyway: nothing to leave out
        products = _decoded(listed[:_KEPT_PRODUCTS])
        return None if products is None else wire.as_payload(envelope, products, decode=loads)
    except (msgspec.DecodeError, ValueError, RecursionError):
        return None  # not JSON, another shape or an unknown key: a full read decides


def _decoded(pieces: Sequence[Any]) -> list[dict[str, Any]] | None:
    """The pieces' JSON values, if every one is a product record (None otherwise)."""
    # One array decoded at once: one call, and the keys the products share read once.
    values = loads(b"[" + b",".join(map(bytes, pieces)) + b"]")
    if not all(type(value) is dict and is_product_record(value) for value in values):
        return None  # a full read would walk into a non-record: read the whole result
    return values  # type: ignore[no-any-return]
