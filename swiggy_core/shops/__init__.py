"""Shops: one record per Swiggy server, with what it knows about spending."""

from swiggy_core.shops.catalog import (
    SHOPS,
    WRITE_TOOL_NAMES,
    find_spender,
    money_tools,
    shop_for,
    write_tools,
)
from swiggy_core.shops.shop import (
    Preparation,
    ReadCall,
    Shop,
    SpendingTool,
    SpendResult,
    StatusRead,
)

__all__ = [
    "SHOPS",
    "WRITE_TOOL_NAMES",
    "Preparation",
    "ReadCall",
    "Shop",
    "SpendResult",
    "SpendingTool",
    "StatusRead",
    "find_spender",
    "money_tools",
    "shop_for",
    "write_tools",
]
