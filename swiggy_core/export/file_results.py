"""The stored tool results a chat file carries: written on export, rebuilt on import.

Export: each assistant message's MCP results as the store keeps them (tool, input, the
result's text, is_error), credential-like values redacted. The approval tool is a client
tool, so its use and answers are never among them.

Import: a result is data from outside. Only tools of the chat's own shop server are kept
(the rest are dropped and counted), and each kept result is re-parsed by the app's own
parsers: no card field of the file is trusted. Only browsing reads (a search, a menu)
come back as real cards, and only when they parse into products or restaurants: those
change nothing and belong to no one, and their buttons start a turn of yours like any
old card's. Everything else (carts, delivery times, orders, bookings, tracking, errors)
comes back as a "From the file" line, so a file can never fill the cart panel, track an
order or wait for a payment.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Final

from pydantic import BaseModel, ConfigDict, Field

from swiggy_core.constants import APPROVAL_TOOL_NAME
from swiggy_core.export.card_essentials import essentials_of, last_cart_only
from swiggy_core.export.import_cards import card_line, read_cards
from swiggy_core.models import (
    ChatMessage,
    ContentBlock,
    McpToolResultBlock,
    McpToolUseBlock,
    result_text,
    tool_pairs,
)
from swiggy_core.parsers import ParsedToolResult, parse_tool_result
from swiggy_core.store.redaction import redact
from swiggy_core.verticals import Vertical

# Every tool each Swiggy server lists (SWIGGY_REFERENCE.md §3), by server key.
_PAYMENT_TOOLS: Final = frozenset(
    {"get_payment_options", "check_payment_status", "confirm_order", "report_error"}
)
SHOP_TOOLS: Final[dict[str, frozenset[str]]] = {
    "instamart": _PAYMENT_TOOLS
    | {
        "get_addresses",
        "create_address",
        "delete_address",
        "search_products",
        "your_go_to_items",
        "get_cart",
        "update_cart",
        "clear_cart",
        "list_coupons",
        "apply_coupon",
        "checkout",
        "track_order",
        "get_delivery_status",
        "get_orders",
        "get_order_details",
    },
    "food": _PAYMENT_TOOLS
    | {
        "get_addresses",
        "create_address",
        "delete_address",
        "search_restaurants",
        "get_restaurant_menu",
        "search_menu",
        "update_food_cart",
        "get_food_cart",
        "flush_food_cart",
        "fetch_food_coupons",
        "apply_food_coupon",
        "place_food_order",
        "track_food_order",
        "get_food_delivery_status",
        "get_food_orders",
        "get_food_order_details",
    },
    "dineout": _PAYMENT_TOOLS
    | {
        "get_saved_locations",
        "search_restaurants_dineout",
        "get_restaurant_details",
        "get_available_slots",
        "create_cart",
        "book_table",
        "get_booking_status",
        "cancel_booking",
    },
}
# The reads whose results may come back as real cards: searches and menus.
CARD_TOOLS: Final = frozenset(
    {
        "search_products",
        "your_go_to_items",
        "search_restaurants",
        "get_restaurant_menu",
        "search_menu",
        "search_restaurants_dineout",
        "get_restaurant_details",
    }
)
CARD_KINDS: Final = frozenset({"products", "restaurants"})
TOOL_NAME_CHARS: Final = 64


class FileResult(BaseModel):
    """One stored tool result as a chat file carries it."""

    model_config = ConfigDict(extra="ignore", strict=True, frozen=True)

    tool: Annotated[str, Field(max_length=TOOL_NAME_CHARS)]
    input: dict[str, Any] = Field(default_factory=dict)
    result: str = ""
    is_error: bool = False


@dataclass(slots=True)
class RebuiltResults:
    """One message's results, rebuilt: real cards (as tool blocks and their parsed cards),
    lines of text for the rest, and how many were left out (other tools, unreadable)."""

    blocks: list[ContentBlock] = field(default_factory=list)
    cards: dict[str, ParsedToolResult] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    tools_left_out: int = 0
    cards_left_out: int = 0


def exported_results(message: ChatMessage) -> list[dict[str, Any]]:
    """The message's MCP results as stored, in order, with their tools' inputs."""
    uses = {pair.use.id: pair.use for pair in tool_pairs([message])}
    results: list[dict[str, Any]] = []
    stored = [block for block in message.blocks() if isinstance(block, McpToolResultBlock)]
    for block in stored:
        use = uses.get(block.tool_use_id)
        if use is None or use.name == APPROVAL_TOOL_NAME:
            continue
        results.append(
            {
                "tool": use.name,
                "input": redact(use.input),
                "result": redact(result_text(block)),
                "is_error": block.is_error,
            }
        )
    return results


def rebuilt_results(results: Sequence[FileResult], vertical: Vertical) -> RebuiltResults:
    """The results of one file message, re-parsed for `vertical` (see the module's rules)."""
    rebuilt = RebuiltResults()
    own_tools = SHOP_TOOLS[vertical.server_key]
    told: list[ParsedToolResult] = []
    for item in results:
        if item.tool not in own_tools or item.tool == APPROVAL_TOOL_NAME:
            rebuilt.tools_left_out += 1
            continue
        tool_input = redact(item.input)
        card = parse_tool_result(
            item.tool, item.result, vertical.id, tool_input, is_error=item.is_error
        )
        if _may_show(item, card, vertical):
            _add_card(rebuilt, item, tool_input, card, vertical)
        else:
            told.append(card)
    essentials = [essentials_of(card) for card in last_cart_only(told)]
    cards, dropped = read_cards([found for found in essentials if found])
    rebuilt.lines = [card_line(card) for card in cards]
    rebuilt.cards_left_out = dropped
    return rebuilt


def _may_show(item: FileResult, card: ParsedToolResult, vertical: Vertical) -> bool:
    return (
        item.tool in CARD_TOOLS
        and not item.is_error
        and card.type in CARD_KINDS
        and not vertical.tool_policy.is_money_spending(item.tool)
    )


def _add_card(
    rebuilt: RebuiltResults,
    item: FileResult,
    tool_input: dict[str, Any],
    card: ParsedToolResult,
    vertical: Vertical,
) -> None:
    use_id = f"mcptoolu_import_{uuid.uuid4().hex[:20]}"  # new: nothing of the file's ids
    use = McpToolUseBlock(
        id=use_id, name=item.tool, server_name=vertical.server.name, input=tool_input
    )
    rebuilt.blocks += [use, McpToolResultBlock(tool_use_id=use_id, content=item.result)]
    rebuilt.cards[use_id] = card
