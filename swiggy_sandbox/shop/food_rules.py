"""Food cart rules: resolving variants and add-ons, coupons, delivery fee and the pricing.

Menu prices are kept in paise (as the catalog and Swiggy's menus carry them); everything a
cart, a bill or an order reports is in rupees.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from swiggy_sandbox.catalog import Dish, Restaurant
from swiggy_sandbox.catalog.wire import image_url
from swiggy_sandbox.shop.common import money, require_quantity
from swiggy_sandbox.shop.errors import ShopError

MAX_ITEM_QUANTITY = 20
MAX_DELIVERY_KM = 12.0
PLATFORM_FEE = 10
GST_RATE = 0.05
PAISE = 100
_BASE_DELIVERY_FEE, _FREE_KM, _FEE_PER_KM = 25, 3.0, 6


@dataclass(frozen=True, slots=True)
class Coupon:
    """A food coupon: percent (capped) or flat off, or free delivery."""

    code: str
    title: str
    description: str
    kind: str  # "percent" | "flat" | "free_delivery"
    value: int
    max_discount: int
    min_order: int
    online_only: bool = False  # needs online payment: never valid for cash on delivery


COUPONS = {
    c.code: c
    for c in (
        Coupon("WELCOME50", "50% OFF", "50% off up to ₹100 on orders above ₹149", "percent",
               50, 100, 149),
        Coupon("SWIGGYIT", "₹75 OFF", "Flat ₹75 off on orders above ₹399", "flat", 75, 75, 399),
        Coupon("TRYNEW", "20% OFF", "20% off up to ₹60 on orders above ₹199", "percent",
               20, 60, 199),
        Coupon("FREEDEL", "FREE DELIVERY", "Free delivery on orders above ₹199",
               "free_delivery", 0, 0, 199),
        Coupon("UPI100", "₹100 OFF", "Flat ₹100 off with UPI on orders above ₹299", "flat",
               100, 100, 299, online_only=True),
    )
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Line:
    """A validated cart line with its unit price in paise."""

    dish: Dish
    quantity: int
    variant_field: str  # "variants" | "variantsV2": the format the dish uses
    variants: list[dict[str, Any]]
    addons: list[dict[str, Any]]
    unit_paise: int

    def stored(self) -> dict[str, Any]:
        """What the database keeps (selections only; prices are recomputed)."""
        return {
            "menu_item_id": self.dish.id,
            "quantity": self.quantity,
            self.variant_field: [
                {"group_id": v["group_id"], "variation_id": v["variation_id"]}
                for v in self.variants
            ],
            "addons": [{"group_id": a["group_id"], "choice_id": a["id"]} for a in self.addons],
        }

    @property
    def total(self) -> float:
        """Rupees for the whole line."""
        return money(self.unit_paise * self.quantity / PAISE)

    def cart_item(self, base_url: str) -> dict[str, Any]:
        """A Food cart (FC) item: rupees; selections under the dish's own variant format."""
        return {
            "menu_item_id": self.dish.id,
            "name": self.dish.name,
            "imageUrl": image_url(base_url, "dish", self.dish.id),
            "quantity": self.quantity,
            "is_veg": self.dish.is_veg,
            "subtotal": self.total,
            "total": self.total,
            "final_price": money(self.unit_paise / PAISE),
            "in_stock": self.dish.in_stock,
            self.variant_field: self.variants,
            "addons": self.addons,
            "valid_addons": [_addon_group(g) for g in self.dish.addons],
        }


def _addon_group(group: dict[str, Any]) -> dict[str, Any]:
    return {
        "group_id": group["groupId"],
        "name": group["groupName"],
        "minAddons": group.get("minAddons", 0),
        "maxAddons": group["maxAddons"],
        "choices": [
            {"id": c["id"], "name": c["name"], "price": money(c["price"] / PAISE)}
            for c in group["choices"]
        ],
    }


def _pick(entry: dict[str, Any], *keys: str) -> str:
    for key in keys:
        if entry.get(key) is not None:
            return str(entry[key])
    return ""


def variant_format(dish: Dish) -> str:
    """The key a cart update must use for this dish's variant choices."""
    return "variantsV2" if dish.variants_v2 is not None else "variants"


def _variants(dish: Dish, raw: dict[str, Any]) -> tuple[str, list[dict[str, Any]], int]:
    """Chosen variations (defaults fill missing groups) and their extra price in paise."""
    field = variant_format(dish)
    other = "variants" if field == "variantsV2" else "variantsV2"
    if raw.get(other):
        raise ShopError(
            f"Invalid {other} for {dish.name}: this item uses {field}; send that field."
        )
    block = dish.variants_v2 or dish.variants or {"variantGroups": []}
    groups = {g["groupId"]: g for g in block["variantGroups"]}
    chosen: dict[str, str] = {}
    for entry in raw.get(field) or []:
        group_id = _pick(entry, "group_id", "groupId")
        variation_id = _pick(entry, "variation_id", "variationId", "id")
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
        picked.append(
            {
                "group_id": group_id,
                "variation_id": match["id"],
                "name": match["name"],
                "price": money(match["price"] / PAISE),
            }
        )
        extra += match["price"]
    return field, picked, extra


def _addons(dish: Dish, raw: dict[str, Any]) -> tuple[list[dict[str, Any]], int]:
    """Chosen add-ons, checked against each group's choices and maximum."""
    groups = {g["groupId"]: g for g in dish.addons}
    picked: list[dict[str, Any]] = []
    counts: dict[str, int] = {}
    paise = 0
    for entry in raw.get("addons") or []:
        group_id = _pick(entry, "group_id", "groupId")
        choice_id = _pick(entry, "choice_id", "choiceId", "id")
        group = groups.get(group_id)
        choices = group["choices"] if group else []
        choice = next((c for c in choices if c["id"] == choice_id), None)
        if group is None or choice is None:
            raise ShopError(f"Invalid addon '{group_id}/{choice_id}' for {dish.name}.")
        counts[group_id] = counts.get(group_id, 0) + 1
        if counts[group_id] > group["maxAddons"]:
            raise ShopError(f"Too many add-ons in '{group['groupName']}' for {dish.name}.")
        price = money(choice["price"] / PAISE)
        picked.append(
            {"group_id": group_id, "id": choice_id, "name": choice["name"], "price": price}
        )
        paise += choice["price"]
    return picked, paise


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
    """Why a coupon does not apply to a cash order, or None when it does."""
    if coupon.online_only:
        return (
            f"{coupon.code} needs online payment; orders here are cash on delivery, "
            "so it cannot be applied."
        )
    if item_total < coupon.min_order:
        return f"Add items worth ₹{money(coupon.min_order - item_total)} more to use {coupon.code}."
    return None


@dataclass(frozen=True, slots=True)
class Pricing:
    """A cart's money in rupees; `to_pay` is the sum of the rounded parts."""

    item_total: float
    delivery_charge: float
    gst: float
    platform_fee: float
    coupon_discount: float
    coupon: Coupon | None

    @property
    def taxes_and_charges(self) -> float:
        """GST and the platform fee, as Swiggy's cart groups them."""
        return money(self.gst + self.platform_fee)

    @property
    def to_pay(self) -> float:
        """What the person pays on delivery."""
        return money(
            self.item_total + self.delivery_charge + self.taxes_and_charges - self.coupon_discount
        )

    def cart_pricing(self) -> dict[str, float]:
        """FC `pricing`."""
        return {
            "item_total": self.item_total,
            "delivery_charge": self.delivery_charge,
            "taxes_and_charges": self.taxes_and_charges,
            "to_pay": self.to_pay,
        }

    def cart_offers(self) -> dict[str, Any]:
        """FC `offers`: a coupon shows only when it is applied (discount > 0)."""
        return {
            "coupon_applied": self.coupon.code if self.coupon else None,
            "coupon_discount": self.coupon_discount,
            "free_delivery_applied": bool(self.coupon and self.coupon.kind == "free_delivery"),
        }


def price_cart(item_total: float, km: float, coupon: Coupon | None) -> Pricing:
    """Item total, fees, taxes, the coupon's discount and the amount to pay (rupees)."""
    item_total = money(item_total)
    if item_total <= 0:
        return Pricing(0, 0, 0, 0, 0, None)
    delivery = delivery_fee(km)
    discount = 0.0
    if coupon and coupon.kind == "free_delivery":
        discount = delivery
    elif coupon:
        off = item_total * coupon.value / 100 if coupon.kind == "percent" else coupon.value
        discount = min(off, coupon.max_discount)
    return Pricing(
        item_total=item_total,
        delivery_charge=delivery,
        gst=money(item_total * GST_RATE),
        platform_fee=PLATFORM_FEE,
        coupon_discount=money(discount),
        coupon=coupon,
    )
