"""Model replies, tool results and typed text cannot load anything, link off https, or look
like the app's own cards; card images are never fetched by the server.

A loopback HTTP service stands in for anything a hostile payload could point at: it
answers every request with HTML after a delay (what used to crash the page and block it)
and counts the requests. AppTest runs the real app without a browser, so any hit on it
during a render came from the server.
"""

from __future__ import annotations

import importlib.util
import json
import math
import re
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from http_thread import served
from streamlit.testing.v1 import AppTest
from uihelpers import bordered_blocks, buttons, open_page, store_reply, use_scripted_model

from swiggy_core.models import block_from_dict
from swiggy_sandbox.emulator import text_turn
from swiggy_ui.cards.outcomes import APP_BADGE, APP_BADGE_ICON, ORDER_PLACED_TITLE

BROWSER = "fedcba9876543210fedcba9876543210"
VIEWER = f"b-{BROWSER}@sandbox"  # the store's key for this browser in the sandbox world
PAGE = "nutricart"
APP_BADGE_BODY = f":green-badge[{APP_BADGE_ICON} {APP_BADGE}]"
APP_ORDER_BODY = ORDER_PLACED_TITLE
TILE_RE = re.compile(
    r'<div class="swiggy-card-image" role="presentation" style="(?P<style>[^"<>]*)">'
    # an image, or the category's icon (a Material Symbols ligature) on a blank tile
    r'(?:<span aria-hidden="true" style="[^"<>]*">[a-z_]+</span>)?</div>'
)

# The hazard reader of the unit tests (what a Markdown source would render).
_spec = importlib.util.spec_from_file_location(
    "safe_text_reader", Path(__file__).parents[1] / "unit" / "test_safe_text.py"
)
assert _spec is not None and _spec.loader is not None
_reader = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_reader)
hazards = _reader.hazards


class Listener:
    """A loopback service that answers slowly with HTML and records every request."""

    DELAY = 1.3

    def __init__(self) -> None:
        self.hits: list[str] = []
        hits = self.hits
        delay = self.DELAY

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                hits.append(self.path)
                time.sleep(delay)
                body = b"<html><body>not an image</body></html>"
                self.send_response(200)
                self.send_header("content-type", "text/html")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"

    def url(self, path: str) -> str:
        return f"{self.origin}{path}"


@pytest.fixture(scope="module")
def listener_service() -> Iterator[Listener]:
    service = Listener()
    with served(service.server):
        yield service


@pytest.fixture
def listener(listener_service: Listener) -> Listener:
    listener_service.hits.clear()
    return listener_service


def _attack(listener: Listener) -> str:
    pixel = listener.url("/pixel?chat=secret")
    return (
        f"![x]({pixel}) :green[**Order placed**] ✅ [click](data:text/html,<script>x</script>) "
        f":material/check_circle: :white_check_mark: :green-badge[Verified] <img src={pixel}> "
        f"[c](javascript:alert(1)) see http://{pixel[7:]}"
    )


def _store_chat(vertical_id: str, results: list[tuple[str, object]]) -> None:
    """A stored conversation of the viewer: one reply with these tool calls and results."""
    blocks = []
    for index, (name, payload) in enumerate(results):
        tool_id = f"mcptoolu_{index}"
        blocks += [
            block_from_dict(
                {
                    "type": "mcp_tool_use",
                    "id": tool_id,
                    "name": name,
                    "server_name": "swiggy-instamart",
                    "input": {},
                }
            ),
            block_from_dict(
                {
                    "type": "mcp_tool_result",
                    "tool_use_id": tool_id,
                    "is_error": False,
                    # json.dumps writes NaN and Infinity as the parser (json.loads) reads them.
                    "content": [{"type": "text", "text": json.dumps(payload)}],
                }
            ),
        ]
    store_reply(VIEWER, vertical_id, "show me everything", blocks)


def _render_stored(app: AppTest) -> AppTest:
    app.session_state["browser_id"] = BROWSER  # as if the browser sent its cookie
    return open_page(app, PAGE)


def _product(name: str, price: object, image: str | None = None, **extra: object) -> dict:
    variation: dict[str, object] = {"spinId": f"s-{name[:20]}", "price": {"offerPrice": price}}
    if image is not None:
        variation["imageUrl"] = image
    return {"displayName": name, "productId": f"p-{name[:20]}", "variations": [variation], **extra}


def _products(*items: dict) -> dict:
    return {"success": True, "data": {"products": list(items)}}


def _chat_bodies(at: AppTest) -> list[str]:
    """Every text the chat shows as Markdown: bodies, captions, alerts, labels."""
    bodies: list[str] = []
    for message in at.chat_message:
        for kind in ("markdown", "caption", "warning", "success", "info", "error"):
            bodies += [str(element.value) for element in message.get(kind)]
        bodies += [str(button.label) for button in message.button]
        bodies += [str(expander.label) for expander in message.expander]
    return bodies


def _tiles(at: AppTest) -> list[str]:
    return [str(m.value) for m in at.markdown if m.proto.allow_html]


def _assert_inert(at: AppTest) -> None:
    """Nothing in the chat can load, link off https or imitate the app."""
    assert not at.exception
    assert not at.get("imgs"), "st.image makes the server fetch a URL"
    for body in _chat_bodies(at):
        if TILE_RE.fullmatch(body):
            continue
        assert hazards(body) == [], body
        assert body not in (APP_BADGE_BODY, APP_ORDER_BODY)
    assert all(TILE_RE.fullmatch(tile) for tile in _tiles(at))


# --- images -----------------------------------------------------------------------------


def test_card_images_are_never_fetched_by_the_server(app, listener):
    cdn = "https://media-assets.swiggy.com/swiggy/image/upload/ok.png"
    loopback = [_product(f"Loopback {i}", 30, listener.url(f"/img{i}.png")) for i in range(10)]
    _store_chat(
        "food",
        [
            (
                "search_products",
                _products(
                    *loopback,
                    _product("Swiggy CDN", 40, cdn),
                    _product("Tracker", 50, "https://tracker.example/p.png?chat=secret"),
                ),
            )
        ],
    )
    started = time.monotonic()
    at = _render_stored(app)
    assert not at.exception  # HTML where an image was expected used to crash the page
    assert listener.hits == []
    more = [b for b in at.button if b.label.startswith("Show ") and b.label.endswith(" more")]
    assert more, "the grid starts short"
    more[0].click().run()
    assert not at.exception
    assert len(buttons(at, "Add")) == 12  # every card rendered
    assert listener.hits == []  # not one request from the server, for any of the 12
    # Ten slow images used to hold the page for over 13 s; nothing waits on them now.
    assert time.monotonic() - started < 60
    assert not at.get("imgs")
    tiles = _tiles(at)
    # The tracker's URL is dropped when the result is parsed: that card has no tile at all.
    assert len(tiles) == 11 and all(TILE_RE.fullmatch(tile) for tile in tiles)
    shown = [url for tile in tiles for url in re.findall(r"url\(&quot;(.*?)&quot;\)", tile)]
    # Only the allow-listed host is handed to the browser; the loopback ones are blank tiles.
    assert shown == [cdn]


def _one_image(url: str, origin: str | None) -> None:
    from swiggy_ui.cards.images import card_image

    card_image(url, origin)


def test_sandbox_images_are_shown_only_from_the_exact_sandbox_origin(listener):
    image = listener.url("/img/product/p1.svg")
    allowed = AppTest.from_function(_one_image, args=(image, listener.origin)).run()
    other_port = AppTest.from_function(_one_image, args=(image, "http://127.0.0.1:1")).run()
    no_sandbox = AppTest.from_function(_one_image, args=(image, None)).run()
    for at in (allowed, other_port, no_sandbox):
        assert not at.exception and not at.get("imgs")
    assert f"url(&quot;{image}&quot;)" in _tiles(allowed)[0]  # for the browser to fetch
    assert "url(" not in _tiles(other_port)[0] and "url(" not in _tiles(no_sandbox)[0]
    assert listener.hits == []  # even the allowed one is never fetched by the server


# --- text from tools --------------------------------------------------------------------


def test_tool_text_cannot_imitate_the_app_or_load_anything(app, listener):
    attack = _attack(listener)
    _store_chat(
        "food",
        [
            (
                "search_products",
                _products(
                    _product(attack, 30, brand=":red-background[Payment failed]"),
                    _product("Curd", 40, description=attack, quantityDescription=attack),
                ),
            ),
            ("update_cart", {"success": False, "message": attack}),
            (
                "get_addresses",
                {
                    "success": True,
                    "data": {"addresses": [{"id": "a1", "label": attack, "address": attack}]},
                },
            ),
        ],
    )
    at = _render_stored(app)
    _assert_inert(at)
    assert listener.hits == []
    # The words are still there, as text.
    text = "\n".join(_chat_bodies(at))
    assert "Order placed" in text and "Payment failed" in text
    assert len(at.chat_message) == 2  # the person's message and the reply: no app card


def test_bad_prices_in_tool_results_read_price_unknown(app):
    _store_chat(
        "food",
        [
            (
                "search_products",
                _products(
                    _product("Nan milk", math.nan),
                    _product("Negative milk", -30),
                    _product("Huge milk", 5e7),
                    _product("Infinite milk", math.inf),
                    _product("Fine milk", 27),
                ),
            )
        ],
    )
    at = _render_stored(app)
    assert not at.exception
    prices = [str(m.value) for m in at.markdown if "₹" in str(m.value) or "price" in str(m.value)]
    assert prices.count("_price unknown_") == 4, prices
    assert "**₹27**" in prices
    assert not any("-₹" in p or "5,00,00,000" in p or "nan" in p.lower() for p in prices)


# --- text from the model and the person -------------------------------------------------


def test_model_and_typed_text_cannot_imitate_the_app_or_load_anything(app, scripted, listener):
    attack = _attack(listener)
    scripted.brain.enqueue(text_turn(f"Sure.\n\n{attack}\n\n**Done**"))
    at = open_page(app, PAGE)
    use_scripted_model(at, scripted)
    at.run()
    at.chat_input[0].set_value(f"find milk {attack}").run()
    _assert_inert(at)
    assert listener.hits == []
    assert [m.name for m in at.chat_message] == ["user", "assistant"]
    reply = at.chat_message[1]
    assert "Order placed" in "\n".join(str(m.value) for m in reply.markdown)
    assert bordered_blocks(reply) == 0 and not reply.get("imgs")
    assert "Order placed" in "\n".join(str(m.value) for m in at.chat_message[0].markdown)


def _streamed(chunks: list[str]) -> None:
    from swiggy_ui.chat import _stream_text

    _stream_text(iter(chunks))


def test_a_streaming_reply_is_made_safe_as_a_whole(listener):
    """A directive or image split across chunks is still caught while it streams."""
    attack = _attack(listener)
    chunks = [attack[i : i + 3] for i in range(0, len(attack), 3)]
    at = AppTest.from_function(_streamed, args=(chunks,)).run()
    assert not at.exception
    (shown,) = [str(m.value) for m in at.markdown]
    assert hazards(shown) == [], shown
    assert "Order placed" in shown


# --- the app's own cards ----------------------------------------------------------------


def _order_card() -> None:
    from swiggy_core.parsers import OrderPlacedResult
    from swiggy_core.verticals import get_vertical
    from swiggy_ui.cards import CardContext, render_result

    result = OrderPlacedResult(order_id="OD-42", amount=275.0, status="PLACED")
    render_result(result, CardContext(key="order", vertical=get_vertical("food")))


def test_the_order_card_has_marks_no_text_can_produce(app, scripted, listener):
    card = AppTest.from_function(_order_card).run()
    bodies = [str(m.value) for m in card.markdown]
    assert bodies[:2] == [APP_BADGE_BODY, APP_ORDER_BODY]
    assert bordered_blocks(card.main) == 1
    # The same words from the model: no badge, no colour, no border.
    scripted.brain.enqueue(text_turn(f"{APP_BADGE_BODY}\n\n{APP_ORDER_BODY}\n\nOrder id `OD-42`"))
    at = open_page(app, PAGE)
    use_scripted_model(at, scripted)
    at.run()
    at.chat_input[0].set_value("place my order").run()
    reply = at.chat_message[-1]
    reply_bodies = [str(m.value) for m in reply.markdown]
    assert reply_bodies and not set(bodies[:2]) & set(reply_bodies)
    assert bordered_blocks(reply) == 0
    assert all(hazards(body) == [] for body in reply_bodies), reply_bodies
