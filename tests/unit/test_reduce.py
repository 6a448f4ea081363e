import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from json_cases import ANY_KEY, MANY_JSON_EXAMPLES, JsonCase, json_cases

from swiggy_core.constants import LARGE_RESULT_CHARS
from swiggy_core.conversation import (
    REDUCE_SLACK,
    Reduced,
    expand_back_references,
    reduce_for_model,
)
from swiggy_core.conversation._importance import Importance, key_importance
from swiggy_core.conversation.reduce import SAME_AS_BEFORE
from swiggy_core.engine.local_history import to_stored_blocks, tool_result_block
from swiggy_core.mcp.manager import ToolOutput
from swiggy_core.models import McpToolResultBlock, ToolUseBlock
from swiggy_core.parsers import (
    CartResult,
    ProductsResult,
    RestaurantsResult,
    TimeSlotsResult,
    parse_tool_result,
)
from swiggy_sandbox.servers.envelope import ok
from swiggy_sandbox.shop import CartLine, Shop

USER = "demo"
HOME = "addr_home_indiranagar"
ORIGIN = (12.9719, 77.6412)


def _strict_loads(text):
    """json.loads that refuses NaN/Infinity, so 'valid JSON' means the RFC's JSON."""

    def reject(constant):
        raise ValueError(constant)

    return json.loads(text, parse_constant=reject)


@pytest.fixture(scope="module")
def shop():
    fixed = datetime(2026, 11, 23, 6, 0, tzinfo=UTC)
    shop = Shop(clock=lambda: fixed)
    yield shop
    shop.close()


def _money(value):
    """A rupee amount as a JSON number or a price string says it: 28 → `:28,`, `"₹28.00"`."""
    if float(value).is_integer():
        return re.compile(rf'[:"₹]\s*{int(value)}(?:\.0*)?(?![\d.])')
    return re.compile(rf'[:"₹]\s*{re.escape(str(value))}0*(?![\d.])')


def _assert_all_in(facts, text):
    """Every id and name occurs in `text`, every price as a value (not inside an id)."""
    missing = [
        fact
        for fact in facts
        if (fact.search(text) is None if isinstance(fact, re.Pattern) else fact not in text)
    ]
    assert not missing, f"missing from the reduced text: {missing[:10]}"


def _product_facts(card: ProductsResult) -> set[str]:
    facts: set[str] = set()
    for item in card.items:
        facts |= {v for v in (item.product_id, item.spin_id, item.sku_id, item.name) if v}
        facts |= {_money(p) for p in (item.price, item.mrp) if p is not None}
        for pack in item.variations:
            facts |= {v for v in (pack.spin_id, pack.sku_id) if v}
            facts |= {_money(p) for p in (pack.price, pack.mrp) if p is not None}
    return facts


def _reduced_json(text):
    reduced = reduce_for_model(text)
    assert reduced.reduced
    assert len(reduced.text) <= LARGE_RESULT_CHARS
    return reduced, _strict_loads(reduced.text)


def test_a_result_within_the_limit_is_unchanged():
    text = json.dumps({"success": True, "data": {"products": []}}, indent=2)
    assert reduce_for_model(text) == Reduced(text, (), False)
    assert reduce_for_model("x" * 10, limit=10) == Reduced("x" * 10, (), False)


@pytest.mark.parametrize(
    ("key", "importance"),
    [
        *[(key, Importance.HIGH) for key in ("id", "spinId", "menu_item_id", "cartKey")],
        *[(key, Importance.HIGH) for key in ("displayName", "restaurantName", "title")],
        *[(key, Importance.HIGH) for key in ("offerPrice", "discountedFinalPrice", "mrp")],
        *[(key, Importance.HIGH) for key in ("costForTwo", "bookingPrice", "deliveryFee")],
        *[(key, Importance.HIGH) for key in ("subtotal", "to_pay", "billBreakdown")],
        *[(key, Importance.HIGH) for key in ("inStock", "isAvailable", "availableInventory")],
        *[(key, Importance.HIGH) for key in ("isOpen", "status", "quantity", "isVeg")],
        *[(key, Importance.HIGH) for key in ("displayTime", "reservationTime", "slotId")],
        *[(key, Importance.HIGH) for key in ("quantityDescription", "nextOffset")],
        *[(key, Importance.HIGH) for key in ("orderedItems", "coupon_applied", "addressLine")],
        *[(key, Importance.MEDIUM) for key in ("avgRating", "rating", "sla", "imageUrl")],
        *[(key, Importance.MEDIUM) for key in ("deliveryTimeMinutes", "areaName", "brand")],
        *[(key, Importance.MEDIUM) for key in ("cuisines", "similarProducts")],
        *[(key, Importance.LOW) for key in ("description", "offerDescription", "tnc")],
        *[(key, Importance.LOW) for key in ("trackingUrl", "analytics", "metadata")],
        *[(key, Importance.LOW) for key in ("mastheadImageUrls", "html", "upiIntentUrl")],
        *[(key, None) for key in ("products", "variations", "data", "grid")],
    ],
)
def test_key_importance(key, importance):
    assert key_importance(key) is importance


def test_a_sandbox_search_keeps_every_id_and_price_the_cards_show(shop):
    data = shop.instamart.search(USER, HOME, "milk", 0)
    text = ok(data, f"Found {len(data['products'])} product(s) for 'milk'.")
    assert len(text) > LARGE_RESULT_CHARS
    card = parse_tool_result("search_products", text, "food", {"query": "milk"})
    assert isinstance(card, ProductsResult) and len(card.items) == len(data["products"])

    reduced, value = _reduced_json(text)
    _assert_all_in(_product_facts(card), reduced.text)
    assert value["success"] is True and value["message"].startswith("Found")
    note = value["_reduced"]
    assert note["original_chars"] == len(text)
    dropped = " ".join(note["dropped"])
    for name in ("imageUrl", "brandName", "similarProducts"):
        assert name in dropped
        assert any(name in line for line in reduced.dropped)
    assert "kept_items" not in note  # every product stayed
    # The model's text still reads as the same result: the cards would show the same ids.
    again = parse_tool_result("search_products", reduced.text, "food", {})
    assert isinstance(again, ProductsResult)
    assert [i.product_id for i in again.items] == [i.product_id for i in card.items]


def test_the_model_gets_the_reduced_result_and_the_cards_the_full_one(shop):
    data = shop.instamart.search(USER, HOME, "rice", 0)
    output = ToolOutput("Found rice.", False, {"success": True, "data": data, "message": "m"})
    use = ToolUseBlock(id="toolu_1", name="search_products", input={"query": "rice"})
    stored = to_stored_blocks([use], {use.id: output}, "swiggy-instamart")
    result = stored[1]
    assert isinstance(result, McpToolResultBlock)
    assert [part.text for part in result.content] == output.texts()  # stored whole
    full = json.dumps(output.structured, ensure_ascii=False)
    assert len(full) > LARGE_RESULT_CHARS

    sent = tool_result_block(use.id, output.texts(), False, use.input)
    summary, structured = (part["text"] for part in sent["content"])
    assert summary == "Found rice."
    assert len(structured) <= LARGE_RESULT_CHARS and "_reduced" in _strict_loads(structured)
    # The card reads the stored blocks: every pack of the search, as if never reduced.
    card = parse_tool_result("search_products", result.content, "food", use.input)
    direct = parse_tool_result("search_products", full, "food", use.input)
    assert isinstance(card, ProductsResult) and card.items == direct.items
    assert len(card.items) == len(data["products"])
    _assert_all_in(_product_facts(card), structured)


def test_a_result_too_big_for_its_high_fields_drops_trailing_items_and_says_so(shop):
    products = [
        product
        for query in ("milk", "rice", "bread", "oil", "shampoo", "soap")
        for product in shop.instamart.search(USER, HOME, query, 0)["products"]
    ]
    text = ok({"products": products, "nextOffset": "10"}, "many")
    reduced, value = _reduced_json(text)
    kept = value["data"]["products"]
    assert 0 < len(kept) < len(products)
    assert value["_reduced"]["kept_items"] == {"data.products": f"{len(kept)} of {len(products)}"}
    assert f"data.products: kept {len(kept)} of {len(products)} items" in reduced.dropped
    assert value["data"]["nextOffset"] == "10"
    # The leading items keep every HIGH field: ids, prices, stock, pack size.
    for original, short in zip(products, kept, strict=False):
        assert short["productId"] == original["productId"]
        for pack, short_pack in zip(original["variations"], short["variations"], strict=True):
            assert short_pack["spinId"] == pack["spinId"]
            assert short_pack["skuId"] == pack["skuId"]
            assert short_pack["price"] == pack["price"]
            assert short_pack["isInStockAndAvailable"] == pack["isInStockAndAvailable"]
            assert short_pack["quantityDescription"] == pack["quantityDescription"]


def test_a_sandbox_cart_keeps_every_line_id_price_and_bill_line(shop):
    lines = []
    for query in ("milk", "rice", "shampoo", "bread", "oil"):
        for product in shop.instamart.search(USER, HOME, query, 0)["products"][:4]:
            pack = product["variations"][0]
            if pack["isInStockAndAvailable"]:
                lines.append(CartLine(pack["spinId"], pack["skuId"], 1))
    cart = shop.instamart.update_cart(USER, HOME, lines)
    text = ok(cart, "Cart updated.")
    assert len(text) > LARGE_RESULT_CHARS
    card = parse_tool_result("update_cart", text, "food", {})
    assert isinstance(card, CartResult) and len(card.items) == len(lines)

    reduced, _ = _reduced_json(text)
    facts = {card.to_pay and _money(card.to_pay)}
    for line in card.items:
        facts |= {v for v in (line.spin_id, line.sku_id, line.product_id, line.name) if v}
        facts |= {_money(p) for p in (line.unit_price, line.line_total, line.mrp) if p}
        facts.add(str(line.quantity))
    facts |= {bill.label for bill in card.bill}
    _assert_all_in({fact for fact in facts if fact}, reduced.text)
    again = parse_tool_result("update_cart", reduced.text, "food", {})
    assert isinstance(again, CartResult)
    assert [line.key for line in again.items] == [line.key for line in card.items]
    assert again.to_pay == card.to_pay


def test_a_sandbox_slot_listing_keeps_every_slot_item_id_and_price(shop):
    venue = shop.dineout.search("biryani", None, ORIGIN, 10, 0)["restaurants"][0]["id"]
    day = (shop.dineout._today() + timedelta(days=6)).isoformat()
    text = ok(shop.dineout.slots(venue, day, ORIGIN), "Slots.")
    assert len(text) > LARGE_RESULT_CHARS
    tool_input = {"restaurantId": venue, "date": day}
    card = parse_tool_result("get_available_slots", text, "dining", tool_input)
    assert isinstance(card, TimeSlotsResult)
    slots = [slot for slot_day in card.days for slot in slot_day.slots]
    assert len(slots) > 10

    reduced, value = _reduced_json(text)
    facts = set()
    for slot in slots:
        facts |= {v for v in (slot.slot_id, slot.item_id, slot.time, slot.deal_title) if v}
        facts |= {str(v) for v in (slot.reservation_time, slot.seats_left) if v is not None}
        facts |= {_money(slot.paid_price)} if slot.paid_price is not None else set()
    _assert_all_in(facts, reduced.text)
    assert value["data"]["restaurantId"] == venue
    # Each slot's deals repeat the first slot's: said once, then referred back to.
    assert "deals (same as the item before)" in " ".join(value["_reduced"]["dropped"])


def test_a_week_of_slots_keeps_whole_leading_slots(shop):
    venue = shop.dineout.search("biryani", None, ORIGIN, 10, 0)["restaurants"][0]["id"]
    data = shop.dineout.slots(venue, shop.dineout._today().isoformat(), ORIGIN)
    _, value = _reduced_json(ok(data, "Slots."))
    kept = value["data"]["slots"]
    assert value["_reduced"]["kept_items"] == {"data.slots": f"{len(kept)} of {len(data['slots'])}"}
    for original, short in zip(data["slots"], kept, strict=False):
        for key in ("slotId", "displayTime", "reservationTime", "availableInventory"):
            assert short[key] == original[key]
    first_deals = kept[0]["deals"]
    assert [deal["itemId"] for deal in first_deals] == [
        d["itemId"] for d in data["slots"][0]["deals"]
    ]
    assert [deal["bookingPrice"] for deal in first_deals] == [
        d["bookingPrice"] for d in data["slots"][0]["deals"]
    ]


def test_back_references_point_at_kept_items_when_the_query_picks_later_ones(shop):
    venue = shop.dineout.search("biryani", None, ORIGIN, 10, 0)["restaurants"][0]["id"]
    data = shop.dineout.slots(venue, shop.dineout._today().isoformat(), ORIGIN)
    wanted = data["slots"][-1]["dateStr"]
    reduced = reduce_for_model(ok(data, "Slots."), query=wanted)
    kept = _strict_loads(reduced.text)["data"]["slots"]
    assert kept[-1]["slotId"] == data["slots"][-1]["slotId"]  # the asked-for day is kept
    positions = [[s["slotId"] for s in data["slots"]].index(slot["slotId"]) for slot in kept]
    assert positions == sorted(positions) and positions != list(range(len(kept)))
    assert any(slot["deals"] == SAME_AS_BEFORE for slot in kept)
    # A reader that wants the structure back (the sandbox's planner) expands them.
    by_id = {slot["slotId"]: slot for slot in data["slots"]}
    for slot in expand_back_references(kept):
        original = by_id[slot["slotId"]]["deals"]
        assert [d["itemId"] for d in slot["deals"]] == [d["itemId"] for d in original]
        assert [d["bookingPrice"] for d in slot["deals"]] == [d["bookingPrice"] for d in original]


def test_restaurants_keep_ids_names_and_cost_and_lose_prose_first():
    restaurants = [
        {
            "id": str(1000 + i),
            "name": f"Kitchen {i}",
            "costForTwo": f"₹{300 + i} for two",
            "availabilityStatus": "OPEN",
            "avgRating": 4.1,
            "cuisines": ["North Indian", "Chinese"],
            "imageUrl": f"https://media.example/img/{i}.jpg",
            "description": "A long story about the kitchen. " * 12,
            "analytics": {"impressionId": f"imp-{i}", "rank": i, "experiments": ["a", "b"]},
        }
        for i in range(12)
    ]
    text = json.dumps({"success": True, "data": {"restaurants": restaurants}}, indent=2)
    card = parse_tool_result("search_restaurants", text, "foodorder", {})
    assert isinstance(card, RestaurantsResult)
    reduced, value = _reduced_json(text)
    facts = {item.restaurant_id for item in card.items} | {item.name for item in card.items}
    facts |= {_money(item.cost_for_two) for item in card.items if item.cost_for_two}
    _assert_all_in(facts, reduced.text)
    assert "A long story" not in reduced.text and "imp-0" not in reduced.text
    kept = value["data"]["restaurants"][0]
    assert kept["availabilityStatus"] == "OPEN"
    # MEDIUM fields (rating, image) stay while the LOW ones make room.
    assert kept["avgRating"] == 4.1 and kept["imageUrl"].endswith("/0.jpg")
    dropped = value["_reduced"]["dropped"]
    assert any(name.startswith("description") for name in dropped)
    assert any(name.startswith("analytics") for name in dropped)


def test_only_the_first_image_of_a_gallery_is_kept():
    record = {
        "id": "r1",
        "name": "Venue",
        "imageUrls": [f"https://media.example/{i}.jpg" for i in range(300)],
    }
    reduced = reduce_for_model(json.dumps(record), limit=2_000)
    value = _strict_loads(reduced.text)
    assert value["imageUrls"] == ["https://media.example/0.jpg"]
    assert value["id"] == "r1" and value["name"] == "Venue"
    assert "imageUrls beyond the first ×299" in value["_reduced"]["dropped"]


def test_long_strings_are_shortened_before_items_are_dropped():
    items = [{"id": f"i{i}", "name": f"Dish {i} " + "with a long name " * 20} for i in range(10)]
    reduced = reduce_for_model(json.dumps({"items": items}), limit=2_000)
    value = _strict_loads(reduced.text)
    assert [item["id"] for item in value["items"]] == [f"i{i}" for i in range(10)]
    assert all(item["name"].endswith("…") for item in value["items"])
    assert value["_reduced"]["texts_shortened"] == 10


def test_a_top_level_list_stays_a_list_with_the_note_last():
    rows = [
        {"orderId": f"o{i}", "total": i, "trackingUrl": "https://t.example/" + "x" * 80}
        for i in range(200)
    ]
    reduced = reduce_for_model(json.dumps(rows), limit=3_000)
    value = _strict_loads(reduced.text)
    assert isinstance(value, list) and "_reduced" in value[-1]
    assert value[0] == {"orderId": "o0", "total": 0}
    assert len(reduced.text) <= 3_000


def test_html_becomes_text_with_headings_and_table_rows():
    rows = "".join(f"<tr><td>Item {i}</td><td>₹{100 + i}</td></tr>" for i in range(400))
    html = (
        "<html><head><style>td { color: red }</style><script>var secret = 1;</script></head>"
        "<body><h1>Order summary</h1><p>Thanks for ordering.</p>"
        f"<table>{rows}</table></body></html>"
    )
    reduced = reduce_for_model(html, limit=2_000)
    assert reduced.reduced and len(reduced.text) <= 2_000 + REDUCE_SLACK
    assert "<td" not in reduced.text and "<h1" not in reduced.text
    assert "var secret" not in reduced.text and "color: red" not in reduced.text
    assert "# Order summary" in reduced.text
    assert "Item 0 | ₹100" in reduced.text
    assert reduced.text.rstrip().endswith("]") and "[reduced: HTML as text" in reduced.text
    assert "HTML as text" in reduced.dropped


def test_text_keeps_query_lines_and_id_price_lines_before_the_head():
    filler = [f"Some chatter about nothing in particular, line {'x' * 40}" for _ in range(300)]
    lines = ["Welcome to the store", *filler]
    lines[150] = "Amul Gold Milk 1 L (ID: 9981) costs ₹68"
    lines[200] = "Paneer tikka (ID: 5521) ₹249"
    lines = [line.replace("line", "row") for line in lines]
    text = "\n".join(lines)
    reduced = reduce_for_model(text, limit=600, query="amul milk")
    assert len(reduced.text) <= 600 + REDUCE_SLACK
    assert "Amul Gold Milk 1 L (ID: 9981) costs ₹68" in reduced.text
    assert "Paneer tikka (ID: 5521) ₹249" in reduced.text
    assert reduced.text.startswith("Welcome to the store")
    assert "…" in reduced.text  # gaps are marked
    assert reduced.text.splitlines()[-1].startswith("[reduced: kept")


def test_deep_nesting_and_a_megabyte_finish_as_json():
    deep = "[" * 50_000 + "]" * 50_000
    value = _strict_loads(reduce_for_model(deep).text)
    assert isinstance(value, list) and "_reduced" in value[-1]
    nested = {"id": "top"}
    for _ in range(600):
        nested = {"id": "x", "child": nested}
    out = _strict_loads(reduce_for_model(json.dumps(nested), limit=1_000).text)
    assert out["id"] == "x" and "_reduced" in out
    big = {"products": [{"productId": f"p{i}", "description": "d" * 200} for i in range(5_000)]}
    text = json.dumps(big)
    assert len(text) > 1_000_000
    reduced = reduce_for_model(text)
    assert len(reduced.text) <= LARGE_RESULT_CHARS
    assert _strict_loads(reduced.text)["products"][0] == {"productId": "p0"}
    assert len(reduce_for_model("word " * 250_000).text) <= LARGE_RESULT_CHARS + REDUCE_SLACK


def test_lone_surrogates_come_out_encodable():
    text = json.dumps({"name": "\ud800" * 3000, "id": "a1"})
    out = reduce_for_model(text, limit=500).text
    out.encode("utf-8")
    assert _strict_loads(out)["id"] == "a1"


# Keys of real results as well as any text, so that the reducer's own rules are exercised.
RESULT_KEYS = st.sampled_from(["id", "name", "price", "description", "imageUrl", "rating"])


@MANY_JSON_EXAMPLES
@given(case=json_cases(max_leaves=80, max_limit=800, keys=RESULT_KEYS | ANY_KEY))
def test_property_json_in_json_out_within_the_limit(case: JsonCase):
    value, text, limit = case.value, case.text, case.limit
    reduced = reduce_for_model(text, limit=limit, query=case.query)
    if len(text) <= limit:
        assert reduced == Reduced(text, (), False)
        return
    assert reduced.reduced
    # Only a limit too small for the note itself is exceeded, and by no more than the note.
    assert len(reduced.text) <= max(limit, REDUCE_SLACK)
    out = _strict_loads(reduced.text)
    reduced.text.encode("utf-8")
    if isinstance(value, dict | list):
        assert type(out) is type(value)


@given(text=st.text(max_size=1_500), limit=st.integers(min_value=0, max_value=600))
def test_property_any_text_is_reduced_within_the_limit(text, limit):
    reduced = reduce_for_model(text, limit=limit, query="milk")
    if len(text) <= limit:
        assert reduced.text == text and not reduced.reduced
    else:
        assert reduced.reduced
        assert len(reduced.text) <= max(limit, REDUCE_SLACK)
