"""The three Swiggy shops, each in one entry: a new spending tool is one line here."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from swiggy_core.shops.shop import (
    Preparation,
    ReadCall,
    Shop,
    SpendingTool,
    StatusRead,
)

# Every server lets the person keep addresses (not Dineout) and report an error; each can
# complete a paid (UPI) order with `confirm_order`, which only the app runs, once the UPI
# payment it polled has gone through (never the model).
_ADDRESS_CHANGES = frozenset({"create_address", "delete_address"})
_SUPPORT_CHANGES = frozenset({"report_error"})
_PAYMENT_HELD = ("confirm_order",)
# What a delivery shop (Instamart, Food) changes besides its cart.
_DELIVERY_CHANGES = _ADDRESS_CHANGES | _SUPPORT_CHANGES

SHOPS: Final[dict[str, Shop]] = {
    "instamart": Shop(
        key="instamart",
        spenders=(SpendingTool("checkout", Preparation.CART_ORDER, "order"),),
        changes=frozenset({"update_cart", "clear_cart", "apply_coupon"}) | _DELIVERY_CHANGES,
        held=_PAYMENT_HELD,
        noun="order",
        subject="The cart",
        cart=ReadCall("get_cart"),
        placed=ReadCall("get_orders"),
        payment_options=ReadCall("get_payment_options"),
    ),
    "food": Shop(
        key="food",
        spenders=(
            SpendingTool(
                "place_food_order",
                Preparation.CART_ORDER,
                "order",
                note_argument="noteToRestaurant",
            ),
        ),
        changes=frozenset({"update_food_cart", "flush_food_cart", "apply_food_coupon"})
        | _DELIVERY_CHANGES,
        held=_PAYMENT_HELD,
        noun="order",
        subject="The cart",
        # Food keeps one cart and one order list per delivery address.
        cart=ReadCall("get_food_cart", copies=("addressId",)),
        placed=ReadCall("get_food_orders", copies=("addressId",)),
        payment_options=ReadCall("get_payment_options", copies=("addressId",)),
    ),
    "dineout": Shop(
        key="dineout",
        spenders=(SpendingTool("book_table", Preparation.FREE_TABLE, "booking"),),
        changes=frozenset({"create_cart", "cancel_booking"}) | _SUPPORT_CHANGES,
        held=_PAYMENT_HELD,
        noun="booking",
        subject="The slot",
        slots=ReadCall("get_available_slots"),
        # Dineout lists no bookings: an unclear one is settled by its orderId's status.
        status=StatusRead("get_booking_status", id_argument="orderId"),
    ),
}


def shop_for(server_key: str) -> Shop:
    """The shop of a Swiggy server key (KeyError for any other server)."""
    return SHOPS[server_key]


def find_spender(name: str) -> tuple[Shop, SpendingTool] | None:
    """The shop and spending tool called `name`, on any shop; None when none spends so."""
    for shop in SHOPS.values():
        tool = shop.spender(name)
        if tool is not None:
            return shop, tool
    return None


def money_tools(shops: Iterable[Shop] | None = None) -> tuple[str, ...]:
    """Every spending tool, then every held one, once each, in catalog order."""
    chosen = list(SHOPS.values() if shops is None else shops)
    names = [name for shop in chosen for name in shop.spender_names]
    names += [name for shop in chosen for name in shop.held]
    return tuple(dict.fromkeys(names))


def write_tools(shops: Iterable[Shop] | None = None) -> frozenset[str]:
    """Every tool that changes state on any shop (the rate budget's write tools)."""
    chosen = SHOPS.values() if shops is None else shops
    return frozenset().union(*(shop.write_tools for shop in chosen))


# Every tool that changes state on Swiggy's side (Swiggy's reference marks them "M").
WRITE_TOOL_NAMES: Final = write_tools()
