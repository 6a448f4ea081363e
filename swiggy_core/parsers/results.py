"""Every tool result becomes exactly one card model, tagged on `type`.

The card kinds live by job: `catalog_results` (products, restaurants), `choice_results`
(time slots, addresses), `checkout_results` (cart, order placed, booking confirmed) and
`plain_results` (status, info, media, raw).
"""

from __future__ import annotations

from typing import Annotated

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
