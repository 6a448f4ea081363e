"""Food cart rules: resolving variants and add-ons, coupons, delivery fee and the bill."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from swiggy_sandbox.catalog import Dish, Restaurant
from swiggy_sandbox.shop.common import bill_line, money, require_quantity
from swiggy_sandbox.shop.errors import ShopError

MAX_ITEM_QUANTITY = 20
MAX_DELIVERY_KM = 12.0
PLATFORM_FEE = 10
GST_RATE = 0.05
_BASE_DELIVERY_FEE, _FREE_KM, _FEE_PER_KM = 25, 3.0, 6


@dataclass(frozen=True, slots=True)
class Coupon:
    """A food coupon: percent (capped) or flat off, or free delivery."""

    code: str
    description: str
    kind: str  # "percent" | "flat" | "free_delivery"
    value: int
    max_discount: int
    min_order: int


COUPONS = {
    c.code: c
    for c in (
        Coupon("WELCOME50", "50% off up to ₹100 on orders above ₹149", "percent", 50, 100, 149),
        Coupon("SWIGGYIT", "Flat ₹75 off on orders above ₹399", "flat", 75, 75, 399),
        Coupon("TRYNEW", "20% off up to ₹60 on orders above ₹199", "percent", 20, 60, 199),
        Coupon("FREEDEL", "Free delivery on orders above ₹199", "free_delivery", 0, 0, 199),
    )
}


@dataclass(frozen=True, slots=True)
class Line:
    """A validated cart line with its unit price in paise."""

    dish: Dish
    quantity: int
    variant_field: str  # "variants" | "variantsV2"
    variants: list[dict[str, Any]]
    addons: list[dict[str, Any]]
    unit_paise: int

    def stored(self) -> dict[str, Any]:
        """What the database keeps (selections only; prices are recomputed)."""
        pick = [
            {"group_id": v["group_id"], "variation_id": v["variation_id"]} for v in self.variants
        ]
        return {
            "menu_item_id": self.dish.id,
            "quantity": self.quantity,
            self.variant_field: pick,
            "addons": [
                {"group_id": a["group_id"], "choice_id": a["choice_id"]} for a in self.addons
            ],
        }

    def wire(self) -> dict[str, Any]:
        """A cart item as get_food_cart returns it (prices in rupees)."""
        return {
            "menu_item_id": self.dish.id,
            "name": self.dish.name,
            "isVeg": self.dish.is_veg,
            "quantity": self.quantity,
            self.variant_field: self.variants,
            "addons": self.addons,
            "price": money(self.unit_paise / 100),
            "totalPrice": money(self.unit_paise * self.quantity / 100),
            "valid_addons": list(self.dish.addons),
        }


def _pick(entry: dict[str, Any], *keys: str) -> str:
    for key in keys:
        if entry.get(key) is not None:
            return str(entry[key])
    return ""


def _variants(dish: Dish, raw: dict[str, Any]) -> tuple[str, list[dict[str, Any]], int]:
    """Chosen variations (defaults fill missing groups) and their extra price in paise."""
    field = "variantsV2" if dish.variants_v2 is not None else "variants"
    other = "variants" if field == "variantsV2" else "variantsV2"
    if raw.get(other):
        raise ShopError(
            f"Invalid {other} for {dish.name}: this item uses {field}; send that field."
        )
    block = dish.variants_v2 or dish.variants or {"variantGroups": []}
    groups = {g["groupId"]: g for g in block["variantGroups"]}
    chosen: dict[str, str] = {}
    for entry in raw.get(field) or []:
        group_id, variation_id = (
            _pick(entry, "group_id", "groupId"),
            _pick(entry, "variation_id", "variationId", "id"),
        )
        if group_id not in groups:
            raise ShopError(f"Invalid variant group '{group_id}' for {dish.name}.")
        chosen[group_id] = variation_id
    picked, extra = [], 0
    for group_id, group in groups.items():
        wanted = chosen.get(group_id)
        options = group["variations"]
        match = next((o for o in options if (o["id"] == wanted if wanted else o["default"])), None)
        if match is None:
            raise ShopError(f"Invalid variation '{wanted}' in '{group['name']}' for {dish.name}.")
        picked.append({"group_id": group_id, "variation_id": match["id"], "name": match["name"]})
        extra += match["price"]
    return field, picked, extra


def _addons(dish: Dish, raw: dict[str, Any]) -> tuple[list[dict[str, Any]], int]:
    """Chosen add-ons, checked against each group's choices and maximum."""
    groups = {g["groupId"]: g for g in dish.addons}
    picked: list[dict[str, Any]] = []
    counts: dict[str, int] = {}
    for entry in raw.get("addons") or []:
        group_id, choice_id = (
            _pick(entry, "group_id", "groupId"),
            _pick(entry, "choice_id", "choiceId", "id"),
        )
        group = groups.get(group_id)
        choice = (
            next((c for c in group["choices"] if c["id"] == choice_id), None) if group else None
        )
        if group is None or choice is None:
            raise ShopError(f"Invalid addon '{group_id}/{choice_id}' for {dish.name}.")
        counts[group_id] = counts.get(group_id, 0) + 1
        if counts[group_id] > group["maxAddons"]:
            raise ShopError(f"Too many add-ons in '{group['groupName']}' for {dish.name}.")
        picked.append({"group_id": group_id, "choice_id": choice_id, "name": choice["name"],
                       "price": money(choice["price"] / 100)})  # fmt: skip
    return picked, sum(round(a["price"] * 100) for a in picked)


def resolve(restaurant: Restaurant, raw: dict[str, Any]) -> Line:
    """Validate one requested cart item against the restaurant's menu."""
    item_id = str(raw.get("menu_item_id") or raw.get("menuItemId") or raw.get("id") or "")
    dish = next((d for d in restaurant.dishes if d.id == item_id), None)
    if dish is None:
        raise ShopError(
            f"Invalid menu_item_id '{item_id}': not on the menu of {restaurant.name}. "
            "Use ids from get_restaurant_menu or search_menu for this restaurant."
        )
    quantity = raw.get("quantity", 1)
    if isinstance(quantity, bool) or not isinstance(quantity, int):
        raise ShopError(f"Invalid quantity {quantity!r} for {dish.name}: use a whole number.")
    require_quantity(quantity, dish.name, MAX_ITEM_QUANTITY)
    if quantity and not dish.in_stock:
        raise ShopError(f"{dish.name} is sold out at {restaurant.name} right now.")
    field, variants, extra = _variants(dish, raw)
    addons, addon_paise = _addons(dish, raw)
    return Line(dish, quantity, field, variants, addons, dish.price + extra + addon_paise)


def delivery_fee(km: float) -> int:
    """Rupees for the last mile."""
    return _BASE_DELIVERY_FEE + max(0, round((km - _FREE_KM) * _FEE_PER_KM))


def coupon_problem(coupon: Coupon, item_total: float) -> str | None:
    """Why a coupon does not apply, or None when it does."""
    if item_total < coupon.min_order:
        return f"Add items worth ₹{money(coupon.min_order - item_total)} more to use {coupon.code}."
    return None


def bill(item_total: float, km: float, coupon: Coupon | None) -> dict[str, Any]:
    """Item total, fees, taxes, coupon discount and amount to pay (rupees)."""
    if item_total <= 0:
        return {"lineItems": [bill_line("To Pay", 0)], "itemTotal": 0, "toPay": 0}
    delivery = delivery_fee(km)
    taxes = item_total * GST_RATE
    discount = 0.0
    if coupon and coupon.kind == "free_delivery":
        discount = delivery
    elif coupon:
        off = item_total * coupon.value / 100 if coupon.kind == "percent" else coupon.value
        discount = min(off, coupon.max_discount)
    to_pay = item_total + delivery + PLATFORM_FEE + taxes - discount
    lines = [
        bill_line("Item Total", item_total),
        bill_line("Delivery Fee", delivery, distanceKm=round(km, 1)),
        bill_line("Platform Fee", PLATFORM_FEE),
        bill_line("GST & Restaurant Charges", taxes),
    ]
    if coupon:
        lines.append(bill_line(f"Coupon Discount ({coupon.code})", -discount))
    lines.append(bill_line("To Pay", to_pay))
    return {
        "lineItems": lines,
        "itemTotal": money(item_total),
        "deliveryFee": delivery,
        "platformFee": PLATFORM_FEE,
        "taxes": money(taxes),
        "discount": money(discount),
        "toPay": money(to_pay),
    }
