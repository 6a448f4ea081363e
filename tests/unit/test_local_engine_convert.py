"""Stored (connector-format) history ⇄ the client-tool messages the local engine sends."""

from __future__ import annotations

import itertools
import json
from typing import Any

from swiggy_core.engine import choose_engine, to_client_tool_messages, to_stored_blocks
from swiggy_core.mcp import shrink_for_model
from swiggy_core.mcp.manager import MODEL_RESULT_LIMIT
from swiggy_core.models import (
    ChatMessage,
    McpToolListingBlock,
    McpToolResultBlock,
    McpToolUseBlock,
    TextBlock,
    TextContent,
    ToolUseBlock,
)

SERVER = "swiggy-instamart"


def use(tool_id: str, name: str = "search_products", **tool_input: Any) -> dict[str, Any]:
    return {
        "type": "mcp_tool_use",
        "id": tool_id,
        "name": name,
        "server_name": SERVER,
        "input": tool_input,
    }


def result(tool_id: str, text: str = "{}", *, is_error: bool = False) -> dict[str, Any]:
    return {
        "type": "mcp_tool_result",
        "tool_use_id": tool_id,
        "is_error": is_error,
        "content": [{"type": "text", "text": text}],
    }


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def assert_valid_shape(messages: list[dict[str, Any]]) -> None:
    """Roles alternate, and each tool_result answers a tool_use of the message just before."""
    assert messages[0]["role"] == "user"
    for previous, current in itertools.pairwise(messages):
        assert previous["role"] != current["role"]
    for index, message in enumerate(messages):
        content = message["content"]
        if isinstance(content, str):
            continue
        types = [block["type"] for block in content]
        assert not {"mcp_tool_use", "mcp_tool_result", "mcp_tool_listing"} & set(types)
        results = [b["tool_use_id"] for b in content if b["type"] == "tool_result"]
        if results:
            asked = [b["id"] for b in messages[index - 1]["content"] if b["type"] == "tool_use"]
            assert sorted(results) == sorted(asked)
            assert types[: len(results)] == ["tool_result"] * len(results)


def test_a_connector_turn_splits_into_tool_rounds() -> None:
    stored = [
        {"role": "user", "content": "find milk then bread"},
        {
            "role": "assistant",
            "content": [
                {"type": "mcp_tool_listing", "mcp_server_name": SERVER, "tools": []},
                text("Looking for milk."),
                use("a", query="milk"),
                result("a", '{"products": []}'),
                text("Now bread."),
                use("b", query="bread"),
                result("b", "boom", is_error=True),
                text("Done."),
            ],
        },
        {"role": "user", "content": "thanks"},
    ]
    sent = to_client_tool_messages(stored)

    roles = [m["role"] for m in sent]
    assert roles == ["user", "assistant", "user", "assistant", "user", "assistant", "user"]
    assert sent[1]["content"] == [
        text("Looking for milk."),
        {"type": "tool_use", "id": "a", "name": "search_products", "input": {"query": "milk"}},
    ]
    assert sent[2]["content"] == [
        {
            "type": "tool_result",
            "tool_use_id": "a",
            "is_error": False,
            "content": [{"type": "text", "text": '{"products": []}'}],
        }
    ]
    assert sent[3]["content"][0] == text("Now bread.")
    assert sent[3]["content"][1]["type"] == "tool_use"
    assert sent[4]["content"][0]["tool_use_id"] == "b"
    assert sent[4]["content"][0]["is_error"] is True
    assert sent[5]["content"] == [text("Done.")]
    assert sent[6] == {"role": "user", "content": "thanks"}
    assert_valid_shape(sent)


def test_a_turn_ending_on_a_result_merges_into_the_next_user_message() -> None:
    stored = [
        {"role": "user", "content": "milk"},
        {"role": "assistant", "content": [text("Looking."), use("a"), result("a")]},
        {"role": "user", "content": [text("add one")]},
    ]
    sent = to_client_tool_messages(stored)

    assert [m["role"] for m in sent] == ["user", "assistant", "user"]
    assert [b["type"] for b in sent[2]["content"]] == ["tool_result", "text"]
    assert sent[2]["content"][1] == text("add one")
    assert_valid_shape(sent)


def test_parallel_calls_stay_in_one_round() -> None:
    stored = [
        {"role": "user", "content": "compare"},
        {
            "role": "assistant",
            "content": [use("a"), result("a"), use("b"), result("b"), text("Compared.")],
        },
        {"role": "user", "content": "ok"},
    ]
    sent = to_client_tool_messages(stored)

    assert [b["id"] for b in sent[1]["content"]] == ["a", "b"]
    assert [b["tool_use_id"] for b in sent[2]["content"]] == ["a", "b"]
    assert_valid_shape(sent)


def test_plain_messages_and_listing_only_turns_pass_or_vanish() -> None:
    listing = {"type": "mcp_tool_listing", "mcp_server_name": SERVER, "tools": []}
    stored = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "Hello!"},
        {"role": "user", "content": "list"},
        {"role": "assistant", "content": [listing]},
        {"role": "user", "content": "again"},
    ]
    sent = to_client_tool_messages(stored)

    assert sent[:2] == stored[:2]
    assert sent[2] == {"role": "user", "content": [text("list"), text("again")]}
    assert_valid_shape(sent)


def test_conversion_leaves_the_input_untouched() -> None:
    stored = [
        {"role": "user", "content": "milk"},
        {"role": "assistant", "content": [use("a"), result("a")]},
        {"role": "user", "content": "more"},
    ]
    before = json.dumps(stored)
    to_client_tool_messages(stored)
    assert json.dumps(stored) == before


def test_huge_results_are_shrunk_for_the_model_as_valid_json() -> None:
    products = [{"name": f"Product {i}", "blurb": "x" * 200} for i in range(400)]
    products[350]["name"] = "Amul Gold Milk"
    huge = json.dumps({"products": products})
    assert len(huge) > MODEL_RESULT_LIMIT
    stored = [
        {"role": "user", "content": "gold milk"},
        {"role": "assistant", "content": [use("a", query="gold milk"), result("a", huge)]},
    ]
    sent_text = to_client_tool_messages(stored)[2]["content"][0]["content"][0]["text"]

    assert len(sent_text) <= MODEL_RESULT_LIMIT + 200
    assert "Amul Gold Milk" in sent_text  # query-aware: the match survives
    json.loads(sent_text)
    assert shrink_for_model("small", {"query": "x"}) == "small"


def test_a_response_round_is_stored_in_the_connector_format() -> None:
    blocks = [
        TextBlock(text="Searching."),
        ToolUseBlock(id="t1", name="search_products", input={"query": "milk"}),
        ToolUseBlock(id="t2", name="checkout", input={}),
        ToolUseBlock(id="t3", name="get_cart", input={}),
    ]
    stored = to_stored_blocks(blocks, {"t1": ("found", False), "t2": ("held", True)}, SERVER)

    assert stored == [
        TextBlock(text="Searching."),
        McpToolUseBlock(
            id="t1", name="search_products", server_name=SERVER, input={"query": "milk"}
        ),
        McpToolResultBlock(tool_use_id="t1", is_error=False, content=[TextContent(text="found")]),
        McpToolUseBlock(id="t2", name="checkout", server_name=SERVER, input={}),
        McpToolResultBlock(tool_use_id="t2", is_error=True, content=[TextContent(text="held")]),
    ]  # t3 had no answer: a use without its result can't be sent back, so it is dropped


def test_stored_rounds_convert_back_to_what_was_sent() -> None:
    round_one = [TextBlock(text="Looking."), ToolUseBlock(id="t1", name="get_cart", input={})]
    round_two = [TextBlock(text="Empty cart.")]
    stored = [
        *to_stored_blocks(round_one, {"t1": ('{"items": []}', False)}, SERVER),
        *to_stored_blocks(round_two, {}, SERVER),
    ]
    history = [
        ChatMessage(role="user", content="cart?"),
        ChatMessage(role="assistant", content=stored),
        ChatMessage(role="user", content="ok"),
    ]
    sent = to_client_tool_messages([m.to_param() for m in history])

    assert sent[1]["content"] == [b.to_param() for b in round_one]
    assert sent[2]["content"][0]["tool_use_id"] == "t1"
    assert sent[3]["content"] == [b.to_param() for b in round_two]
    assert_valid_shape(sent)


def test_listing_blocks_are_never_sent() -> None:
    stored = ChatMessage(
        role="assistant",
        content=[McpToolListingBlock(mcp_server_name=SERVER, tools=[{"name": "x"}])],
    )
    sent = to_client_tool_messages([{"role": "user", "content": "hi"}, stored.to_param()])
    assert sent == [{"role": "user", "content": "hi"}]


def test_choose_engine() -> None:
    sandbox = {"instamart": "http://127.0.0.1:8765/im", "food": "http://127.0.0.1:8765/food"}
    swiggy = {"instamart": "https://mcp.swiggy.com/im"}
    emulator = "http://127.0.0.1:9000"

    assert choose_engine("connector", base_url=None, server_urls=sandbox).name == "connector"
    assert choose_engine("local", base_url=None, server_urls=swiggy).name == "local"
    assert choose_engine("auto", base_url=None, server_urls=sandbox).name == "local"
    assert (
        choose_engine("auto", base_url="https://api.anthropic.com", server_urls=sandbox).name
        == "local"
    )
    assert choose_engine("auto", base_url=emulator, server_urls=sandbox).name == "connector"
    localhost = {"food": "http://localhost:8000/food"}
    assert choose_engine("auto", base_url=None, server_urls=localhost).name == "local"


def test_auto_prefers_the_local_engine_when_results_are_summary_only() -> None:
    sandbox = {"instamart": "http://127.0.0.1:8765/im"}
    swiggy = {"instamart": "https://mcp.swiggy.com/im"}
    emulator = "http://127.0.0.1:9000"
    # Real Swiggy is assumed to answer with a summary (+ structuredContent) unless told.
    assert choose_engine("auto", base_url=None, server_urls=swiggy).name == "local"
    assert choose_engine("auto", base_url=None, server_urls=None).name == "local"
    assert (
        choose_engine("auto", base_url=None, server_urls=None, result_form="summary").name
        == "local"
    )
    told = choose_engine("auto", base_url=None, server_urls=swiggy, result_form="envelope").name
    assert told == "connector"
    # The sandbox says how it answers: its envelope keeps the connector, a summary does not.
    assert choose_engine("auto", base_url=emulator, server_urls=sandbox).name == "connector"
    assert (
        choose_engine("auto", base_url=emulator, server_urls=sandbox, result_form="envelope").name
        == "connector"
    )
    assert (
        choose_engine("auto", base_url=emulator, server_urls=sandbox, result_form="summary").name
        == "local"
    )
    # An explicit engine always wins.
    assert choose_engine("connector", base_url=None, server_urls=swiggy).name == "connector"
    assert (
        choose_engine(
            "connector", base_url=emulator, server_urls=sandbox, result_form="summary"
        ).name
        == "connector"
    )
