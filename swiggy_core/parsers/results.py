"""Every tool result becomes exactly one card model, tagged on `type`.

The card kinds live by job: `catalog_results` (products, restaurants), `choice_results`
(time slots, addresses), `checkout_results` (cart, order placed, booking confirmed) and
`plain_results` (status, info, media, raw).
"""

from __future__ import annotations

from typing import Annotated, Final, Literal, get_args

from pydantic import Field, TypeAdapter

from swiggy_core.parsers.catalog_results import ProductsResult, RestaurantsResult
from swiggy_core.parsers.checkout_results import (
    BookingConfirmedResult,
    CartResult,
    OrderPlacedResult,
)
from swiggy_core.parsers.choice_results import AddressesResult, TimeSlotsResult
from swiggy_core.parsers.plain_results import InfoResult, MediaResult, RawResult, StatusResult

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
# Every card kind, named once: each model above is tagged with one of these (mypy checks
# the UI's lookup by tag), and the UI's renderer table is built from this list.
CardKind = Literal[
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
]
CARD_KINDS: Final[tuple[CardKind, ...]] = get_args(CardKind)
parsed_result_adapter: TypeAdapter[ParsedToolResult] = TypeAdapter(ParsedToolResult)
