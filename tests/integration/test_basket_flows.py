"""A shopping list to a basket review to one cart write, against the sandbox shop, with the
emulator through the real SDK: a typed list, a CSV file, and a photo (read by a scripted
model; the offline planner says plainly that it cannot read photos)."""

from __future__ import annotations

import base64
import io
from collections.abc import Iterator
from typing import Any

import anthropic
import pytest
from PIL import Image
from session_peers import ADDRESS, MODEL, Shop, finish, new_session, new_shop

from swiggy_core.actions import action_message, typed_message
from swiggy_core.basket import CART_TOOL, cart_arguments, default_choices
from swiggy_core.basket_list import read_file, read_list
from swiggy_core.basket_photo import LONG_EDGE_PX, Photo, prepare_photo
from swiggy_core.basket_records import BasketReview
from swiggy_core.basket_reply import BASKET_REVIEW_FOR_MODEL
from swiggy_core.basket_turn import list_answer, photo_answer
from swiggy_core.errors import ErrorCode
from swiggy_core.mcp import McpManager
from swiggy_core.models import CardAction, McpToolUseBlock
from swiggy_core.reorder_reads import current_cart
from swiggy_core.saved_addresses import Reader
from swiggy_core.store import ChatStore
from swiggy_core.turn.session import ChatSession
from swiggy_core.verticals import get_vertical
from swiggy_sandbox.emulator import EmulatorServer
from swiggy_sandbox.emulator.brains import ScriptedBrain
from swiggy_sandbox.emulator.script import ScriptedTurn
from swiggy_sandbox.planner import PlannerBrain
from swiggy_sandbox.planner.brain import PHOTO_NEEDS_VISION
from swiggy_sandbox.servers import SandboxHttpServer

NUTRICART = get_vertical("food")
LIST = "1 l milk, a dozen eggs, brown bread x2, something for dal tadka"


@pytest.fixture(scope="module")
def planner() -> Iterator[EmulatorServer[Any]]:
    with EmulatorServer(PlannerBrain()) as server:
        yield server


@pytest.fixture
def shop(shop_server: SandboxHttpServer, app_mcp: McpManager) -> Shop:
    return new_shop(shop_server, app_mcp)


def _reader(shop: Shop) -> Reader:
    url = shop.sandbox.url_for("instamart")
    return lambda tool, args: shop.manager.call_tool(url, shop.token, tool, args).envelope_text()


def _cart(shop: Shop) -> dict[str, int]:
    items = shop.call("instamart", "get_cart", {})["data"]["items"]
    return {item["spinId"]: item["quantity"] for item in items}


def _stored_review(session: ChatSession) -> BasketReview:
    reply = session.history()[-1]
    assert reply.role == "assistant" and reply.meta.basket is not None, reply
    return reply.meta.basket


def _tool_uses(session: ChatSession) -> list[McpToolUseBlock]:
    reply = session.history()[-1]
    return [block for block in reply.blocks() if isinstance(block, McpToolUseBlock)]


def test_a_typed_list_is_reviewed_then_added_in_one_merged_cart_write(
    store: ChatStore, shop: Shop, planner: EmulatorServer[Any]
) -> None:
    shop.set_cart(shop.milk_line(1, query="paneer"))  # in the cart before: it stays
    before = _cart(shop)
    session = new_session(store, shop, planner.base_url, engine="connector")
    read = _reader(shop)
    answer = list_answer(read, NUTRICART, read_list(LIST), ADDRESS, "typed")

    finish(session.send_answered(typed_message(LIST), answer))

    review = _stored_review(session)
    milk, eggs, bread, dal = review.rows
    assert milk.best is not None and milk.best.pack == "1 L" and "Milk" in milk.best.name
    assert eggs.best is not None and "Eggs" in eggs.best.name
    assert bread.best is not None and "Brown Bread" in bread.best.name
    assert bread.wanted.quantity == 2
    for row in (milk, eggs, bread):
        assert len(row.alternatives) == 2
        assert len({pick.spin_id for pick in row.choices}) == 3
    assert dal.best is None and review.unmatched == [dal]  # marked, not guessed
    assert _cart(shop) == before, "nothing is added before Add all"
    assert session.history()[-1].text().startswith(BASKET_REVIEW_FOR_MODEL[:40])

    # Add all: the card action with the write merged with the cart as the server holds it.
    arguments = cart_arguments(ADDRESS, current_cart(read, "food"), default_choices(review))
    ids = {"cart_tool": CART_TOOL, "arguments": arguments, "source": "list"}
    press = CardAction(kind="reorder", label="Add all: 4 items from your list", ids=ids)
    finish(session.send(action_message(press)))

    writes = [use for use in _tool_uses(session) if use.name == "update_cart"]
    assert len(writes) == 1 and writes[0].input == arguments
    assert session.history()[-1].text().startswith("Added your list.")
    expected = {**before, milk.best.spin_id: 1, eggs.best.spin_id: 1, bread.best.spin_id: 2}
    assert _cart(shop) == expected


def test_a_csv_file_is_reviewed_line_by_line(
    store: ChatStore, shop: Shop, planner: EmulatorServer[Any]
) -> None:
    session = new_session(store, shop, planner.base_url, engine="connector")
    wanted = read_file("groceries.csv", b"item,qty\npaneer,2\nbrown bread,1\nunicorn steak,1\n")
    answer = list_answer(_reader(shop), NUTRICART, wanted, None, "file")  # no address chosen

    finish(session.send_answered(typed_message("List from groceries.csv"), answer))

    review = _stored_review(session)
    assert review.source == "file" and review.address_id == ADDRESS  # the first saved one
    assert [(row.wanted.name, row.wanted.quantity) for row in review.rows] == [
        ("paneer", 2),
        ("brown bread", 1),
        ("unicorn steak", 1),
    ]
    assert [row.best is not None for row in review.rows] == [True, True, False]
    assert _cart(shop) == {}


def _png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (250, 250, 240)).save(out, format="PNG")
    return out.getvalue()


def test_a_photo_goes_as_an_image_block_and_its_lines_become_a_review(
    store: ChatStore,
    shop: Shop,
    wire_emu: EmulatorServer[ScriptedBrain],
) -> None:
    transcribed = "- 1 l milk\n- brown bread x2\n- dal tadka"
    wire_emu.brain.enqueue(ScriptedTurn(content=[{"type": "text", "text": transcribed}]))
    photo = prepare_photo("list.png", _png(3000, 2000))
    session = new_session(store, shop, wire_emu.base_url, engine="connector")
    read = _reader(shop)
    lines = lambda found: list_answer(read, NUTRICART, found, ADDRESS, "photo")  # noqa: E731

    answer = photo_answer(session.client, MODEL, photo, lines)
    finish(session.send_answered(typed_message("Photo: list.png"), answer))

    (request,) = wire_emu.requests
    image, ask = request.body["messages"][0]["content"]
    assert image["type"] == "image" and image["source"]["type"] == "base64"
    assert image["source"]["media_type"] == "image/jpeg"  # resized and re-encoded
    sent = Image.open(io.BytesIO(base64.b64decode(image["source"]["data"])))
    assert max(sent.size) == LONG_EDGE_PX
    assert ask["type"] == "text" and '"- "' in ask["text"]
    review = _stored_review(session)
    usage = session.history()[-1].meta.usage  # the photo's reading counts in your tokens
    assert usage is not None and usage.input_tokens > 0 and usage.output_tokens > 0
    assert review.source == "photo"
    assert [(row.wanted.name, row.wanted.quantity) for row in review.rows] == [
        ("milk", 1),
        ("brown bread", 2),
        ("dal tadka", 1),
    ]
    assert [row.best is not None for row in review.rows] == [True, True, False]


def test_the_offline_planner_says_plainly_that_it_cannot_read_photos(
    store: ChatStore, shop: Shop, planner: EmulatorServer[Any]
) -> None:
    photo = prepare_photo("list.webp", _webp())
    session = new_session(store, shop, planner.base_url, engine="connector")
    lines = lambda found: list_answer(_reader(shop), NUTRICART, found, ADDRESS, "photo")  # noqa: E731

    finish(session.send_answered(typed_message("Photo: list.webp"), photo_answer(
        session.client, MODEL, photo, lines)))  # fmt: skip

    reply = session.history()[-1]
    assert reply.text() == PHOTO_NEEDS_VISION
    assert reply.meta.basket is None and reply.meta.error is None


def _webp() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (64, 48), (0, 128, 0)).save(out, format="WEBP")
    return out.getvalue()


def test_a_malformed_image_block_is_refused_by_the_api_with_a_coded_reply(
    store: ChatStore, shop: Shop, planner: EmulatorServer[Any]
) -> None:
    # Bytes that claim to be a PNG but are a GIF: the API answers 400, the chat a code.
    gif = io.BytesIO()
    Image.new("RGB", (8, 8)).save(gif, format="GIF")
    lying = Photo("list.png", "image/png", base64.b64encode(gif.getvalue()).decode())
    session = new_session(store, shop, planner.base_url, engine="connector")
    lines = lambda found: list_answer(_reader(shop), NUTRICART, found, ADDRESS, "photo")  # noqa: E731

    finish(session.send_answered(typed_message("Photo: list.png"), photo_answer(
        session.client, MODEL, lying, lines)))  # fmt: skip

    reply = session.history()[-1]
    assert reply.meta.error is not None and reply.meta.error.code == ErrorCode.API_BAD_REQUEST
    assert reply.meta.basket is None


def test_the_emulator_checks_a_message_image_block_like_the_api(
    planner: EmulatorServer[Any],
) -> None:
    client = anthropic.Anthropic(api_key="sk-test", base_url=planner.base_url, max_retries=0)
    too_big = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"0" * (5 * 1024 * 1024)).decode()
    blocks = [
        ({"type": "base64", "media_type": "image/png", "data": "not base64!"}, "not valid base64"),
        ({"type": "base64", "media_type": "image/bmp", "data": "Qk0="}, "media_type"),
        ({"type": "base64", "media_type": "image/png", "data": too_big}, "exceeds 5 MB"),
    ]
    with client:
        for source, said in blocks:
            content = [{"type": "image", "source": source}, {"type": "text", "text": "list?"}]
            with pytest.raises(anthropic.BadRequestError, match=said):
                client.messages.create(
                    model=MODEL, max_tokens=64, messages=[{"role": "user", "content": content}]
                )


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (b"just some text, not a picture", "could not be read as a photo"),
        (b"\x89PNG" + b"0" * 15_000_001, "can be at most 15 MB"),
    ],
)
def test_a_file_that_is_no_photo_is_refused_with_its_code(data: bytes, said: str) -> None:
    from swiggy_core.errors import InputError

    with pytest.raises(InputError, match=said) as refused:
        prepare_photo("list.jpg", data)
    assert refused.value.code == ErrorCode.PHOTO_UNREADABLE
