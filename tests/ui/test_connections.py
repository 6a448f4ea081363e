"""The Connections page: key check with one cheap call, masking, addresses, usage."""

from __future__ import annotations

import os

from uihelpers import buttons, new_app, open_page, same_browser, store_user, texts

from swiggy_core.store import ChatStore
from swiggy_sandbox.emulator import text_turn
from swiggy_ui.credentials import KEY_API_KEY


def _enter_key(at, key: str, base_url: str):
    at.text_input(key="form_api_key").set_value(key)
    at.text_input(key="form_base_url").set_value(base_url)
    buttons(at, "Check and use")[0].click().run()
    assert not at.exception
    return at


def test_a_wrong_key_is_refused_with_a_code_and_not_kept(app, scripted):
    at = open_page(app, "app_pages/connections.py")
    key_input = at.text_input(key="form_api_key").proto
    assert key_input.type == key_input.PASSWORD  # masked
    _enter_key(at, "sk-ant-invalid-123", scripted.base_url)
    assert "E-5001" in texts(at.caption)
    assert KEY_API_KEY not in at.session_state
    assert scripted.requests[-1].path == "/v1/models"  # one cheap call, no chat request


def test_a_good_key_switches_the_chats_to_the_model(app, scripted, tmp_path):
    at = open_page(app, "app_pages/connections.py")
    _enter_key(at, "sk-ant-good-secret-456", scripted.base_url)
    assert "Key accepted" in texts(at.success)
    assert at.session_state[KEY_API_KEY] == "sk-ant-good-secret-456"
    scripted.brain.enqueue(text_turn("Hello from the configured model."))
    at.switch_page("nutricart").run()
    at.chat_input[0].set_value("hello").run()
    assert "Hello from the configured model." in texts(at.markdown)
    assert scripted.requests[-1].api_key == "sk-ant-good-secret-456"
    # The key lives only in session memory: never in the chat database or on the page.
    assert b"sk-ant-good-secret-456" not in (tmp_path / "chats.db").read_bytes()
    at.switch_page("app_pages/connections.py").run()
    page_text = texts(at.markdown) + texts(at.caption) + texts(at.success)
    assert "sk-ant-good-secret-456" not in page_text
    assert at.text_input(key="form_api_key").value == ""
    # Forget clears the key, its URL and the widgets that held them.
    buttons(at, "Forget the key")[0].click().run()
    assert not at.exception
    state = at.session_state
    for key in (KEY_API_KEY, "conn_base_url", "form_api_key", "form_base_url"):
        assert key not in state or not state[key], key
    assert all("sk-ant-good-secret-456" not in repr(state[key]) for key in state)


def test_saved_addresses_load_and_the_choice_is_remembered(app):
    at = open_page(app, "app_pages/connections.py")
    buttons(at, "Load my saved addresses")[0].click().run()
    choices = buttons(at, "Use this address")
    assert len(choices) == 3
    # The call the page made is in the audit like every other tool call.
    (call,) = ChatStore(os.environ["SWIGGY_DATABASE_URL"]).tool_calls(store_user(at))
    assert (call.tool, call.vertical_id, call.outcome) == ("get_addresses", "connections", "ok")
    choices[1].click().run()
    assert "Delivering here" in texts(at.markdown)
    assert len(buttons(at, "Use this address")) == 2
    chosen = at.session_state["active_address::sandbox"]
    again = same_browser(at)
    again.run()
    assert again.session_state["active_address::sandbox"] == chosen  # restored from the store
    stranger = new_app()
    stranger.run()
    assert "active_address::sandbox" not in stranger.session_state


def test_usage_totals_add_up_after_a_turn(app):
    at = open_page(app, "nutricart")
    at.chat_input[0].set_value("show my cart").run()
    at.switch_page("app_pages/connections.py").run()
    metrics = {m.label: m.value for m in at.metric}
    assert int(metrics["Input tokens"].replace(",", "")) > 0
    assert int(metrics["Output tokens"].replace(",", "")) > 0
