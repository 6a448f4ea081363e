"""The sidebar's chats: New chat, the list, reopen, rename, delete, clear all, export."""

from __future__ import annotations

import json
import os
import re
from datetime import UTC, datetime

from approval_records import new_approval
from uihelpers import buttons, click, new_app, open_page, store_user, texts

from swiggy_core.export import local_day
from swiggy_core.models import ChatMessage
from swiggy_core.store import ChatStore, NewApproval
from swiggy_ui.runtime import open_store
from swiggy_ui.safe_text import plain

PAGE = "nutricart"


def _say(at, text: str):
    at.chat_input[0].set_value(text).run()
    assert not at.exception
    return at


def _chats(at):
    return at.sidebar.radio[0] if at.sidebar.radio else None


def _shared_store() -> ChatStore:
    """The app's own store (one per database URL in this process)."""
    return open_store(os.environ["SWIGGY_DATABASE_URL"])


def _approval(user: str, conversation_id: str) -> NewApproval:
    view = {"kind": "order", "tool": "checkout", "title": "Place this order"}
    return new_approval(conversation_id, user_id=user, digest="sha256:cart", view=view)


def _user_words(at) -> str:
    return "\n".join(texts(m.markdown) for m in at.chat_message if m.name == "user")


def test_new_chat_lists_the_old_one_and_reopening_brings_it_back(app):
    at = open_page(app, PAGE)
    assert "Your chats with NutriCart will be listed here." in texts(at.sidebar.caption)
    _say(at, "show my saved addresses")
    assert _chats(at).options == ["show my saved addresses"]
    assert _chats(at).index == 0  # the open chat is the chosen one
    click(at, "New chat")
    assert [m.name for m in at.chat_message] == []
    assert _chats(at).value is None
    assert buttons(at, "New chat")[0].disabled  # already an empty chat
    _say(at, "eggs and bread for breakfast")
    assert _chats(at).options == ["eggs and bread for breakfast", "show my saved addresses"]
    assert list(_chats(at).proto.captions) == [local_day(datetime.now(UTC))] * 2
    _chats(at).set_value(_id_of(at, "show my saved addresses")).run()
    assert not at.exception
    assert "show my saved addresses" in _user_words(at)
    assert "eggs and bread" not in _user_words(at)


def _id_of(at, title: str) -> str:
    user = store_user(at)
    (chat,) = [c for c in _shared_store().list_chats(user, "food") if c.title == title]
    return chat.id


def test_rename_changes_the_listed_title(app):
    at = open_page(app, PAGE)
    _say(at, "show my saved addresses")
    click(at, "Rename")
    at.text_input(key="chats-title-food").set_value("Where to deliver")
    click(at, "Save name")
    assert _chats(at).options == ["Where to deliver"]
    assert _shared_store().list_chats(store_user(at), "food")[0].title == "Where to deliver"


def test_a_title_with_markdown_is_shown_as_typed_never_live(app):
    at = open_page(app, PAGE)
    _say(at, "show my saved addresses")
    click(at, "Rename")
    forged = "![x](https://evil.example/t.png) **big** :red[alarm]"
    at.text_input(key="chats-title-food").set_value(forged)
    click(at, "Save name")
    (label,) = _chats(at).options
    assert label == plain(forged) and "![x](" not in label and "**big**" not in label
    click(at, "Delete")
    assert f"Delete “{plain(forged)}”?" in texts(at.sidebar.warning)


def test_delete_asks_first_then_removes_only_the_open_chat(app):
    at = open_page(app, PAGE)
    _say(at, "show my saved addresses")
    click(at, "New chat")
    _say(at, "eggs and bread for breakfast")
    click(at, "Delete")
    assert "Delete “eggs and bread for breakfast”?" in texts(at.sidebar.warning)
    click(at, "Keep")
    assert len(_chats(at).options) == 2
    click(at, "Delete")
    click(at, "Delete chat")
    assert _chats(at).options == ["show my saved addresses"]
    assert "show my saved addresses" in _user_words(at)  # the newest left is opened
    assert [c.title for c in _shared_store().list_chats(store_user(at), "food")] == [
        "show my saved addresses"
    ]


def test_a_chat_waiting_for_an_approval_is_not_deleted(app):
    at = open_page(app, PAGE)
    _say(at, "show my saved addresses")
    store = _shared_store()
    (chat,) = store.list_chats(store_user(at), "food")
    store.create_approval(_approval(store_user(at), chat.id))
    click(at, "Delete")
    click(at, "Delete chat")
    assert "This chat was not deleted" in texts(at.sidebar.warning)
    assert "waiting for your answer" in texts(at.sidebar.warning)
    assert _chats(at).options == ["show my saved addresses"]


def test_clear_all_asks_then_empties_this_shop_only(app):
    at = open_page(app, PAGE)
    _say(at, "show my saved addresses")
    click(at, "New chat")
    _say(at, "eggs and bread for breakfast")
    at.switch_page("stylekit").run()
    _say(at, "Suggest a skincare routine for oily skin")
    at.switch_page(PAGE).run()
    click(at, "Clear all chats")
    assert "Delete all 2 chats with NutriCart?" in texts(at.sidebar.warning)
    click(at, "Delete all")
    assert not at.exception
    assert at.sidebar.radio == [] or not _chats(at)
    assert [m.name for m in at.chat_message] == []
    user = store_user(at)
    assert _shared_store().list_chats(user, "food") == []
    assert len(_shared_store().list_chats(user, "style")) == 1


def test_export_buttons_give_the_open_chat_as_markdown_and_json(app, downloads):
    at = open_page(app, PAGE)
    _say(at, "show my saved addresses")
    markdown, json_file = at.get("download_button")
    assert markdown.label == "Markdown" and json_file.label == "JSON"
    text = downloads(markdown)
    assert text.startswith("# show my saved addresses\n")
    assert re.search(
        r"\*\*You:\*\* · \w{3} \d+ \w{3}, \d+:\d\d [AP]M\n\nshow my saved addresses", text
    )
    data = json.loads(downloads(json_file))
    assert data["shop"] == "NutriCart"
    assert [m["role"] for m in data["messages"]][:2] == ["user", "assistant"]
    assert any(card["type"] == "addresses" for m in data["messages"] for card in m["cards"])
    assert "mcp_tool" not in text and "tool_use_id" not in json.dumps(data)


def test_exports_are_named_after_the_shop_the_chat_was_with(app, download_names):
    at = open_page(app, PAGE)
    _say(at, "greek yogurt")
    markdown, json_file = at.get("download_button")
    day = datetime.now(UTC).strftime("%Y%m%d")  # the chat was active today
    assert download_names(markdown) == f"nutricart-greek-yogurt-{day}.md"
    assert download_names(json_file) == f"nutricart-greek-yogurt-{day}.json"


def test_another_person_never_sees_these_chats(app):
    at = open_page(app, PAGE)
    _say(at, "show my saved addresses")
    other = open_page(new_app(), PAGE)
    assert store_user(other) != store_user(at)
    assert not other.sidebar.radio
    assert "Your chats with NutriCart will be listed here." in texts(other.sidebar.caption)


def test_the_list_shows_the_newest_thirty_and_older_ones_on_request(app):
    at = open_page(app, PAGE)
    store, user = _shared_store(), store_user(at)
    for index in range(32):
        chat = store.create_conversation(user, "food")
        store.append_messages(chat, [ChatMessage(role="user", content=f"order {index}")])
    at.run()
    assert _chats(at).options[:2] == ["order 31", "order 30"]
    assert len(_chats(at).options) == 30
    assert _chats(at).index == 0  # the newest is open
    click(at, "Show older chats")
    assert len(_chats(at).options) == 32 and _chats(at).options[-1] == "order 0"
    assert not buttons(at, "Show older chats")
    _chats(at).set_value(_id_of(at, "order 0")).run()  # an older one opens like any other
    assert "order 0" in _user_words(at)
    click(at, "Clear all chats")
    assert "Delete all 32 chats with NutriCart?" in texts(at.sidebar.warning)
