"""Cards of things to buy: grocery products, menu dishes and restaurants.

Prices are rupees as floats whatever the source unit; ids are kept as strings because the
UI's buttons send them back to the model verbatim.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from swiggy_core.parsers.card_base import CardModel, ToolResultCard


class ProductVariation(CardModel):
    """One buyable pack of an Instamart product (size, price, stock)."""

    spin_id: str | None = None
    sku_id: str | None = None
    quantity_description: str | None = None
    price: float | None = None
    mrp: float | None = None
    in_stock: bool = True
    max_quantity: int | None = None
    image_url: str | None = None


class DishVariant(CardModel):
    """One choice of a menu dish's variant group (e.g. size: Large, +₹110 over the base).

    `group_id` and `variant_id` go back to the food cart exactly as given, in the same
    format (`variations` or `variantsV2`) the dish came in.
    """

    group: str | None = None
    group_id: str | None = None
    name: str
    variant_id: str | None = None
    extra_price: float | None = None
    in_stock: bool = True


class DishAddon(CardModel):
    """One optional add-on of a dish (every possible one; the cart says which are valid)."""

    group: str | None = None
    group_id: str | None = None
    name: str
    addon_id: str | None = None
    price: float | None = None


class ProductItem(CardModel):
    """A grocery product (Instamart) or a menu dish (Food), flattened for one card."""

    name: str
    product_id: str | None = None
    spin_id: str | None = None
    sku_id: str | None = None
    menu_item_id: str | None = None
    brand: str | None = None
    quantity_description: str | None = None
    price: float | None = None
    mrp: float | None = None
    in_stock: bool = True
    max_quantity: int | None = None
    image_url: str | None = None
    description: str | None = None
    is_veg: bool | None = None
    category: str | None = None
    restaurant_id: str | None = None
    restaurant_name: str | None = None
    variations: list[ProductVariation] = Field(default_factory=list)
    variants: list[DishVariant] = Field(default_factory=list)
    addons: list[DishAddon] = Field(default_factory=list)
    customisable: bool = False
    bestseller: bool = False


class ItemGroup(CardModel):
    """A run of a grid's items that answers one thing asked for ("Eggs": the next 3)."""

    label: str
    size: int


class ProductsResult(ToolResultCard):
    """A grid of products or menu dishes.

    Ranked against the request when stored: `items` lead with the `fitting` ones (best
    first, in `groups` when several things were asked for); the rest fit it less, for
    the reasons in `fit_less_why`. `fitting` is None when nothing was set aside.
    """

    type: Literal["products"] = "products"
    kind: Literal["grocery", "menu"] = "grocery"
    items: list[ProductItem] = Field(default_factory=list)
    restaurant_id: str | None = None
    restaurant_name: str | None = None
    next_offset: int | None = None
    truncated: bool = False
    fitting: int | None = None
    groups: list[ItemGroup] = Field(default_factory=list)
    fit_less_why: list[str] = Field(default_factory=list)


class RestaurantDeal(CardModel):
    """A Dineout deal; a paid prebook cannot be booked here (free tables only)."""

    title: str
    paid: bool = False
    price: float | None = None


class RestaurantItem(CardModel):
    """A restaurant (delivery or dine-in) for one card."""

    name: str
    restaurant_id: str | None = None
    cuisines: list[str] = Field(default_factory=list)
    rating: float | None = None
    cost_for_two: float | None = None
    delivery_time_minutes: int | None = None
    locality: str | None = None
    is_open: bool | None = None
    image_url: str | None = None
    offer: str | None = None
    distance_km: float | None = None
    availability: str | None = None
    next_open: str | None = None
    deals: list[RestaurantDeal] = Field(default_factory=list)


class RestaurantsResult(ToolResultCard):
    """A grid of restaurants (and the dishes a Food search matched alongside them).

    Ranked like `ProductsResult`: the `fitting` first, then those that fit less.
    """

    type: Literal["restaurants"] = "restaurants"
    items: list[RestaurantItem] = Field(default_factory=list)
    dishes: list[ProductItem] = Field(default_factory=list)
    next_offset: int | None = None
    truncated: bool = False
    fitting: int | None = None
    fit_less_why: list[str] = Field(default_factory=list)
