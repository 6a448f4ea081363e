"""Unwrapping content forms, JSON inside text, envelopes and wrapper keys."""

from __future__ import annotations

import json

import pytest

from swiggy_core.models import McpToolResultBlock, TextContent
from swiggy_core.parsers import (
    CartResult,
    InfoResult,
    ProductsResult,
    RawResult,
    StatusResult,
    parse_tool_result,
)
from swiggy_core.parsers.unwrap import NOT_JSON, decode_json, extract_payload, read_envelope

PRODUCT = {"displayName": "Amul Butter", "productId": "P9", "price": {"mrp": 60, "offerPrice": 56}}
PAYLOAD = {"success": True, "data": {"products": [PRODUCT]}}


@pytest.mark.parametrize(
    "content",
    [
        json.dumps(PAYLOAD),
        [{"type": "text", "text": json.dumps(PAYLOAD)}],
        [TextContent(text=json.dumps(PAYLOAD))],
        # one JSON document split across two text blocks
        [
            {"type": "text", "text": json.dumps(PAYLOAD)[:20]},
            {"type": "text", "text": json.dumps(PAYLOAD)[20:]},
        ],
        PAYLOAD,
        McpToolResultBlock(tool_use_id="t1", content=json.dumps(PAYLOAD)),
        {"type": "mcp_tool_result", "tool_use_id": "t1", "content": json.dumps(PAYLOAD)},
        {"content": [{"type": "text", "text": json.dumps(PAYLOAD)}], "isError": False},
        json.dumps(json.dumps(PAYLOAD)),  # double-encoded
        "Here is what I found:\n" + json.dumps(PAYLOAD) + "\nAnything else?",
    ],
    ids=[
        "string",
        "text-blocks",
        "pydantic-blocks",
        "split-blocks",
        "dict",
        "result-block",
        "result-block-dict",
        "call-tool-result",
        "double-encoded",
        "json-in-prose",
    ],
)
def test_every_content_form_reaches_the_products(content: object) -> None:
    result = parse_tool_result("search_products", content, "food")
    assert isinstance(result, ProductsResult)
    assert result.items[0].name == "Amul Butter" and result.items[0].price == 56.0


def test_separate_json_blocks_are_read_together() -> None:
    blocks = [
        {"type": "text", "text": json.dumps(PRODUCT)},
        {"type": "text", "text": json.dumps(PRODUCT)},
    ]
    result = parse_tool_result("search_products", blocks, "food")
    assert isinstance(result, ProductsResult) and len(result.items) == 2


def test_data_holding_a_json_string_is_decoded() -> None:
    content = json.dumps({"success": True, "data": json.dumps({"products": [PRODUCT]})})
    result = parse_tool_result("search_products", content, "style")
    assert isinstance(result, ProductsResult)


def test_is_error_block_flag_wins_over_content() -> None:
    block = {"type": "mcp_tool_result", "tool_use_id": "t", "is_error": True, "content": "Boom"}
    result = parse_tool_result("search_products", block, "food")
    assert result == StatusResult(tool_name="search_products", success=False, message="Boom")


def test_envelope_failure_with_error_message() -> None:
    content = json.dumps({"success": False, "error": {"message": "Address with id x not found"}})
    result = parse_tool_result("search_products", content, "food")
    assert isinstance(result, StatusResult)
    assert (result.success, result.message) == (False, "Address with id x not found")


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"success": "false", "message": "Try again"}, "Try again"),
        ({"ok": False, "error": "Rate limited"}, "Rate limited"),
        ({"error": {"code": "E42"}}, "E42"),
        ({"errors": [{"message": "Invalid addressId"}]}, "Invalid addressId"),
        ({"status": "error", "message": "Server busy"}, "Server busy"),
        ({"isError": True, "message": "Nope"}, "Nope"),
        ({"success": False}, "The request failed."),
    ],
)
def test_envelope_failure_variants(payload: dict[str, object], message: str) -> None:
    result = parse_tool_result("update_cart", json.dumps(payload), "food")
    assert isinstance(result, StatusResult)
    assert (result.success, result.message) == (False, message)


def test_envelope_success_without_data_is_a_status() -> None:
    result = parse_tool_result(
        "clear_cart", json.dumps({"success": True, "message": "Cart cleared"}), "food"
    )
    assert result == StatusResult(tool_name="clear_cart", success=True, message="Cart cleared")


def test_envelope_with_scalar_data_is_a_status() -> None:
    result = parse_tool_result(
        "delete_address", json.dumps({"success": True, "data": "Deleted"}), "food"
    )
    assert isinstance(result, StatusResult) and result.message == "Deleted"


def test_unknown_payload_becomes_info_fields() -> None:
    payload = {
        "success": True,
        "message": "Tracking",
        "data": {"orderId": 7, "status": "OUT_FOR_DELIVERY", "rider": {"name": "Ravi"}},
    }
    result = parse_tool_result("track_order", json.dumps(payload), "food")
    assert isinstance(result, InfoResult)
    assert result.fields == {
        "message": "Tracking",
        "orderId": "7",
        "status": "OUT_FOR_DELIVERY",
        "rider": "name: Ravi",
    }


def test_plain_text_is_raw() -> None:
    result = parse_tool_result("search_products", "No products matched your query.", "food")
    assert result == RawResult(tool_name="search_products", text="No products matched your query.")


def test_truncated_json_is_raw_not_an_exception() -> None:
    text = json.dumps(PAYLOAD)[:-7]
    result = parse_tool_result("search_products", text, "food")
    assert isinstance(result, RawResult) and result.text == text


def test_html_error_page_is_a_failure_with_its_title() -> None:
    html = (
        "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"
    )
    result = parse_tool_result("get_cart", html, "food")
    assert isinstance(result, StatusResult) and result.success is False
    assert "502 Bad Gateway" in result.message


def test_long_raw_text_is_truncated() -> None:
    result = parse_tool_result("x", "a" * 10_000, "food")
    assert isinstance(result, RawResult) and result.truncated and len(result.text) == 4_000


def test_decode_json_variants() -> None:
    assert decode_json('{"a": 1}') == {"a": 1}
    assert decode_json("  [1, 2]  ") == [1, 2]
    assert decode_json('result: {"a": 1} trailing') == {"a": 1}
    assert decode_json("not json") is NOT_JSON
    assert decode_json("[" * 100_000) is NOT_JSON  # too deep for the decoder: no crash


def test_read_envelope_keeps_non_envelope_payloads_whole() -> None:
    envelope = read_envelope({"products": [PRODUCT]})
    assert envelope.ok is None and envelope.data == {"products": [PRODUCT]}
    envelope = read_envelope({"success": True, "products": [PRODUCT], "message": "ok"})
    assert (
        envelope.ok is True
        and envelope.data == {"products": [PRODUCT]}
        and envelope.message == "ok"
    )


def test_extract_payload_descends_wrapper_keys() -> None:
    value = {"data": {"results": {"items": [1, 2]}}}
    assert extract_payload(value) == [1, 2]
    assert extract_payload({"data": {}}) == {"data": {}}
    deep: dict[str, object] = {}
    node = deep
    for _ in range(1_000):
        node["data"] = {}
        node = node["data"]  # type: ignore[assignment]
    extract_payload(deep)  # depth-limited, returns without recursion


def test_cart_found_at_each_nesting_level() -> None:
    items = [{"spinId": "S1", "displayName": "Eggs", "quantity": 2, "price": 7}]
    for payload in (
        {"items": items},
        {"cart": {"items": items}},
        {"data": {"cart": {"cartItems": items}}},
    ):
        result = parse_tool_result("get_cart", json.dumps(payload), "food")
        assert isinstance(result, CartResult), payload
        assert result.items[0].line_total == 14.0
