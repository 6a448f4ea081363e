import json
import math

from hypothesis import given
from hypothesis import strategies as st
from json_cases import MANY_JSON_EXAMPLES, JsonCase, json_cases

from swiggy_core.constants import TOOL_RESULT_TRUNCATE_CHARS
from swiggy_core.conversation import (
    REDUCE_SLACK,
    TRUNCATION_SLACK,
    truncate_history,
    truncate_tool_result,
)
from swiggy_core.models import (
    ChatMessage,
    McpToolResultBlock,
    McpToolUseBlock,
    TextContent,
    ToolResultBlock,
    ToolUseBlock,
)


def _strict_loads(text):
    """json.loads that refuses NaN/Infinity, so 'valid JSON' means the RFC's JSON."""

    def reject(constant):
        raise ValueError(constant)

    return json.loads(text, parse_constant=reject)


def _products(count, blurb=200):
    names = ["Amul Taaza Toned Milk 1 L", "Britannia Bread", "Farm Eggs 6 pcs", "Tata Salt"]
    return {
        "success": True,
        "message": "ok",
        "data": {
            "products": [
                {
                    "displayName": f"{names[i % len(names)]} #{i}",
                    "productId": f"p{i}",
                    "variations": [{"spinId": f"s{i}", "price": {"mrp": 60, "offerPrice": 54}}],
                    "description": "d" * blurb,
                }
                for i in range(count)
            ],
            "nextOffset": 20,
        },
    }


def test_short_text_is_returned_unchanged():
    assert truncate_tool_result("short", limit=10) == "short"
    pretty = json.dumps({"a": 1}, indent=4)
    assert truncate_tool_result(pretty, limit=len(pretty)) == pretty


def test_default_limit_is_the_canonical_constant():
    text = "x" * (TOOL_RESULT_TRUNCATE_CHARS + 500)
    out = truncate_tool_result(text)
    assert out.startswith("x" * TOOL_RESULT_TRUNCATE_CHARS)
    assert len(out) <= TOOL_RESULT_TRUNCATE_CHARS + TRUNCATION_SLACK


def test_plain_text_is_cut_with_a_marker():
    text = "line of plain text\n" * 200
    out = truncate_tool_result(text, limit=100)
    assert out.startswith(text[:100])
    assert "_truncated" in out and str(len(text)) in out
    assert len(out) <= 100 + TRUNCATION_SLACK


def test_whitespace_only_savings_need_no_marker():
    value = {"a": list(range(30))}
    pretty = json.dumps(value, indent=8)
    out = truncate_tool_result(pretty, limit=len(json.dumps(value)) + 5)
    assert json.loads(out) == value


def test_json_envelope_stays_valid_and_keeps_small_fields():
    text = json.dumps(_products(80), indent=2)
    out = truncate_tool_result(text, limit=2000)
    assert len(out) <= 2000
    data = _strict_loads(out)
    assert data["success"] is True and data["message"] == "ok"
    assert data["data"]["nextOffset"] == 20
    products = data["data"]["products"]
    assert 0 < len(products) < 80
    assert "shortened from" in data["_truncated"]
    # Kept items keep their ids whole: a cut id would be sent back to a tool.
    for product in products:
        assert product["productId"].startswith("p") and "…" not in product["productId"]


def test_items_matching_the_query_are_kept_first_in_original_order():
    text = json.dumps(_products(80))
    out = truncate_tool_result(text, query="amul milk", limit=1500)
    names = [p["displayName"] for p in _strict_loads(out)["data"]["products"]]
    assert names and all(name.startswith("Amul Taaza") for name in names)
    numbers = [int(name.rsplit("#", 1)[1]) for name in names]
    assert numbers == sorted(numbers)
    plain = truncate_tool_result(text, limit=1500)
    assert _strict_loads(plain)["data"]["products"][0]["displayName"].endswith("#0")


def test_long_strings_are_shortened_not_dropped():
    text = json.dumps({"id": "r1", "review": "great food " * 500})
    data = _strict_loads(truncate_tool_result(text, limit=300))
    assert data["id"] == "r1"
    assert data["review"].startswith("great food") and data["review"].endswith("…")


def test_top_level_list_and_string_get_a_note():
    items = truncate_tool_result(json.dumps(list(range(500))), limit=200)
    parsed = _strict_loads(items)
    assert parsed[:3] == [0, 1, 2] and "shortened from" in parsed[-1]
    text = truncate_tool_result(json.dumps("word " * 400), limit=120)
    assert "_truncated" in _strict_loads(text) and len(text) <= 120


def test_a_huge_number_literal_is_replaced_by_a_note():
    text = "9" * 4000  # valid JSON: one (big) integer
    out = truncate_tool_result(text, limit=100)
    assert isinstance(_strict_loads(out), str)


def test_lone_surrogates_are_escaped_so_the_result_encodes():
    text = json.dumps({"a": "\ud800" * 200})
    out = truncate_tool_result(text, limit=100)
    out.encode("utf-8")
    assert json.loads(out)["_truncated"]


def test_deeply_nested_json_still_yields_json():
    text = "[" * 5000 + "]" * 5000
    out = truncate_tool_result(text, limit=200)
    assert len(out) <= 200 + TRUNCATION_SLACK
    assert "_truncated" in _strict_loads(out)
    nested = "[" * 300 + "1" + "]" * 300  # parseable, and deep for the shrinker
    assert _strict_loads(truncate_tool_result(nested, limit=100))


@MANY_JSON_EXAMPLES
@given(case=json_cases(max_leaves=60, max_limit=600))
def test_property_truncated_json_is_valid_json_within_the_limit(case: JsonCase):
    value, text, limit = case.value, case.text, case.limit
    out = truncate_tool_result(text, query=case.query, limit=limit)
    if len(text) <= limit:
        assert out == text
        return
    assert len(out) <= limit + TRUNCATION_SLACK
    parsed = _strict_loads(out)
    if limit >= len(json.dumps(value, ensure_ascii=False, separators=(",", ":"))):
        assert parsed == value or (isinstance(value, float) and math.isclose(parsed, value))


@given(text=st.text(min_size=1, max_size=800), limit=st.integers(min_value=0, max_value=400))
def test_property_non_json_text_is_cut_at_the_limit_with_a_marker(text, limit):
    try:
        json.loads(text)
    except ValueError:
        pass
    else:
        return  # valid JSON is the other property's business
    out = truncate_tool_result(text, limit=limit)
    if len(text) <= limit:
        assert out == text
    else:
        assert out.startswith(text[:limit])
        assert "_truncated" in out[limit:]
        assert len(out) <= limit + TRUNCATION_SLACK


def test_truncate_history_reduces_old_results_by_importance():
    payload = json.dumps(_products(60))
    old = ChatMessage(
        role="assistant",
        content=[
            McpToolUseBlock(
                id="m1", name="search_products", server_name="s", input={"query": "eggs"}
            ),
            McpToolResultBlock(tool_use_id="m1", content=payload),
        ],
    )
    client_use = ChatMessage(role="assistant", content=[ToolUseBlock(id="t1", name="x", input={})])
    summary = "Found 60 products for 'eggs'."
    client_result = ChatMessage(
        role="user",
        content=[
            ToolResultBlock(
                tool_use_id="t1", content=[TextContent(text=summary), TextContent(text=payload)]
            )
        ],
    )
    recent = ChatMessage(role="user", content="latest")
    history = [ChatMessage(role="user", content="q"), old, client_use, client_result, recent]
    out = truncate_history(history, keep_last=1, limit=3000)
    reduced = _strict_loads(out[1].content[1].content)
    products = reduced["data"]["products"]
    # Descriptions go before any product does; the products that are kept are those
    # naming the call's query ("eggs": all 15), then the leading ones, in their order.
    assert reduced["_reduced"]["dropped"] == ["description ×60"]
    numbers = [int(p["productId"][1:]) for p in products]
    assert numbers == sorted(numbers)
    eggs = [p for p in products if p["displayName"].startswith("Farm Eggs")]
    assert len(eggs) == 15 and len(products) > 15
    others = [n for n in numbers if n % 4 != 2]
    assert others == [n for n in range(60) if n % 4 != 2][: len(others)]
    assert products[0]["variations"] == [{"spinId": "s0", "price": {"mrp": 60, "offerPrice": 54}}]
    assert reduced["_reduced"]["kept_items"] == {"data.products": f"{len(products)} of 60"}
    # The short summary part stays whole; the JSON part gets the rest of the room.
    first, second = out[3].content[0].content
    assert first.text == summary
    assert len(first.text) + len(second.text) <= 3000 + REDUCE_SLACK
    assert _strict_loads(second.text)["_reduced"]
    assert out[4] is recent and out[0] is history[0]
    assert history[1].content[1].content == payload  # inputs are not modified
    assert truncate_history(history, keep_last=10) == history


def test_truncate_history_leaves_results_within_the_limit_alone():
    small = json.dumps(_products(2))
    message = ChatMessage(
        role="assistant",
        content=[
            McpToolUseBlock(id="m1", name="search_products", server_name="s", input={}),
            McpToolResultBlock(tool_use_id="m1", content=small),
        ],
    )
    history = [
        ChatMessage(role="user", content="q"),
        message,
        ChatMessage(role="user", content="z"),
    ]
    out = truncate_history(history, keep_last=1, limit=len(small))
    assert out[1] is message
