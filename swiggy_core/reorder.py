"""Order it again: a past order matched to what the shop sells now, as one cart write.

Instamart: each past line is matched to a current product (the same pack by its id, else
the same product by name) and marked available, re-priced (old vs new unit price) or
unavailable; the person sees that before anything is added. `update_cart` replaces the
whole cart, so the write carries the current cart merged with the lines found.
Food: the order's `reorderMeta` items go back as they were; a food cart holds one
restaurant, so the write replaces whatever cart there was.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from swiggy_core.parsers import CartLine, ProductItem
from swiggy_core.past_orders import PastLine, PastOrder

LineStatus = Literal["available", "repriced", "unavailable"]
# Prices differing by less than this (rupees) are the same price.
_SAME_PRICE = 0.005


@dataclass(frozen=True)
class ReorderLine:
    """One past line and what it matched now."""

    name: str
    quantity: int
    status: LineStatus
    old_price: float | None = None
    new_price: float | None = None
    # The current pack (Instamart) or dish (Food) it goes back into the cart as.
    spin_id: str | None = None
    sku_id: str | None = None
    menu_item_id: str | None = None
    # Why it is unavailable, or what changed ("only 2 left"), for the person.
    note: str | None = None
    cart_item: dict[str, Any] | None = None

    @property
    def addable(self) -> bool:
        """True when the line goes into the cart."""
        return self.status != "unavailable"


@dataclass(frozen=True)
class ReorderPlan:
    """A past order ready to go back into the cart, line by line."""

    order_id: str
    shop: Literal["instamart", "food"]
    lines: tuple[ReorderLine, ...]
    restaurant_id: str | None = None
    restaurant_name: str | None = None

    @property
    def addable(self) -> list[ReorderLine]:
        """The lines that go into the cart."""
        return [line for line in self.lines if line.addable]

    @property
    def unavailable(self) -> list[ReorderLine]:
        return [line for line in self.lines if line.status == "unavailable"]

    @property
    def repriced(self) -> list[ReorderLine]:
        return [line for line in self.lines if line.status == "repriced"]

    def cart_arguments(self, address_id: str, current: list[CartLine]) -> dict[str, Any]:
        """The one cart write: `update_cart` with the current cart merged in (Instamart),
        or `update_food_cart` with the order's items (Food)."""
        if self.shop == "food":
            arguments = {
                "restaurantId": self.restaurant_id,
                "cartItems": [_food_item(line) for line in self.addable],
                "addressId": address_id,
                "restaurantName": self.restaurant_name,
            }
            return {key: value for key, value in arguments.items() if value is not None}
        return {"selectedAddressId": address_id, "items": merged_items(current, self.addable)}

    @property
    def cart_tool(self) -> str:
        """The tool that writes the cart."""
        return "update_food_cart" if self.shop == "food" else "update_cart"


def plan_instamart(order: PastOrder, products: list[ProductItem]) -> ReorderPlan:
    """Each past line matched to the products found now."""
    lines = tuple(_matched(line, products) for line in order.lines)
    return ReorderPlan(order.order_id, "instamart", lines)


def plan_food(order: PastOrder) -> ReorderPlan:
    """The order's `reorderMeta` items, each as it was (the server checks them)."""
    lines = tuple(
        ReorderLine(
            name=line.name,
            quantity=line.quantity,
            status="available" if line.cart_item is not None else "unavailable",
            menu_item_id=line.item_id,
            cart_item=line.cart_item,
            note=None if line.cart_item is not None else "Swiggy offers no way to reorder it",
        )
        for line in order.lines
    )
    return ReorderPlan(
        order.order_id,
        "food",
        lines,
        restaurant_id=order.restaurant_id,
        restaurant_name=order.shop_name,
    )


def merged_items(current: list[CartLine], lines: list[ReorderLine]) -> list[dict[str, Any]]:
    """The whole Instamart cart as update_cart takes it: what is in it now, plus the
    reordered lines (the same pack's quantities add up)."""
    wanted: dict[str, dict[str, Any]] = {}
    for cart_line in current:
        if cart_line.spin_id and cart_line.quantity > 0:
            wanted[cart_line.spin_id] = _wire(
                cart_line.spin_id, cart_line.sku_id, cart_line.quantity
            )
    for line in lines:
        if line.spin_id is None:
            continue
        before = wanted.get(line.spin_id, {}).get("quantity", 0)
        wanted[line.spin_id] = _wire(line.spin_id, line.sku_id, before + line.quantity)
    return list(wanted.values())


def _wire(spin_id: str, sku_id: str | None, quantity: int) -> dict[str, Any]:
    item: dict[str, Any] = {"spinId": spin_id, "skuId": sku_id, "quantity": quantity}
    return {key: value for key, value in item.items() if value is not None}


def _food_item(line: ReorderLine) -> dict[str, Any]:
    item = dict(line.cart_item or {"menu_item_id": line.menu_item_id})
    item["quantity"] = line.quantity
    return item


def _matched(line: PastLine, products: list[ProductItem]) -> ReorderLine:
    """The same pack by id, else the same product by name; its stock and price now."""
    found = _same_pack(line, products) or _same_name(line, products)
    if found is None:
        return ReorderLine(line.name, line.quantity, "unavailable", line.unit_price,
                           note="Not sold here any more")  # fmt: skip
    product, spin_id, sku_id, price, in_stock, cap = found
    matched = ReorderLine(
        name=product.name,
        quantity=line.quantity,
        status="available",
        old_price=line.unit_price,
        new_price=price,
        spin_id=spin_id,
        sku_id=sku_id,
    )
    if not in_stock or cap == 0:
        return replace(matched, status="unavailable", note="Out of stock")
    if cap is not None and cap < line.quantity:
        matched = replace(matched, quantity=cap, note=f"Only {cap} can be ordered now")
    if _price_changed(line.unit_price, price):
        return replace(matched, status="repriced")
    return matched


# (product, spinId, skuId, price now, in stock, most that can be ordered)
_Found = tuple[ProductItem, str | None, str | None, float | None, bool, int | None]


def _same_pack(line: PastLine, products: list[ProductItem]) -> _Found | None:
    if line.item_id is None:
        return None
    for product in products:
        for pack in product.variations:
            if pack.spin_id == line.item_id:
                price = pack.price if pack.price is not None else pack.mrp
                return product, pack.spin_id, pack.sku_id, price, pack.in_stock, pack.max_quantity
        if product.spin_id == line.item_id and not product.variations:
            return _product_pack(product)
    return None


def _same_name(line: PastLine, products: list[ProductItem]) -> _Found | None:
    wanted = _plain(line.name)
    for product in products:
        if _plain(product.name) == wanted:
            return _product_pack(product)
    return None


def _product_pack(product: ProductItem) -> _Found:
    """A product's default pack (the one its card shows)."""
    price = product.price if product.price is not None else product.mrp
    return product, product.spin_id, product.sku_id, price, product.in_stock, product.max_quantity


def _plain(name: str) -> str:
    return " ".join(name.lower().split())


def _price_changed(old: float | None, new: float | None) -> bool:
    return old is not None and new is not None and abs(old - new) >= _SAME_PRICE
