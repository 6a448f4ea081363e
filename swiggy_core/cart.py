"""The current cart, derived from the conversation's tool calls (oldest first).

Rules: a cart snapshot from the server replaces the cart (Instamart `update_cart` and
`get_*` are authoritative), except partial add-style snapshots, which are merged so
earlier lines don't vanish; failed calls change nothing; clear/flush and a placed order
empty it; a food cart holds one restaurant; the bill is the server's, never recomputed.
How one call changes the cart is `swiggy_core.cart_state`; this reads the calls in order.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from swiggy_core.cart_state import CartCall, CartState, apply_call, remember_products
from swiggy_core.models import (
    ChatMessage,
    McpToolResultBlock,
    McpToolUseBlock,
    ToolResultBlock,
    ToolUseBlock,
    tool_pairs,
)
from swiggy_core.parsers import (
    CartLine,
    ProductsResult,
    RestaurantsResult,
    parse_tool_result,
)

__all__ = ["CartProgress", "CartState", "carts_before", "derive_cart", "derive_cart_after"]


@dataclass(frozen=True, slots=True)
class CartProgress:
    """The cart after a chat's first `count` messages, which leave no tool call waiting
    for its result, and the products seen in them (they name later lines)."""

    count: int
    state: CartState
    catalog: Mapping[str, CartLine]


def derive_cart(messages: Sequence[ChatMessage | dict[str, Any]], vertical_id: str) -> CartState:
    """The current cart from a conversation's tool uses and results."""
    return _derive(messages, vertical_id, None)


def derive_cart_after(
    messages: Sequence[ChatMessage], vertical_id: str, progress: CartProgress | None
) -> tuple[CartState, CartProgress]:
    """`derive_cart` of a chat whose first `progress.count` messages gave `progress` (None:
    from the start): only the messages after them are read. Also the progress to pass on
    when the chat has grown."""
    start, state, catalog = 0, CartState(), {}
    if progress is not None:
        start, state, catalog = progress.count, progress.state, dict(progress.catalog)
    settled = _settled_end(messages, start)
    state = _derive(messages[start:settled], vertical_id, None, state, catalog)
    progress = CartProgress(settled, state, dict(catalog))
    return _derive(messages[settled:], vertical_id, None, state, catalog), progress


def _settled_end(messages: Sequence[ChatMessage], start: int) -> int:
    """The end of the longest run of messages from `start` after which no call waits."""
    waiting: set[str] = set()
    end = start
    for index in range(start, len(messages)):
        for block in messages[index].blocks():
            if isinstance(block, McpToolUseBlock | ToolUseBlock):
                waiting.add(block.id)
            elif isinstance(block, McpToolResultBlock | ToolResultBlock):
                waiting.discard(block.tool_use_id)
        if not waiting:
            end = index + 1
    return end


def carts_before(
    messages: Sequence[ChatMessage | dict[str, Any]], vertical_id: str
) -> dict[str, CartState]:
    """The cart just before each answered tool call, by tool_use_id (one pass)."""
    before: dict[str, CartState] = {}
    _derive(messages, vertical_id, before)
    return before


def _derive(
    messages: Sequence[ChatMessage | dict[str, Any]],
    vertical_id: str,
    before: dict[str, CartState] | None,
    state: CartState | None = None,
    catalog: dict[str, CartLine] | None = None,
) -> CartState:
    """The cart after `messages`, from `state` (empty) with the products of `catalog`
    (none), which learns the products they list."""
    state = state or CartState()
    catalog = {} if catalog is None else catalog
    for call in _calls(messages):
        if before is not None:
            before[call.id] = state
        parsed = call.card or parse_tool_result(
            call.name, call.result.content, vertical_id, call.input, is_error=call.result.is_error
        )
        if isinstance(parsed, ProductsResult):
            remember_products(catalog, parsed)
            continue
        if isinstance(parsed, RestaurantsResult):
            # A Food restaurant search lists matching dishes too: their names label lines.
            remember_products(catalog, ProductsResult(kind="menu", items=parsed.dishes))
            continue
        state = apply_call(state, call, parsed, catalog)
    return state


def _calls(messages: Sequence[ChatMessage | dict[str, Any]]) -> Iterator[CartCall]:
    """Tool results paired with their uses by id (same message or the next one)."""
    chat = [message for raw in messages if (message := _message(raw)) is not None]
    for pair in tool_pairs(chat):
        if pair.result is not None:
            card = chat[pair.message_index].meta.cards.get(pair.use.id)
            yield CartCall(pair.use.id, pair.use.name, pair.use.input, pair.result, card)


def _message(raw: ChatMessage | dict[str, Any]) -> ChatMessage | None:
    if isinstance(raw, ChatMessage):
        return raw
    try:
        return ChatMessage.model_validate(raw)
    except ValidationError:
        return None
