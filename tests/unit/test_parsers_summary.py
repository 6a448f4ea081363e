"""The summary result form: numbered `(ID: …)` lines become cards, else an honest text card."""

from __future__ import annotations

import json
from datetime import timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from swiggy_core.models import McpToolResultBlock, TextContent
from swiggy_core.parsers import (
    CARD_KINDS,
    AddressesResult,
    BookingConfirmedResult,
    OrderPlacedResult,
    ProductsResult,
    RawResult,
    RestaurantsResult,
    StatusResult,
    TimeSlotsResult,
    parse_tool_result,
    parsed_result_adapter,
)
from swiggy_core.parsers.summary import SummaryLine, read_summary
from swiggy_core.parsers.unwrap import unwrap_content

PRODUCTS = """Found 3 products for 'milk':
1. Amul Taaza Toned Fresh Milk — Amul | 500 ml | ₹27 (MRP ₹29) (ID: SPN-88121, SKU: SKU-5501)
2. Epigamia Greek Yogurt - Blueberry — 90 g | ₹52.50 (ID: SPN-44010, SKU: SKU-9011)
3. Nandini Toned Milk - 500 ml | ₹24
Prices include taxes."""
DINEOUT = """Found 2 restaurants for 'asian' near Indiranagar:
1. The Fatty Bao — Asian, Sushi | [object Object]★ | ₹1,800 for two | Indiranagar (ID: 656137)
2. Toscano — Italian | 4.2★ | ₹2,500 for two | UB City (ID: 700212)"""
FOOD = """1. Meghana Foods — Biryani, Andhra | 4.5★ | 32 min | ₹500 for two (ID: 23678)
2. Empire Restaurant — North Indian | 4.1★ | 48 min | ₹450 for two | Closed (ID: 51234)"""
DISHES = """Dishes for 'biryani':
1. Chicken Dum Biryani — Non-veg | ₹349 | restaurantId: 23678 (ID: 118830551)
2. Paneer Biryani — Veg | ₹269 | Out of stock (ID: 118830601, Item: 118830601)"""
SLOTS = """Slots at The Fatty Bao for 2 guests (exact ids in the structured result):
Tue, 24 Nov (2026-11-24):
1. 7:00 PM — Dinner | 4 left | Free table reservation (ID: 7399441900, Item: 656137-1371)
2. 7:30 PM — Dinner | 0 left | Free table reservation (ID: 7399441930, Item: 656137-1371)
3. 8:00 PM — Dinner | 2 left | Paid prebook ₹210 (ID: 7399442000, Item: 656137-1372)
Wed, 25 Nov (2026-11-25):
4. 1:00 PM — Lunch | 6 left | Free table reservation (ID: 7399541300, Item: 656137-1371)"""
ADDRESSES = """Your saved addresses:
1. Home — Flat 402, Prestige Lakeside, Whitefield (ID: d1f2a3)
2. Work — WeWork Galaxy, Residency Road (ID: e7c9b1)"""


# --- read_summary ---------------------------------------------------------------------


def test_read_summary_reads_names_details_prices_and_ids() -> None:
    first, second, third = read_summary(PRODUCTS)
    assert first == SummaryLine(
        index=1,
        name="Amul Taaza Toned Fresh Milk",
        record_id="SPN-88121",
        ids={"SKU": "SKU-5501"},
        details=("Amul", "500 ml", "₹27 (MRP ₹29)"),
        price=27.0,
        raw="1. Amul Taaza Toned Fresh Milk — Amul | 500 ml | ₹27 (MRP ₹29) "
        "(ID: SPN-88121, SKU: SKU-5501)",
    )
    # The em dash separates the name, so a hyphen inside the name stays in it.
    assert (second.name, second.price, second.details) == (
        "Epigamia Greek Yogurt - Blueberry",
        52.5,
        ("90 g", "₹52.50"),
    )
    # " - " is accepted when there is no em dash; a line without ids has none.
    assert (third.name, third.record_id, third.ids, third.details, third.price) == (
        "Nandini Toned Milk",
        None,
        {},
        ("500 ml", "₹24"),
        24.0,
    )


def test_read_summary_skips_headings_and_context_lines() -> None:
    lines = read_summary(SLOTS)
    assert [line.index for line in lines] == [1, 2, 3, 4]
    assert [line.name for line in lines] == ["7:00 PM", "7:30 PM", "8:00 PM", "1:00 PM"]
    assert lines[0].ids == {"Item": "656137-1371"}
    assert read_summary("Found 0 products for 'unobtainium'.") == []
    assert read_summary("") == []


def test_read_summary_ignores_an_object_object_rating() -> None:
    bao, toscano = read_summary(DINEOUT)
    assert bao.details == ("Asian, Sushi", "₹1,800 for two", "Indiranagar")
    assert bao.price == 1800.0 and bao.record_id == "656137"
    assert "4.2★" in toscano.details


def test_read_summary_price_for_two_and_missing_price() -> None:
    meghana, _ = read_summary(FOOD)
    assert meghana.price == 500.0
    (line,) = read_summary("1. Just a name (ID: 7)")
    assert (line.name, line.details, line.price, line.record_id) == ("Just a name", (), None, "7")


def test_read_summary_handles_markup_and_odd_numbering() -> None:
    text = "2) **Toit** — Pub food | ₹2,000 for two (ID: 77)\n10. Last — x"
    toit, last = read_summary(text)
    assert (toit.index, toit.name, toit.record_id) == (2, "Toit", "77")
    assert (last.index, last.name, last.details) == (10, "Last", ("x",))


# --- Summary-only results become cards where the kind is clear -------------------------


def test_summary_products_become_product_cards_with_ids() -> None:
    result = parse_tool_result("search_products", PRODUCTS, "food")
    assert isinstance(result, ProductsResult) and result.kind == "grocery"
    milk = result.items[0]
    assert (milk.name, milk.spin_id, milk.sku_id, milk.price) == (
        "Amul Taaza Toned Fresh Milk",
        "SPN-88121",
        "SKU-5501",
        27.0,
    )
    assert result.items[2].spin_id is None  # no id given: none invented


def test_summary_dineout_restaurants_drop_the_broken_rating() -> None:
    result = parse_tool_result("search_restaurants_dineout", DINEOUT, "dining")
    assert isinstance(result, RestaurantsResult)
    bao, toscano = result.items
    assert (bao.restaurant_id, bao.rating, bao.cost_for_two, bao.cuisines) == (
        "656137",
        None,
        1800.0,
        ["Asian", "Sushi"],
    )
    assert toscano.rating == 4.2


def test_summary_food_restaurants() -> None:
    result = parse_tool_result("search_restaurants", FOOD, "foodorder")
    assert isinstance(result, RestaurantsResult)
    meghana, empire = result.items
    assert (meghana.restaurant_id, meghana.delivery_time_minutes, meghana.cost_for_two) == (
        "23678",
        32,
        500.0,
    )
    assert (meghana.is_open, empire.is_open) == (None, False)


def test_summary_dishes() -> None:
    result = parse_tool_result("search_menu", DISHES, "foodorder")
    assert isinstance(result, ProductsResult) and result.kind == "menu"
    biryani, paneer = result.items
    assert (biryani.menu_item_id, biryani.price, biryani.is_veg, biryani.restaurant_id) == (
        "118830551",
        349.0,
        False,
        "23678",
    )
    assert (paneer.is_veg, paneer.in_stock) == (True, False)


def test_summary_slots_keep_dates_seats_and_paid_deals() -> None:
    result = parse_tool_result("get_available_slots", SLOTS, "dining", {"restaurantId": "656137"})
    assert isinstance(result, TimeSlotsResult)
    assert [d.date for d in result.days] == ["2026-11-24", "2026-11-25"]
    seven, half_past, eight = result.days[0].slots
    assert (seven.slot_id, seven.item_id, seven.available, seven.free) == (
        "7399441900",
        "656137-1371",
        True,
        True,
    )
    assert (half_past.available, half_past.seats_left) == (False, 0)
    assert (eight.free, eight.item_id, eight.paid_price) == (False, None, 210.0)
    assert result.restaurant_id == "656137"


def test_summary_meal_windows_without_times_are_a_text_card() -> None:
    text = (
        "Tables at The Fatty Bao:\n"
        "1. 2026-11-24 (Tuesday) — Dinner 7:00 PM–8:00 PM (2 open: free booking)\n"
        "2. 2026-11-25 (Wednesday) — fully booked"
    )
    result = parse_tool_result("get_available_slots", text, "dining")
    assert result == RawResult(tool_name="get_available_slots", text=text)


def test_summary_addresses() -> None:
    result = parse_tool_result("get_addresses", ADDRESSES, "food")
    assert isinstance(result, AddressesResult)
    assert [(a.label, a.address_id, a.address) for a in result.items] == [
        ("Home", "d1f2a3", "Flat 402, Prestige Lakeside, Whitefield"),
        ("Work", "e7c9b1", "WeWork Galaxy, Residency Road"),
    ]


def test_summary_without_a_known_kind_is_an_honest_text_card() -> None:
    text = "Your order IM-1 is out for delivery.\n1. Milk — 2 × ₹27 (ID: SPN-1)"
    result = parse_tool_result("track_order", text, "food")
    assert result == RawResult(tool_name="track_order", text=text)


def test_summary_confirmations_are_never_cards() -> None:
    for tool, vertical in (("book_table", "dining"), ("checkout", "food")):
        text = "Booking confirmed!\n1. The Fatty Bao — 7:00 PM | 2 guests (ID: DO-1)"
        result = parse_tool_result(tool, text, vertical)
        assert not isinstance(result, BookingConfirmedResult | OrderPlacedResult)
        assert isinstance(result, RawResult) and result.text == text


# --- Both result forms: structuredContent first, JSON in text next, prose last ---------

DATA = {
    "products": [{"displayName": "Amul Butter", "productId": "P9", "price": {"offerPrice": 56}}]
}


def test_raw_mcp_result_prefers_structured_content_over_the_summary() -> None:
    for key in ("structuredContent", "structured_content"):
        for structured in (DATA, {"success": True, "data": DATA}):
            raw = {"content": [{"type": "text", "text": PRODUCTS}], key: structured}
            result = parse_tool_result("search_products", raw, "food")
            assert isinstance(result, ProductsResult)
            assert [p.name for p in result.items] == ["Amul Butter"], (key, structured)


def test_raw_mcp_error_with_structured_content_is_a_failure() -> None:
    raw = {
        "content": [{"type": "text", "text": "Slot no longer available"}],
        "structuredContent": {"success": False, "error": {"message": "Slot no longer available"}},
        "isError": True,
    }
    result = parse_tool_result("book_table", raw, "dining")
    assert isinstance(result, StatusResult) and result.success is False


def test_two_blocks_prefer_the_json_object_block() -> None:
    blocks = [{"type": "text", "text": PRODUCTS}, {"type": "text", "text": json.dumps(DATA)}]
    unwrapped = unwrap_content(blocks)
    assert unwrapped.value == DATA and unwrapped.text == PRODUCTS
    result = parse_tool_result("search_products", blocks, "food")
    assert isinstance(result, ProductsResult) and result.items[0].name == "Amul Butter"
    stored = McpToolResultBlock(
        tool_use_id="t", content=[TextContent(text=PRODUCTS), TextContent(text=json.dumps(DATA))]
    )
    assert isinstance(parse_tool_result("search_products", stored, "food"), ProductsResult)


def test_an_envelope_text_next_to_its_structured_copy_is_read_once() -> None:
    envelope = json.dumps({"success": True, "data": DATA})
    blocks = [{"type": "text", "text": envelope}, {"type": "text", "text": json.dumps(DATA)}]
    result = parse_tool_result("search_products", blocks, "food")
    assert isinstance(result, ProductsResult) and len(result.items) == 1


def test_joined_summary_and_json_reads_the_json() -> None:
    text = DINEOUT + json.dumps(DATA)  # the two blocks joined without a separator
    result = parse_tool_result("search_products", text, "food")
    assert isinstance(result, ProductsResult) and result.items[0].name == "Amul Butter"


# --- Never raises ---------------------------------------------------------------------

LINE = st.builds(
    lambda n, name, details, ids: f"{n}. {name} — {' | '.join(details)}{ids}",
    st.integers(-5, 10_000),
    st.text(max_size=30),
    st.lists(
        st.text(max_size=20) | st.sampled_from(["₹", "₹1,2,3", "[object Object]★"]), max_size=4
    ),
    st.sampled_from(["", " (ID: 1)", " (ID: , SKU: )", " (ID:", " (x: y, z)", "(ID: a, b: c, d)"]),
)
PROSE = st.lists(LINE | st.text(max_size=60), max_size=12).map("\n".join)
FAST = settings(deadline=timedelta(seconds=3), suppress_health_check=[HealthCheck.too_slow])
TOOLS = st.sampled_from(
    [
        "search_products",
        "search_restaurants",
        "search_restaurants_dineout",
        "search_menu",
        "get_available_slots",
        "get_addresses",
        "book_table",
        "mystery",
    ]
)
VERTICALS = st.sampled_from(["food", "style", "dining", "foodorder", "unknown"])


@FAST
@given(text=PROSE | st.text(max_size=500))
def test_read_summary_never_raises(text: str) -> None:
    for line in read_summary(text):
        assert isinstance(line, SummaryLine) and line.raw
        assert line.price is None or line.price == line.price


@FAST
@given(text=PROSE, tool=TOOLS, vertical=VERTICALS)
def test_summary_text_always_gives_a_valid_result(text: str, tool: str, vertical: str) -> None:
    result = parse_tool_result(tool, text, vertical)
    assert result.type in CARD_KINDS
    assert parsed_result_adapter.validate_python(result.model_dump()) == result


def test_hostile_summaries_never_hang() -> None:
    for text in (
        "1. " + "—" * 200_000,
        "1. x (ID: " + "a, " * 100_000 + ")",
        "\n".join(f"{i}. n — {'| ' * 50} ₹{i} (ID: {i})" for i in range(50_000)),
        "(" * 200_000,
    ):
        parse_tool_result("search_products", text, "food")
        read_summary(text)


def test_an_envelope_after_prose_is_still_an_envelope() -> None:
    text = 'Swiggy says: {"status": "error", "message": "Server busy"}'
    result = parse_tool_result("search_products", text, "food")
    assert result == StatusResult(tool_name="search_products", success=False, message="Server busy")
    failed = 'Result: {"success": false, "error": {"message": "Slot gone"}}'
    result = parse_tool_result("book_table", failed, "dining")
    assert isinstance(result, StatusResult) and result.message == "Slot gone"
