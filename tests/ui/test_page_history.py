"""A long chat stays cheap and true: older turns page in, only the newest controls act,
and tool names and token counts stay out of sight until asked for."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from uihelpers import buttons, open_page, texts

from swiggy_core.mcp import call_tool
from swiggy_core.models import ChatMessage, MessageMeta, Usage, block_from_dict
from swiggy_core.parsers import parse_tool_result
from swiggy_core.store import ChatStore
from swiggy_core.verticals import get_vertical
from swiggy_sandbox.servers import DEMO_TOKEN, SandboxHttpServer
from swiggy_ui.chat import tool_label

BROWSER = "0123456789abcdef0123456789abcdef"
VIEWER = f"b-{BROWSER}@sandbox"


@pytest.fixture(scope="module")
def sandbox() -> Iterator[SandboxHttpServer]:
    with SandboxHttpServer() as server:
        yield server


def _reply(server, tool_id: str, name: str, arguments: dict, vertical_id: str, usage=None):
    """One assistant message holding a real tool call and its parsed card."""
    result = call_tool(server[0], DEMO_TOKEN, name, arguments)
    card = parse_tool_result(name, result.text, vertical_id, arguments, is_error=result.is_error)
    blocks = [
        block_from_dict(
            {"type": "mcp_tool_use", "id": tool_id, "name": name, "server_name": server[1],
             "input": arguments}
        ),
        block_from_dict(
            {"type": "mcp_tool_result", "tool_use_id": tool_id, "is_error": result.is_error,
             "content": [{"type": "text", "text": result.text}]}
        ),
    ]  # fmt: skip
    meta = MessageMeta(cards={tool_id: card}, usage=usage)
    return ChatMessage(role="assistant", content=blocks, meta=meta), json.loads(result.text)


def _store(vertical_id: str, messages: list[ChatMessage]) -> None:
    store = ChatStore(os.environ["SWIGGY_DATABASE_URL"])
    conversation_id = store.create_conversation(VIEWER, vertical_id)
    store.append_messages(conversation_id, messages)
    store.close()


def _open(app, page: str):
    app.session_state["browser_id"] = BROWSER  # as if the browser sent its cookie
    at = open_page(app, page)
    assert not at.exception
    return at


def _said(at) -> list[str]:
    return [texts(m.markdown) for m in at.chat_message if m.name == "user"]


def test_older_turns_wait_behind_a_control_and_none_is_lost(app):
    chat = []
    for index in range(9):
        chat += [
            ChatMessage(role="user", content=f"question number {index}"),
            ChatMessage(role="assistant", content=f"answer number {index}"),
        ]
    _store("food", chat)
    at = _open(app, "nutricart")
    assert _said(at) == [f"question number {index}" for index in range(3, 9)]
    assert "3 earlier messages" in texts(at.caption)
    buttons(at, "Show 3 earlier")[0].click().run()
    assert _said(at) == [f"question number {index}" for index in range(9)]
    assert not buttons(at, "Show 3 earlier")


def test_only_the_newest_slot_picker_has_buttons(app, sandbox):
    dineout = (sandbox.url_for("dineout"), "swiggy-dineout")
    location = call_tool(dineout[0], DEMO_TOKEN, "get_saved_locations", {}).text
    place = json.loads(location)["data"]["locations"][0]
    near = {"addressId": place["id"]} if "lat" not in place else {
        "latitude": place["lat"], "longitude": place["lng"]}  # fmt: skip
    found, data = _reply(dineout, "t0", "search_restaurants_dineout",
                         {"query": "italian", **near}, "dining")  # fmt: skip
    where = {"latitude": data["data"]["latitude"], "longitude": data["data"]["longitude"]}
    restaurant = data["data"]["restaurants"][0]["id"]
    chat = [ChatMessage(role="user", content="italian tables"), found]
    for days in (1, 2):
        date = (datetime.now(UTC) + timedelta(days=days)).date().isoformat()
        asked = {"restaurantId": restaurant, "date": date, **where}
        slots, _ = _reply(dineout, f"s{days}", "get_available_slots", asked, "dining")
        chat += [ChatMessage(role="user", content=f"slots in {days} days"), slots]
    _store("dining", chat)
    at = _open(app, "tablescout")
    older = [b for b in at.button if b.key and b.key.startswith("m3-")]
    newest = [b for b in at.button if b.key and b.key.startswith("m5-")]
    assert newest and not older  # the older picker is read-only: nothing to press


def test_tool_names_and_tokens_show_only_with_details_on(app, sandbox):
    instamart = (sandbox.url_for("instamart"), "swiggy-instamart")
    usage = Usage(input_tokens=1234, output_tokens=56)
    addresses = json.loads(call_tool(instamart[0], DEMO_TOKEN, "get_addresses", {}).text)
    asked = {"addressId": addresses["data"]["addresses"][0]["id"], "query": "milk"}
    reply, _ = _reply(instamart, "q0", "search_products", asked, "food", usage)
    _store("food", [ChatMessage(role="user", content="milk please"), reply])
    at = _open(app, "nutricart")
    assert buttons(at, "Add")  # the card itself is there
    assert not [e for e in at.expander if "search_products" in e.label.replace("\\", "")]
    assert "1,234 tokens" not in texts(at.caption)
    at.toggle(key="details-food").set_value(True).run()
    assert [e for e in at.expander if "search_products" in e.label.replace("\\", "")]
    assert "1,234 tokens in" in texts(at.caption)
    # The setting belongs to the session: another shop shows details too.
    at.switch_page("stylekit").run()
    assert at.toggle(key="details-style").value is True


def test_a_running_tool_is_named_in_the_shops_words():
    nutricart = get_vertical("food")
    query = {"query": "protein bars"}
    label = tool_label(nutricart, "search_products", query, details=False)
    assert label == "Searching NutriCart for protein bars…"
    detailed = tool_label(nutricart, "search_products", query, details=True)
    assert detailed == "Searching NutriCart for protein bars… · search\\_products"  # escaped
    # StyleKit shares Instamart's tools but is the shop the person chose: it says so.
    sunscreen = {"query": "sunscreen"}
    stylekit = tool_label(get_vertical("style"), "search_products", sunscreen, details=False)
    assert stylekit == "Searching StyleKit for sunscreen…"


def test_a_rerun_shows_messages_stored_since_the_last_one(app):
    _store("food", [ChatMessage(role="user", content="first question")])
    at = _open(app, "nutricart")
    assert _said(at) == ["first question"]
    store = ChatStore(os.environ["SWIGGY_DATABASE_URL"])
    (conversation,) = store.list_conversations(VIEWER, "food")
    store.append_messages(
        conversation.id,
        [
            ChatMessage(role="assistant", content="first answer"),
            ChatMessage(role="user", content="second question"),
        ],
    )
    store.close()
    at.run()  # the page reads only what was appended, and misses none of it
    assert _said(at) == ["first question", "second question"]
    assert "first answer" in texts(at.markdown)


def test_a_card_action_is_confirmed_by_a_toast(app):
    at = open_page(app, "nutricart")
    at.chat_input[0].set_value("find milk").run()
    assert not at.toast
    buttons(at, "Add")[0].click().run()
    (toast,) = at.toast
    assert toast.value.startswith("Add 1 × ")  # the action's own label
    at.run()
    assert not at.toast  # once
