"""A shopping list matched to what the shop sells: the basket review, and its one cart write.

Each wanted line gets the best match of its own search (ranked by `swiggy_core.ranking`,
in stock first) and up to two alternatives to pick instead; a line with nothing in stock
is unmatched and said so. Nothing goes into the cart until the person presses Add all:
then one `update_cart` carries the current cart merged with the chosen packs (Instamart's
update_cart replaces the whole cart), the same merge "Order again" uses.
"""

from __future__ import annotations

import re
from typing import Any, Final

from swiggy_core.basket_list import WantedLine
from swiggy_core.basket_records import BasketChoice, BasketPick, BasketReview, BasketRow
from swiggy_core.parsers import CartLine, ProductItem
from swiggy_core.ranking import rank, read_wants
from swiggy_core.reorder import ReorderLine, merged_items

ALTERNATIVES: Final = 2
CART_TOOL: Final = "update_cart"


def basket_row(wanted: WantedLine, products: list[ProductItem]) -> BasketRow:
    """The best in-stock match of `wanted` among its search results, and two more."""
    ranked = rank(products, read_wants(wanted.query, wanted.text))
    picks: list[BasketPick] = []
    for product in [*ranked.items, *ranked.dropped]:
        pick = _pick(product, wanted.unit)
        if pick is not None and all(pick.spin_id != seen.spin_id for seen in picks):
            picks.append(pick)
    if not picks:
        return BasketRow(wanted=wanted)
    return BasketRow(wanted=wanted, best=picks[0], alternatives=picks[1 : 1 + ALTERNATIVES])


def default_choices(review: BasketReview) -> list[BasketChoice]:
    """Every matched row's best pack at the quantity asked (what Add all adds untouched)."""
    return [
        BasketChoice(pick=row.best, quantity=row.wanted.quantity)
        for row in review.rows
        if row.best is not None
    ]


def cart_arguments(
    address_id: str, current: list[CartLine], choices: list[BasketChoice]
) -> dict[str, Any]:
    """The one `update_cart`: the cart as it is now plus the chosen packs (same packs add up)."""
    lines = [_as_line(choice) for choice in choices if choice.quantity > 0]
    return {"selectedAddressId": address_id, "items": merged_items(current, lines)}


def _as_line(choice: BasketChoice) -> ReorderLine:
    cap = choice.pick.max_quantity
    quantity = min(choice.quantity, cap) if cap else choice.quantity
    return ReorderLine(
        name=choice.pick.name,
        quantity=quantity,
        status="available",
        new_price=choice.pick.price,
        spin_id=choice.pick.spin_id,
        sku_id=choice.pick.sku_id,
    )


def _pick(product: ProductItem, unit: str | None) -> BasketPick | None:
    """The product's pack of the size asked (else its default pack), if it can be bought."""
    for pack in product.variations:
        if unit and pack.spin_id and pack.in_stock and _same_size(pack.quantity_description, unit):
            price = pack.price if pack.price is not None else pack.mrp
            return BasketPick(name=product.name, spin_id=pack.spin_id, sku_id=pack.sku_id,
                              pack=pack.quantity_description, price=price,
                              max_quantity=pack.max_quantity)  # fmt: skip
    if not product.spin_id or not product.in_stock or product.max_quantity == 0:
        return None
    price = product.price if product.price is not None else product.mrp
    return BasketPick(name=product.name, spin_id=product.spin_id, sku_id=product.sku_id,
                      pack=product.quantity_description, price=price,
                      max_quantity=product.max_quantity)  # fmt: skip


_SIZE_WORDS: Final = {"litre": "l", "liter": "l", "ltr": "l", "gm": "g", "gms": "g", "kgs": "kg"}


def _same_size(described: str | None, unit: str) -> bool:
    """ "1 L" is "1 l", "500 gm" is "500 g"."""
    return described is not None and _size_key(described) == _size_key(unit)


def _size_key(text: str) -> str:
    words = re.findall(r"\d+(?:\.\d+)?|[a-z]+", text.lower())
    return " ".join(_SIZE_WORDS.get(word, word) for word in words)
