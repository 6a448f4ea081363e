"""A realistic grocery chat for the bench scripts, recorded from the real sandbox server.

Each turn is what a grocery chat holds: the person's words, then a reply with text, a
product search and a cart update (cards parsed once, as the app stores them).
"""

from __future__ import annotations

import json
from typing import Any

from swiggy_core.mcp import call_tool
from swiggy_core.mcp.manager import shared_manager
from swiggy_core.models import ChatMessage, MessageMeta, block_from_dict
from swiggy_core.parsers import parse_tool_result
from swiggy_sandbox.servers import DEMO_TOKEN, SandboxHttpServer

QUERIES = ("milk", "eggs", "bread", "protein bar", "curd", "oats", "paneer", "banana")

Call = tuple[str, dict[str, Any], str, bool]  # tool, input, result text, is_error


def record_grocery_calls(sandbox: SandboxHttpServer) -> list[list[Call]]:
    """One list of real tool calls per query: a search, then adding its first product."""
    return record_grocery_calls_at(sandbox.url_for("instamart"))


def record_grocery_calls_at(url: str) -> list[list[Call]]:
    """The same, from the sandbox Instamart server at `url` (one in another process)."""

    def call(name: str, arguments: dict[str, Any]) -> tuple[Call, dict[str, Any]]:
        result = call_tool(url, DEMO_TOKEN, name, arguments)
        return (name, arguments, result.text, result.is_error), json.loads(result.text)

    _, addresses = call("get_addresses", {})
    address_id = addresses["data"]["addresses"][0]["id"]
    turns: list[list[Call]] = []
    for quantity, query in enumerate(QUERIES, start=1):
        search, found = call("search_products", {"addressId": address_id, "query": query})
        first = found["data"]["products"][0]["variations"][0]
        item = {"spinId": first["spinId"], "skuId": first["skuId"], "quantity": quantity}
        update, _ = call("update_cart", {"selectedAddressId": address_id, "items": [item]})
        turns.append([search, update])
    shared_manager().close()  # no session left open: the server may stop at once
    return turns


# The newest turns are those a chat of this many turns ends with, at every size: a page
# that draws only the newest turns draws the same cards whatever the chat's length.
ALIGNED_TO_TURNS = 50


def grocery_chat(turns: int, recorded: list[list[Call]]) -> list[ChatMessage]:
    """`turns` question-and-reply pairs cycling through the recorded calls."""
    messages: list[ChatMessage] = []
    for index in range(turns):
        calls = recorded[(index + ALIGNED_TO_TURNS - turns) % len(recorded)]
        messages += grocery_turn(index, calls)
    return messages


def grocery_turn(index: int, calls: list[Call]) -> list[ChatMessage]:
    """The person's question and a reply that ran `calls` (as the connector stores it)."""
    blocks: list[Any] = [block_from_dict({"type": "text", "text": "Here is what I found."})]
    cards = {}
    for number, (name, arguments, text, is_error) in enumerate(calls):
        tool_id = f"mcptoolu_{index}_{number}"
        use = {
            "type": "mcp_tool_use",
            "id": tool_id,
            "name": name,
            "server_name": "swiggy-instamart",
            "input": arguments,
        }
        result = {
            "type": "mcp_tool_result",
            "tool_use_id": tool_id,
            "is_error": is_error,
            "content": [{"type": "text", "text": text}],
        }
        blocks += [block_from_dict(use), block_from_dict(result)]
        cards[tool_id] = parse_tool_result(name, text, "food", arguments, is_error=is_error)
    blocks.append(block_from_dict({"type": "text", "text": "Added it to your cart."}))
    return [
        ChatMessage(role="user", content=f"question {index}: add some {calls[0][1]['query']}"),
        ChatMessage(role="assistant", content=blocks, meta=MessageMeta(cards=cards)),
    ]
