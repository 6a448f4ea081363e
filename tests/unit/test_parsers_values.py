"""The fast paths of the parsers give exactly what the plain ones give."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic_core import from_json

from swiggy_core.parsers import jsontext, parse_tool_result
from swiggy_core.parsers._values import Keys, first, pick
from swiggy_core.parsers.jsontext import decode_json, loads

NAMES = ["price", "mrp", "offerPrice", "spinId", "name", "id", "a", "b"]
VALUES = (
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=False)
    | st.text(max_size=5)
    | st.just([])
    | st.just({})
    | st.lists(st.integers(), max_size=2)
)


@given(
    record=st.dictionaries(st.sampled_from(NAMES) | st.text(max_size=4), VALUES, max_size=6),
    names=st.lists(st.sampled_from(NAMES), min_size=1, max_size=5, unique=True),
)
def test_first_is_pick_in_priority_order(record: dict[str, Any], names: list[str]) -> None:
    keys = Keys(*names)
    assert keys.order == tuple(names) and set(keys) == set(names)
    assert first(record, keys) is pick(record, *names)


def test_first_skips_empty_values_like_pick() -> None:
    keys = Keys("offerPrice", "price", "mrp")
    assert first({"offerPrice": "", "price": 0, "mrp": 5}, keys) == 0
    assert first({"offerPrice": [], "price": {}, "mrp": None}, keys) is None
    assert first({"other": 1}, keys) is None


JSON_TEXTS = [
    '{"a": 1, "b": 2, "a": 3}',  # a repeated key: the last value, at the first position
    "[1e400, -1e400, 1e-400, 5e-324, 2.5e-324]",
    "[NaN, Infinity, -Infinity]",
    "123456789012345678901234567890",
    "[123456789012345678901234567890.5, -0, -0.0, 1E5]",
    '"\\ud83d\\ude00 and \\u00e9"',
    '"\\udc00 alone"',  # a lone surrogate escape
    '{"a": "\ud800"}',  # a lone surrogate character in the text itself
    "[" * 250 + "]" * 250,  # deeper than pydantic-core's limit
    '{"a":' * 300 + "1" + "}" * 300,
    '{"price": 27.0, "mrp": 29, "ok": true, "none": null}',
]


@pytest.mark.parametrize("text", JSON_TEXTS)
def test_loads_gives_what_json_loads_gives(text: str) -> None:
    expected = json.loads(text)
    actual = loads(text)
    assert _same(actual, expected)


@pytest.mark.parametrize("text", ["{} x", "[1,]", "01", '"\\x41"', "\ufeff{}", '"\t"', "{"])
def test_loads_refuses_what_json_loads_refuses(text: str) -> None:
    with pytest.raises(ValueError):
        json.loads(text)
    with pytest.raises(ValueError):
        loads(text)


def test_decode_json_of_prose_and_nested_encodings_is_unchanged() -> None:
    assert decode_json('Found 2 items: {"a": 1}') == {"a": 1}
    assert decode_json(json.dumps(json.dumps({"a": [1, 2]}))) == {"a": [1, 2]}
    assert decode_json("[" * 200_000 + "]" * 200_000) is not None  # never raises


def _same(left: Any, right: Any) -> bool:
    """Equal values of equal types, NaN equal to NaN, dict keys in the same order."""
    if type(left) is not type(right):
        return False
    if isinstance(left, float):
        return (math.isnan(left) and math.isnan(right)) or left == right
    if isinstance(left, dict):
        return list(left) == list(right) and all(_same(left[k], right[k]) for k in left)
    if isinstance(left, list):
        return len(left) == len(right) and all(map(_same, left, right))
    return bool(left == right)


FIXTURES = Path(__file__).parents[1] / "fixtures" / "payloads"
SUMMARY = "Found 1 item:\n1. Something — detail | ₹10 (ID: 1)"


@pytest.mark.parametrize(
    ("tool", "fixture", "vertical"),
    [
        ("search_products", "instamart_search_products", "food"),
        ("get_restaurant_menu", "food_get_restaurant_menu", "foodorder"),
        ("search_restaurants", "food_search_restaurants", "foodorder"),
        ("get_food_cart", "food_get_food_cart", "foodorder"),
        ("get_available_slots", "dineout_get_available_slots", "dining"),
        ("book_table", "dineout_book_table_success", "dining"),
    ],
)
def test_one_json_decode_per_result(
    monkeypatch: pytest.MonkeyPatch, tool: str, fixture: str, vertical: str
) -> None:
    decoded: list[int] = []

    def counting(text: str, **options: Any) -> Any:
        decoded.append(len(text))
        return from_json(text, **options)

    monkeypatch.setattr(jsontext, "from_json", counting)
    text = (FIXTURES / f"{fixture}.json").read_text()
    one_block = [{"type": "text", "text": text}]
    data = json.dumps(json.loads(text)["data"])
    two_blocks = [{"type": "text", "text": SUMMARY}, {"type": "text", "text": data}]
    for content in (one_block, two_blocks, text):
        decoded.clear()
        result = parse_tool_result(tool, content, vertical)
        assert result.type not in ("raw", "info")
        assert len(decoded) == 1, (content, decoded)
