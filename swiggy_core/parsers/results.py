"""Typed card models: every tool result becomes exactly one of these (tagged on `type`).

Prices are rupees as floats whatever the source unit; ids are kept as strings because the
UI's buttons send them back to the model verbatim.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore")


class _Result(_Model):
    tool_name: str = ""


class ProductVariation(_Model):
    """One buyable pack of an Instamart product (size, price, stock)."""

    spin_id: str | None = None
    sku_id: str | None = None
    quantity_description: str | None = None
    price: float | None = None
    mrp: float | None = None
    in_stock: bool = True
    max_quantity: int | None = None
    image_url: str | None = None


class DishVariant(_Model):
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


class DishAddon(_Model):
    """One optional add-on of a dish (every possible one; the cart says which are valid)."""

    group: str | None = None
    group_id: str | None = None
    name: str
    addon_id: str | None = None
    price: float | None = None


class ProductItem(_Model):
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


class ItemGroup(_Model):
    """A run of a grid's items that answers one thing asked for ("Eggs": the next 3)."""

    label: str
    size: int


class ProductsResult(_Result):
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


class RestaurantDeal(_Model):
    """A Dineout deal; a paid prebook cannot be booked here (free tables only)."""

    title: str
    paid: bool = False
    price: float | None = None


class RestaurantItem(_Model):
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


class RestaurantsResult(_Result):
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


class TimeSlot(_Model):
    """One time (Dineout); `item_id` and `slot_id` go back to `book_table`.

    `available` says there are seats; `free` says a free deal can book it. Only a slot
    that is both is bookable here: `item_id` is only ever a free deal's id, a slot with
    paid prebook deals alone keeps `item_id` None and its price in `paid_price`.
    """

    time: str
    slot_id: str | None = None
    item_id: str | None = None
    date: str | None = None
    available: bool = True
    free: bool = True
    seats_left: int | None = None
    paid_price: float | None = None
    deal_title: str | None = None
    meal: str | None = None
    reservation_time: int | None = None
    minutes: int | None = None
    requested: bool = False

    @property
    def bookable(self) -> bool:
        """Seats left and a free deal: the only slots this app books."""
        return self.available and self.free


class SlotDay(_Model):
    """The slots of one date, requested/nearest time first when one was asked for."""

    date: str
    slots: list[TimeSlot] = Field(default_factory=list)


class TimeSlotsResult(_Result):
    """Slots grouped by date; the requested date comes first."""

    type: Literal["time_slots"] = "time_slots"
    days: list[SlotDay] = Field(default_factory=list)
    restaurant_id: str | None = None
    requested_date: str | None = None
    requested_time: str | None = None
    requested_available: bool | None = None


class AddressItem(_Model):
    """A saved address or location."""

    address: str
    address_id: str | None = None
    label: str | None = None
    lat: float | None = None
    lng: float | None = None


class AddressesResult(_Result):
    """Saved addresses to choose from (one page of them when `has_more`)."""

    type: Literal["addresses"] = "addresses"
    items: list[AddressItem] = Field(default_factory=list)
    total: int | None = None
    has_more: bool = False


class CartLine(_Model):
    """One line of a cart; quantities are whole units, prices rupees (`unit_price` as charged)."""

    name: str
    quantity: int = 1
    spin_id: str | None = None
    sku_id: str | None = None
    product_id: str | None = None
    menu_item_id: str | None = None
    unit_price: float | None = None
    line_total: float | None = None
    mrp: float | None = None
    quantity_description: str | None = None
    image_url: str | None = None
    restaurant_id: str | None = None
    restaurant_name: str | None = None
    in_stock: bool = True

    @property
    def key(self) -> str:
        """A stable identity for merging lines (the most specific id, else the name)."""
        return self.spin_id or self.menu_item_id or self.sku_id or self.product_id or self.name


BillKind = Literal["item_total", "fee", "tax", "discount", "total", "other"]


class BillLine(_Model):
    """One line of the server's bill, exactly as reported."""

    label: str
    amount: float
    kind: BillKind = "other"


class CartResult(_Result):
    """A cart snapshot with the server's bill."""

    type: Literal["cart"] = "cart"
    items: list[CartLine] = Field(default_factory=list)
    bill: list[BillLine] = Field(default_factory=list)
    to_pay: float | None = None
    restaurant_id: str | None = None
    restaurant_name: str | None = None
    message: str | None = None
    notices: list[str] = Field(default_factory=list)
    payment_methods: list[str] = Field(default_factory=list)


class OrderPlacedResult(_Result):
    """An order the server accepted (it has an order id).

    A multi-store checkout lists every placed id in `order_ids` and what failed in
    `failures`: a partial success is still an order that must never be placed again.
    """

    type: Literal["order_placed"] = "order_placed"
    order_id: str
    status: str | None = None
    message: str | None = None
    amount: float | None = None
    payment_method: str | None = None
    eta: str | None = None
    order_ids: list[str] = Field(default_factory=list)
    failures: list[str] = Field(default_factory=list)


class BookingConfirmedResult(_Result):
    """A table booking the server confirmed (it has a booking id)."""

    type: Literal["booking_confirmed"] = "booking_confirmed"
    booking_id: str
    status: str | None = None
    message: str | None = None
    restaurant_name: str | None = None
    date_time: str | None = None
    guest_count: int | None = None


class StatusResult(_Result):
    """A plain outcome: success or failure with the server's text."""

    type: Literal["status"] = "status"
    success: bool
    message: str
    code: str | None = None


class InfoResult(_Result):
    """Key facts as short strings (orders, tracking, coupons, payments, or an unknown payload)."""

    type: Literal["info"] = "info"
    title: str | None = None
    fields: dict[str, str] = Field(default_factory=dict)


class MediaItem(_Model):
    """One image or file of a tool result, as its card shows it.

    `data_ref` is the index of the result's content part that holds the bytes (they are
    stored once, with the result); None when nothing was kept (a link, or over the cap).
    """

    kind: Literal["image", "file"]
    mime_type: str | None = None
    name: str = ""
    size: int | None = None
    data_ref: int | None = None
    uri: str | None = None


class MediaResult(_Result):
    """Images and files a tool returned, with the result's text when it had some."""

    type: Literal["media"] = "media"
    items: list[MediaItem] = Field(default_factory=list)
    text: str = ""


class RawResult(_Result):
    """Text no parser understood (truncated)."""

    type: Literal["raw"] = "raw"
    text: str = ""
    truncated: bool = False


ParsedToolResult = Annotated[
    ProductsResult
    | RestaurantsResult
    | TimeSlotsResult
    | AddressesResult
    | CartResult
    | OrderPlacedResult
    | BookingConfirmedResult
    | StatusResult
    | InfoResult
    | MediaResult
    | RawResult,
    Field(discriminator="type"),
]
RESULT_TYPES = (
    "products",
    "restaurants",
    "time_slots",
    "addresses",
    "cart",
    "order_placed",
    "booking_confirmed",
    "status",
    "info",
    "media",
    "raw",
)
parsed_result_adapter: TypeAdapter[ParsedToolResult] = TypeAdapter(ParsedToolResult)
