"""Product and menu-dish cards with an Add button."""

from __future__ import annotations

import streamlit as st

from swiggy_core.actions import CardAction
from swiggy_core.formatting import PRICE_UNKNOWN, discount_percent, price_known, rupees
from swiggy_core.parsers import ProductItem, ProductsResult
from swiggy_ui.cards.context import CardContext
from swiggy_ui.cards.diet_flags import diet_badges, diet_sorted
from swiggy_ui.cards.images import card_image
from swiggy_ui.cards.ranked import ranked_grid
from swiggy_ui.safe_text import plain
from swiggy_ui.state import queue_action

VEG_MARKS: dict[bool | None, str] = {True: ":green[●] ", False: ":red[▲] ", None: ""}
MAX_VARIANTS_LISTED = 4


def render_products(result: ProductsResult, ctx: CardContext) -> None:
    if result.kind == "menu" and result.restaurant_name:
        st.markdown(f"**Menu · {plain(result.restaurant_name)}**")
    result = diet_sorted(result, "dish" if result.kind == "menu" else "product")
    # Ranked when stored: what fits the request first, the rest one click away.
    ranked_grid(
        result.items,
        lambda item, key: _product_card(item, key, result, ctx),
        key=ctx.key,
        fitting=result.fitting,
        groups=result.groups,
        fit_less_why=result.fit_less_why,
    )
    if result.truncated and result.kind == "menu":
        st.caption(f"The first {len(result.items)} dishes: ask for a dish by name to see more.")


def price_line(price: float | None, mrp: float | None) -> str:
    """`**₹80** ~~₹100~~ · 20% off` (MRP only when it is really higher).

    A missing, negative, non-finite or absurd price reads "price unknown".
    """
    if not price_known(price):
        return f"_{PRICE_UNKNOWN}_"
    text = f"**{rupees(price)}**"
    off = discount_percent(price, mrp)
    if off:
        text += f" ~~{rupees(mrp)}~~ · :green[{off}% off]"
    return text


def _category(result: ProductsResult, ctx: CardContext) -> str:
    """Which icon stands in for a picture the browser may not load."""
    if result.kind == "menu":
        return "dish"
    return ctx.vertical.product_look


def _product_card(item: ProductItem, key: str, result: ProductsResult, ctx: CardContext) -> None:
    card_image(item.image_url, ctx.image_origin, _category(result, ctx))
    veg = VEG_MARKS[item.is_veg] if result.kind == "menu" else ""
    st.markdown(f"{veg}**{plain(item.name)}**")
    # Dishes found across restaurants say where each one is from.
    where = item.restaurant_name if result.kind == "menu" and not result.restaurant_name else None
    details = [plain(part) for part in (where, item.brand, item.quantity_description) if part]
    if item.bestseller:
        details.append(":orange[Bestseller]")
    if item.customisable:
        details.append(_customisations(item))
    if details:
        st.caption(" · ".join(details))
    if item.description:
        st.caption(plain(item.description[:140]))
    st.markdown(price_line(item.price, item.mrp))
    diet_badges(item)
    if not item.in_stock:
        st.badge("Out of stock", color="gray")
        return
    st.button(
        "Add",
        key=f"{key}-add",
        icon=":material/add_shopping_cart:",
        on_click=queue_action,
        args=(_add_action(item, result),),
    )


def _customisations(item: ProductItem) -> str:
    """ "Customisable: Half, Full · 2 add-ons" (the choices are picked in the chat)."""
    names = [plain(variant.name) for variant in item.variants[:MAX_VARIANTS_LISTED]]
    parts = [", ".join(names)] if names else []
    if item.addons:
        parts.append(f"{len(item.addons)} add-on{'s' if len(item.addons) != 1 else ''}")
    return "Customisable" + (f": {' · '.join(parts)}" if parts else "")


def _add_action(item: ProductItem, result: ProductsResult) -> CardAction:
    size = f" ({item.quantity_description})" if item.quantity_description else ""
    ids = {
        "name": item.name,
        "quantity": 1,
        "spinId": item.spin_id,
        "skuId": item.sku_id,
        "productId": item.product_id,
        "menu_item_id": item.menu_item_id,
        "restaurantId": item.restaurant_id or result.restaurant_id,
        "restaurantName": item.restaurant_name or result.restaurant_name,
    }
    return CardAction(
        kind="add_to_cart",
        label=f"Add 1 × {item.name}{size} to my cart",
        ids={name: value for name, value in ids.items() if value is not None},
    )
