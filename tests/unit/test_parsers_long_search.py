"""A long product search decodes only the products its card shows, and makes the same card.

The sandbox's real product search (10 products) is grown, with fresh ids, to over a
thousand products (about 1 MB, the parser bench's size). Each case parses it twice: as the
app does (`read_long_search` first) and with a full read only; the two cards must be
equal, and the case says whether the short read was taken at all.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import swiggy_core.parsers.orchestrator as orchestrator
from swiggy_core.constants import PARSER_MAX_ITEMS
from swiggy_core.parsers import ProductsResult, jsontext, parse_tool_result
from swiggy_core.parsers.long_search import LONG_SEARCH_CHARS, read_long_search

FIXTURES = Path(__file__).parents[1] / "fixtures" / "payloads"
FIXTURE = FIXTURES / "sandbox_instamart_search_products.json"
TOOL = "search_products"
GROCERY = "food"  # NutriCart, the grocery shop


def _search(products: int = 1_400) -> dict[str, Any]:
    """The documented envelope with `products` real products (fresh ids each)."""
    captured = json.loads(FIXTURE.read_text())["result"]
    real = captured["data"]["products"]
    grown = []
    for index in range(products):
        product = copy.deepcopy(real[index % len(real)])
        product["productId"] = f"{product['productId']}-{index}"
        product["displayName"] = f"{product['displayName']} #{index}"
        grown.append(product)
    data = {"nextOffset": "1400", "products": grown, "similarProducts": real[:2]}
    return {"success": True, "data": data, "message": f"Found {products} products."}


def _content(text: str) -> list[dict[str, str]]:
    return [{"type": "text", "text": text}]


def _full_read(text: str, tool: str = TOOL, vertical: str = GROCERY) -> Any:
    original = orchestrator.read_long_search
    orchestrator.read_long_search = lambda *_: None  # type: ignore[assignment]
    try:
        return parse_tool_result(tool, _content(text), vertical, {"query": "milk"})
    finally:
        orchestrator.read_long_search = original


def _both(text: str, tool: str = TOOL, vertical: str = GROCERY) -> tuple[Any, Any]:
    app = parse_tool_result(tool, _content(text), vertical, {"query": "milk"})
    return app, _full_read(text, tool, vertical)


def test_a_long_search_reads_only_the_products_its_card_shows_and_makes_the_same_card() -> None:
    text = json.dumps(_search())
    assert len(text) > 900_000
    short = read_long_search(TOOL, _content(text), GROCERY)
    assert short is not None
    assert len(short.value["data"]["products"]) == PARSER_MAX_ITEMS + 1
    assert short.value["data"]["nextOffset"] == "1400"
    assert short.value["message"] == "Found 1400 products."
    app, full = _both(text)
    assert isinstance(app, ProductsResult)
    assert app.truncated and len(app.items) == PARSER_MAX_ITEMS
    assert app.items[-1].name.endswith(f"#{PARSER_MAX_ITEMS - 1}")
    assert app.model_dump() == full.model_dump()


def test_the_app_never_decodes_the_products_it_leaves_out(monkeypatch: pytest.MonkeyPatch) -> None:
    decoded: list[int] = []
    real = jsontext.from_json

    def measured(text: str | bytes, **options: Any) -> Any:
        decoded.append(len(text))
        return real(text, **options)

    monkeypatch.setattr(jsontext, "from_json", measured)
    text = json.dumps(_search())
    result = parse_tool_result(TOOL, _content(text), GROCERY, {"query": "milk"})
    assert isinstance(result, ProductsResult) and len(result.items) == PARSER_MAX_ITEMS
    # The 61 products kept (about 1/20 of the text) and the envelope's small fields.
    assert decoded and max(decoded) < len(text) / 10
    decoded.clear()
    _full_read(text)
    assert max(decoded) == len(text)  # the full read decodes it all: what the test measures


def test_the_envelope_keys_may_come_in_any_order() -> None:
    search = _search()
    data = search["data"]
    reordered = {"data": {"products": data["products"], "nextOffset": data["nextOffset"]}}
    text = json.dumps({**reordered, "message": search["message"], "success": True})
    assert read_long_search(TOOL, _content(text), GROCERY) is not None
    app, full = _both(text)
    assert app.model_dump() == full.model_dump()


def _refused(text: str, tool: str = TOOL, vertical: str = GROCERY) -> Any:
    """The short read declines; the app's card is the full read's."""
    assert read_long_search(tool, _content(text), vertical) is None
    app, full = _both(text, tool, vertical)
    assert app.model_dump() == full.model_dump()
    return app


def test_an_unknown_key_at_either_level_means_a_full_read() -> None:
    search = _search()
    search["data"]["results"] = [{"displayName": "Hidden", "price": 1}]
    assert isinstance(_refused(json.dumps(search)), ProductsResult)
    search = _search()
    search["meta"] = {"page": 1}
    assert isinstance(_refused(json.dumps(search)), ProductsResult)


def test_a_list_that_is_not_all_products_means_a_full_read() -> None:
    search = _search()
    search["data"]["products"][5] = {"banner": {"title": "Offers"}}
    assert isinstance(_refused(json.dumps(search)), ProductsResult)
    search["data"]["products"][5] = {}
    assert isinstance(_refused(json.dumps(search)), ProductsResult)


def test_broken_json_is_read_as_the_full_read_reads_it() -> None:
    text = json.dumps(_search())
    _refused(text[:-40])  # cut off: not one JSON document
    nan = text.replace('"mrp": 28', '"mrp": NaN', 1)  # Python's JSON, not the standard's
    assert nan != text
    _refused(nan)


def test_short_texts_other_tools_and_other_shops_are_read_in_full() -> None:
    small = json.dumps(_search(products=PARSER_MAX_ITEMS + 10))
    assert len(small) < LONG_SEARCH_CHARS
    _refused(small)
    few = _search(products=PARSER_MAX_ITEMS)  # long text, but every product is shown
    few["data"]["products"][0]["description"] = "x" * LONG_SEARCH_CHARS
    _refused(json.dumps(few))
    text = json.dumps(_search())
    _refused(text, tool="get_cart")
    _refused(text, vertical="foodorder")


@pytest.mark.parametrize("content", [[], "plain", [{"type": "image", "data": ""}], None])
def test_other_content_forms_are_left_to_the_full_read(content: Any) -> None:
    assert read_long_search(TOOL, content, GROCERY) is None


def test_a_key_given_twice_counts_as_the_full_read_counts_it() -> None:
    # JSON lets a key repeat; the full read keeps the last value, and so must the short read.
    first, last = _search(), _search()
    for product in first["data"]["products"]:
        product["displayName"] = "Decoy " + product["displayName"]
    first_products = json.dumps(first["data"]["products"])
    last_data = json.dumps(last["data"])[1:-1]
    text = (
        f'{{"data": {{"products": {first_products}}}, "data": {{{last_data}}}, '
        '"success": false, "success": true}'
    )
    assert read_long_search(TOOL, _content(text), GROCERY) is not None
    app, full = _both(text)
    assert isinstance(app, ProductsResult) and not app.items[0].name.startswith("Decoy")
    assert app.model_dump() == full.model_dump()
