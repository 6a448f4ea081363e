"""Tool results → typed card models (`parse_tool_result`), routed on meaning, never raising."""

from swiggy_core.parsers.catalog_results import (
    DishAddon,
    DishVariant,
    ItemGroup,
    ProductItem,
    ProductsResult,
    ProductVariation,
    RestaurantDeal,
    RestaurantItem,
    RestaurantsResult,
)
from swiggy_core.parsers.checkout_results import (
    BillLine,
    BookingConfirmedResult,
    CartLine,
    CartResult,
    OrderPlacedResult,
)
from swiggy_core.parsers.choice_results import (
    AddressesResult,
    AddressItem,
    SlotDay,
    TimeSlot,
    TimeSlotsResult,
)
from swiggy_core.parsers.images import safe_image_url
from swiggy_core.parsers.orchestrator import parse_tool_result
from swiggy_core.parsers.plain_results import (
    InfoResult,
    MediaItem,
    MediaResult,
    RawResult,
    StatusResult,
)
from swiggy_core.parsers.results import (
    CARD_KINDS,
    CardKind,
    ParsedToolResult,
    parsed_result_adapter,
)

__all__ = [
    "CARD_KINDS",
    "AddressItem",
    "AddressesResult",
    "BillLine",
    "BookingConfirmedResult",
    "CardKind",
    "CartLine",
    "CartResult",
    "DishAddon",
    "DishVariant",
    "InfoResult",
    "ItemGroup",
    "MediaItem",
    "MediaResult",
    "OrderPlacedResult",
    "ParsedToolResult",
    "ProductItem",
    "ProductVariation",
    "ProductsResult",
    "RawResult",
    "RestaurantDeal",
    "RestaurantItem",
    "RestaurantsResult",
    "SlotDay",
    "StatusResult",
    "TimeSlot",
    "TimeSlotsResult",
    "parse_tool_result",
    "parsed_result_adapter",
    "safe_image_url",
]
