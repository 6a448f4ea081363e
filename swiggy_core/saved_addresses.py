"""The person's saved delivery addresses, read by the app itself (no model turn).

Used by the shop header's "Deliver to" chooser (before the first search) and by the
confirmation when no address was chosen yet (the dialog then offers the choice).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from swiggy_core.parsers import AddressesResult, AddressItem, parse_tool_result

ADDRESSES_TOOL: Final = "get_addresses"
# Calls a read tool of a delivery server: (tool name, arguments) → result text.
Reader = Callable[[str, dict[str, Any]], str]


def saved_addresses(read: Reader) -> list[AddressItem]:
    """The saved addresses (first page), or [] when none can be read. Raises McpCallError."""
    parsed = parse_tool_result(ADDRESSES_TOOL, read(ADDRESSES_TOOL, {}), "food")
    if not isinstance(parsed, AddressesResult):
        return []
    return [item for item in parsed.items if item.address_id]


def default_address(addresses: list[AddressItem], hint: str | None = None) -> AddressItem | None:
    """The address to start from: the one `hint` names (an id), else the first saved."""
    for item in addresses:
        if hint and item.address_id == hint:
            return item
    return addresses[0] if addresses else None
