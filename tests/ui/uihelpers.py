"""Helpers for AppTest tests (imported by module name: tests/ui is on sys.path)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from page_switch import app_test
from streamlit.testing.v1 import AppTest

from swiggy_core.models import ChatMessage, ContentBlock
from swiggy_core.store import ChatStore
from swiggy_sandbox.emulator import EmulatorServer, ScriptedBrain
from swiggy_ui.credentials import KEY_API_KEY, KEY_BASE_URL, KEY_USE_SANDBOX

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT = 90


def new_app() -> AppTest:
    """A fresh browser session of the real app."""
    return app_test(APP, TIMEOUT)


def open_page(at: AppTest, page: str) -> AppTest:
    at.run()
    at.switch_page(page)
    return at.run()


def use_scripted_model(at: AppTest, emulator: EmulatorServer[ScriptedBrain]) -> None:
    """Point the session at the scripted emulator as if a key and base URL were entered."""
    at.session_state[KEY_API_KEY] = "sk-ant-ui-test"
    at.session_state[KEY_BASE_URL] = emulator.base_url
    at.session_state[KEY_USE_SANDBOX] = True


def texts(elements) -> str:
    return "\n".join(str(getattr(element, "value", "")) for element in elements)


def buttons(at: AppTest, label: str):
    return [button for button in at.button if button.label == label]


def click(at: AppTest, label: str, index: int = 0) -> AppTest:
    """Press the `index`th button labelled `label`; the rerun must not raise."""
    matches = buttons(at, label)
    assert matches, f"no {label!r} button; have {[b.label for b in at.button]}"
    matches[index].click().run()
    assert not at.exception
    return at


def bordered_blocks(node: object) -> int:
    """How many bordered containers (card frames) are in this element tree."""
    proto = getattr(node, "proto", None)
    own = int(
        proto is not None
        and "flex_container" in proto.DESCRIPTOR.fields_by_name
        and proto.HasField("flex_container")
        and proto.flex_container.border
    )
    children = getattr(node, "children", None)
    nested = children.values() if isinstance(children, dict) else []
    return own + sum(bordered_blocks(child) for child in nested)


def store_reply(user: str, vertical_id: str, asked: str, reply: list[ContentBlock]) -> None:
    """A stored conversation of `user` in the test's database: one question, one reply."""
    store = ChatStore(os.environ["SWIGGY_DATABASE_URL"])
    conversation_id = store.create_conversation(user, vertical_id)
    store.append_messages(
        conversation_id,
        [ChatMessage(role="user", content=asked), ChatMessage(role="assistant", content=reply)],
    )
    store.close()


def store_user(at: AppTest, backend: str = "sandbox") -> str:
    """The store's key for this session's browser in one world (sandbox or swiggy)."""
    return f"b-{at.session_state['browser_id']}@{backend}"


def same_browser(at: AppTest) -> AppTest:
    """A new session of the same browser: its id cookie comes back, nothing else does."""
    again = new_app()
    again.session_state["browser_id"] = at.session_state["browser_id"]
    return again


def settled_at_start(seconds: float = 120) -> None:
    """Wait for the app's one pass over cut-off confirmations (it starts with the first
    page, once the sandbox runs). A test that then stores confirmed, unsettled spends of
    its own knows that pass will not settle them under the page it looks at."""
    for thread in threading.enumerate():
        if thread.name == "settle-at-start":
            thread.join(seconds)
            assert not thread.is_alive(), "the settle pass at start did not end"
