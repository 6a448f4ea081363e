"""Card layout rules a shopper sees: grids, images, dates and times, the slot picker,
distances, read-only old pickers and the empty-search card.

Each test renders the real card renderer in an AppTest script from a parsed result (the
shapes the parsers produce; the parsers themselves have their own tests).
"""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest
from uihelpers import bordered_blocks, buttons, texts

from swiggy_core.mcp import call_tool
from swiggy_core.parsers import (
    BookingConfirmedResult,
    InfoResult,
    ProductItem,
    ProductsResult,
    RestaurantItem,
    RestaurantsResult,
    SlotDay,
    StatusResult,
    TimeSlot,
    TimeSlotsResult,
    parse_tool_result,
)
from swiggy_sandbox.servers import DEMO_TOKEN, SandboxHttpServer
from swiggy_ui.cards.grid import GRID_KEY_PREFIX, INITIAL_ITEMS
from swiggy_ui.cards.slots import NEAR_KEY_PREFIX

TIMEOUT = 60
CDN = "https://media-assets.swiggy.com/swiggy/image/upload/ok.png"


def _card(result: object, vertical_id: str, live: bool, asked: str | None) -> None:
    from swiggy_core.verticals import get_vertical
    from swiggy_ui.cards import CardContext, render_result

    vertical = get_vertical(vertical_id)
    ctx = CardContext(key="t", vertical=vertical, live=live, requested_time=asked)
    render_result(result, ctx)  # type: ignore[arg-type]


def _render(
    result: object, vertical_id: str = "food", *, live: bool = True, asked: str | None = None
) -> AppTest:
    args = (result, vertical_id, live, asked)
    at = AppTest.from_function(_card, args=args, default_timeout=TIMEOUT)
    at.run()
    assert not at.exception
    return at


def _products(count: int, image_url: str | None = None) -> ProductsResult:
    items = [
        ProductItem(name=f"Bar {i}", spin_id=f"S{i}", price=50, image_url=image_url)
        for i in range(count)
    ]
    return ProductsResult(items=items, tool_name="search_products")


# --- grids and images -------------------------------------------------------------------


def _grids(node: object) -> list[object]:
    """The card grids under `node` (keyed containers, see swiggy_ui.cards.grid)."""
    found = [node] if f"-{GRID_KEY_PREFIX}" in getattr(node, "_block_id", "") else []
    children = getattr(node, "children", None)
    for child in children.values() if isinstance(children, dict) else []:
        found += _grids(child)
    return found


def _grid_style(at: AppTest) -> str:
    """The grid's stylesheet (style-only HTML goes to the page's event container)."""
    event = at._tree.children[2]
    bodies = [node.proto.body for node in event.children.values() if node.type == "html"]
    return "\n".join(body for body in bodies if GRID_KEY_PREFIX in body)


def test_a_lone_result_sits_in_a_normal_width_column():
    at = _render(_products(1))
    (grid,) = _grids(at._tree)
    assert grid.proto.flex_container.wrap  # one wrapping row, not columns that stack
    assert not at.columns
    assert bordered_blocks(grid) == 1  # one card, no empty frames beside it
    style = _grid_style(at)
    # A third of the row and never grown: one result is as wide as one card of three.
    assert "flex: 0 0 calc((100% - 2 * var(--card-gap)) / 3)" in style


def test_a_phone_keeps_two_cards_a_row():
    at = _render(_products(4))
    (grid,) = _grids(at._tree)
    assert bordered_blocks(grid) == 4  # a frame per card only
    style = _grid_style(at)
    narrow = style[style.index("@media (max-width: 639.98px)") :]
    assert "flex-basis: calc((100% - var(--card-gap)) / 2)" in narrow


def _two_results() -> None:
    """One grid at the same place in the chat: "Show more" is pressed in chat a only."""
    import streamlit as st

    from swiggy_core.parsers import ProductItem, ProductsResult
    from swiggy_core.verticals import get_vertical
    from swiggy_ui.cards import CardContext, render_result

    chat = st.session_state.get("chat", "a")
    items = [ProductItem(name=f"{chat} bar {i}", spin_id=f"{chat}{i}", price=50) for i in range(10)]
    result = ProductsResult(items=items, tool_name="search_products")
    render_result(result, CardContext(key="m3-1", vertical=get_vertical("food")))


def test_show_more_is_remembered_for_that_result_only():
    at = AppTest.from_function(_two_results, default_timeout=TIMEOUT)
    at.run()
    assert len(buttons(at, "Add")) == INITIAL_ITEMS
    (more,) = [b for b in at.button if b.label == "Show 4 more"]
    more.click().run()
    assert len(buttons(at, "Add")) == 10 and not [b for b in at.button if "more" in b.label]
    at.run()
    assert len(buttons(at, "Add")) == 10  # remembered across reruns
    # Another chat's result in the same place starts short again.
    at.session_state["chat"] = "b"
    at.run()
    assert len(buttons(at, "Add")) == INITIAL_ITEMS
    assert [b.label for b in at.button if "more" in b.label] == ["Show 4 more"]


def test_images_are_compact_and_an_unloadable_one_is_a_small_icon_tile():
    real = texts(m for m in _render(_products(1, CDN)).markdown if m.proto.allow_html)
    assert f"url(&quot;{CDN}&quot;)" in real and "height:96px" in real
    assert "aspect-ratio" not in real  # never as tall as the card is wide
    blocked = texts(
        m for m in _render(_products(1, "http://10.0.0.1/p.png")).markdown if m.proto.allow_html
    )
    assert "url(" not in blocked and "height:44px" in blocked and ">shopping_cart<" in blocked


# --- dates, times and distances ---------------------------------------------------------


def test_the_booking_card_says_the_time_as_the_rest_of_the_app_does():
    booking = BookingConfirmedResult(
        booking_id="DO-1", restaurant_name="Toit", date_time="2026-11-23 20:00", guest_count=4
    )
    captions = texts(_render(booking, "dining").caption)
    assert "Mon 23 Nov, 8:00 PM" in captions
    assert "20:00" not in captions and "2026-11-23" not in captions


def test_unknown_or_zero_distances_are_hidden():
    restaurants = RestaurantsResult(
        items=[
            RestaurantItem(name="Toit", restaurant_id="1", distance_km=0.0, locality="Indiranagar"),
            RestaurantItem(name="Nowhere", restaurant_id="2"),
            RestaurantItem(name="Burma Burma", restaurant_id="3", distance_km=2.34),
        ],
        tool_name="search_restaurants_dineout",
    )
    markdown = texts(_render(restaurants, "dining").markdown)
    assert "0.0 km" not in markdown and "0 km" not in markdown
    assert "2.3 km" in markdown and "Indiranagar" in markdown


# --- the slot picker --------------------------------------------------------------------


def _slot(minutes: int, date: str, **terms: object) -> TimeSlot:
    text = f"{minutes // 60:02d}:{minutes % 60:02d}"  # as some servers write it: "20:00"
    return TimeSlot(
        time=text,
        slot_id=f"{date}-{minutes}",
        item_id="free",
        date=date,
        minutes=minutes,
        **terms,  # type: ignore[arg-type]
    )


def _picker(requested_open: bool = True, days: int = 2) -> TimeSlotsResult:
    dates = [f"2026-11-{23 + d}" for d in range(days)]
    grouped = []
    for date in dates:
        slots = [_slot(m, date) for m in (8 * 60, 8 * 60 + 30, 13 * 60)]
        slots += [_slot(m, date, requested=(date == dates[0] and m == 20 * 60))
                  for m in range(18 * 60, 23 * 60, 30)]  # fmt: skip
        slots.append(_slot(23 * 60, date, available=False, free=False))  # full
        slots.append(_slot(22 * 60 + 45, date, free=False, paid_price=210))  # paid only
        grouped.append(SlotDay(date=date, slots=slots))
    if not requested_open:
        first = grouped[0].slots
        index = next(i for i, slot in enumerate(first) if slot.requested)
        first[index] = first[index].model_copy(update={"seats_left": 0, "available": False})
    return TimeSlotsResult(
        days=grouped,
        restaurant_id="R1",
        requested_date=dates[0],
        requested_time="20:00",
        requested_available=requested_open,
        tool_name="get_available_slots",
    )


def test_slots_are_grouped_by_day_and_meal_in_one_time_format():
    at = _render(_picker(), "dining")
    assert [tab.label for tab in at.tabs] == ["Mon 23 Nov", "Tue 24 Nov"]
    captions = texts(at.caption)
    for meal in ("**Breakfast**", "**Lunch**", "**Dinner**"):
        assert meal in captions
    labels = {button.label for button in at.button}
    assert {"8:00 AM", "1:00 PM", "8:00 PM", "10:30 PM"} <= labels
    assert not any(":" in label and label[-1].isdigit() for label in labels)  # no "20:00"
    assert "Full: 11:00 PM" in captions
    assert "10:45 PM ₹210 — paid prebook, not bookable here" in captions


def test_the_requested_time_is_filled_and_its_neighbours_outlined():
    at = _render(_picker(), "dining")
    first_day = at.tabs[0]
    primary = [b.label for b in first_day.button if b.proto.type == "primary"]
    assert primary == ["8:00 PM"]  # filled reads as chosen: only the asked time
    assert _outlined(first_day) == ["7:00 PM", "7:30 PM", "8:30 PM", "9:00 PM"]
    (asked,) = [b for b in first_day.button if b.label == "8:00 PM"]
    assert asked.proto.icon == ":material/star:"
    # Another day has no asked-for time: nothing stands out there.
    assert all(b.proto.type != "primary" for b in at.tabs[1].button)


def test_a_taken_requested_time_is_greyed_and_its_neighbours_offered():
    at = _render(_picker(requested_open=False), "dining")
    assert "8:00 PM is not available" in texts(at.warning)
    first_day = at.tabs[0]
    (asked,) = [b for b in first_day.button if b.label == "8:00 PM"]
    assert asked.disabled and asked.proto.type != "primary"
    assert not [b for b in first_day.button if b.proto.type == "primary"]
    assert _outlined(first_day) == ["7:00 PM", "7:30 PM", "8:30 PM", "9:00 PM"]


def test_the_time_asked_for_in_the_chat_stands_out_when_the_tool_had_none():
    # Swiggy's get_available_slots takes a date only: the page passes the asked-for time.
    dateless = _picker().model_copy(update={"requested_time": None})
    at = _render(dateless, "dining", asked="8 pm")
    primary = [b.label for b in at.tabs[0].button if b.proto.type == "primary"]
    assert primary == ["8:00 PM"]
    assert _outlined(at.tabs[0]) == ["7:00 PM", "7:30 PM", "8:30 PM", "9:00 PM"]
    assert not at.warning
    assert all(b.proto.type != "primary" for b in _render(dateless, "dining").button)


def _outlined(day) -> list[str]:
    return [b.label for b in day.button if (b.key or "").startswith(NEAR_KEY_PREFIX)]


def test_only_a_few_days_are_shown_at_a_time():
    at = _render(_picker(days=5), "dining")
    assert len(at.tabs) == 3
    assert "2 more days available" in texts(at.caption)


def test_an_older_slot_picker_is_read_only():
    at = _render(_picker(), "dining", live=False)
    assert not at.button  # nothing to press on numbers that may be stale
    captions = texts(at.caption)
    assert "read-only" in captions
    assert "Dinner: 6:00 PM, 6:30 PM" in captions
    assert not at.warning


# --- empty results ----------------------------------------------------------------------


def test_an_empty_product_search_is_a_friendly_card():
    empty = StatusResult(
        success=True, message="Found 0 product(s) for 'unicorn milk'.", tool_name="search_products"
    )
    at = _render(empty, "food")
    markdown = texts(at.markdown)
    assert "Nothing found for “unicorn milk”" in markdown
    assert "Try a shorter, more general name" in texts(at.caption)
    assert "Or ask:" in texts(at.caption)
    assert not at.success


def test_an_empty_restaurant_search_is_a_friendly_card_not_a_data_card():
    empty = InfoResult(
        fields={
            "message": "0 restaurant(s) for 'zzqq'.",
            "query": "zzqq",
            "totalRestaurants": "0",
            "hasMore": "no",
        },
        tool_name="search_restaurants",
    )
    at = _render(empty, "foodorder")
    markdown = texts(at.markdown)
    assert "Nothing found for “zzqq”" in markdown
    assert "totalRestaurants" not in markdown and "**message**" not in markdown


def test_facts_that_are_not_an_empty_search_stay_a_data_card():
    facts = InfoResult(fields={"status": "DELIVERED", "total": "0"}, tool_name="track_order")
    assert "**status**: DELIVERED" in texts(_render(facts, "foodorder").markdown)


def test_a_closed_restaurant_says_when_it_opens_in_the_same_time_format():
    closed = RestaurantsResult(
        items=[
            RestaurantItem(name="Nagarjuna", restaurant_id="1", is_open=False, next_open="12:00")
        ],
        dishes=[ProductItem(name="Paneer Biryani", price=259, restaurant_name="Meghana Foods")],
        tool_name="search_restaurants",
    )
    at = _render(closed, "foodorder")
    captions = texts(at.caption)
    assert "Opens 12:00 PM" in captions
    assert "Meghana Foods" in captions  # a dish found across restaurants says where from


@pytest.mark.parametrize(
    ("server", "tool", "vertical_id"),
    [
        ("instamart", "search_products", "food"),
        ("food", "search_restaurants", "foodorder"),
        ("dineout", "search_restaurants_dineout", "dining"),
    ],
)
def test_the_sandbox_s_empty_searches_read_nothing_found(server, tool, vertical_id):
    with SandboxHttpServer() as sandbox:
        url = sandbox.url_for(server)
        where: dict[str, object] = {"latitude": 12.97, "longitude": 77.64}
        if server != "dineout":
            listed = json.loads(call_tool(url, DEMO_TOKEN, "get_addresses", {}).text)
            where = {"addressId": listed["data"]["addresses"][0]["id"]}
        arguments = {"query": "zzqq unicorn", **where}
        answer = call_tool(url, DEMO_TOKEN, tool, arguments)
    assert not answer.is_error
    parsed = parse_tool_result(
        tool, [{"type": "text", "text": answer.text}], vertical_id, arguments
    )
    at = _render(parsed, vertical_id)
    assert "Nothing found for “zzqq unicorn”" in texts(at.markdown)
    assert "total" not in texts(at.markdown).lower()
