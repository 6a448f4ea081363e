"""A shop page in a new process: drawn and usable while the sandbox starts, then in full.

The sandbox's start is held here until the test lets it go, and the page's wait for it is
skipped while the test looks at what the page shows meanwhile (AppTest sees a run only
once it has ended). A message sent then is shown at once and sent when the shop runs.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator

import pytest
from streamlit.testing.v1 import AppTest
from uihelpers import buttons, new_app, store_reply, store_user, texts

from swiggy_app import sandbox as sandbox_module
from swiggy_core.actions import typed_message
from swiggy_core.models import TextBlock
from swiggy_core.store import ChatStore
from swiggy_ui import first_paint, starting_page
from swiggy_ui.address_chooser import LOADING_ADDRESSES
from swiggy_ui.state import VerticalChat

PAGE = "chat::sandbox::food"  # NutriCart's chat state in the sandbox world
HOLD_SECONDS = 120.0


class HeldSandbox:
    """Holds the sandbox's start until `release()`; the page may or may not wait for it."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self._monkeypatch = monkeypatch
        self._go = threading.Event()
        self._waits = starting_page._wait_then_rerun
        real = sandbox_module.start_sandbox

        def held_start(result_form, database_url):  # type: ignore[no-untyped-def]
            assert self._go.wait(HOLD_SECONDS), "the test never let the sandbox start"
            return real(result_form, database_url)

        monkeypatch.setattr(sandbox_module, "start_sandbox", held_start)
        monkeypatch.setattr(starting_page, "_wait_then_rerun", lambda runtime, page: None)

    def release(self) -> None:
        """Let the sandbox start, and the page wait for it again (then draw in full)."""
        self._monkeypatch.setattr(starting_page, "_wait_then_rerun", self._waits)
        self._go.set()


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldSandbox]:
    sandbox = HeldSandbox(monkeypatch)
    yield sandbox
    sandbox.release()


@pytest.fixture
def before_load(monkeypatch: pytest.MonkeyPatch) -> None:
    """As in a new process: the next run finds the app's pages not loaded yet."""
    monkeypatch.setattr(first_paint, "_app_loaded", False)


def _cold_shop_page() -> AppTest:
    """A new browser session whose first page is NutriCart, as a typed address opens it."""
    at = new_app()
    at.switch_page("nutricart")
    return at.run()


def _users(at: AppTest) -> list[str]:
    return [texts(message.markdown) for message in at.chat_message if message.name == "user"]


def test_the_page_is_usable_while_the_sandbox_starts(held: HeldSandbox) -> None:
    at = _cold_shop_page()
    assert not at.exception
    assert [title.value for title in at.title] == ["NutriCart"]
    assert LOADING_ADDRESSES in texts(at.caption)  # the chooser says it is coming
    assert at.button(key="starter-food-0").label  # the starter prompts, as on the full page
    assert not at.chat_input[0].disabled

    at.chat_input[0].set_value("find milk").run()
    assert not at.exception
    assert _users(at) == ["find milk"]  # shown at once, kept for when the shop runs
    at.run()
    assert at.chat_input[0].disabled  # one message waits: the input says so
    assert at.chat_input[0].placeholder == starting_page.QUEUED_PLACEHOLDER
    assert _users(at) == ["find milk"]

    held.release()
    at.run()  # the page waits for the sandbox now, then draws in full with it waiting
    assert not at.exception
    assert _users(at) == ["find milk"]
    assert at.chat_input[0].placeholder == starting_page.QUEUED_PLACEHOLDER
    at.run()  # the run the page's timer asks for once that one has ended: it is sent
    assert not at.exception
    assert _users(at) == ["find milk"]
    assert buttons(at, "Add"), texts(at.chat_message[-1].markdown)  # the reply's product cards
    assert not at.chat_input[0].disabled
    assert LOADING_ADDRESSES not in texts(at.caption)
    store = ChatStore(os.environ["SWIGGY_DATABASE_URL"])
    try:
        conversation_id = store.list_conversations(store_user(at), "food", limit=1)[0].id
        asked = [m for m in store.load_messages(conversation_id) if m.role == "user"]
    finally:
        store.close()
    assert [m.text() for m in asked] == ["find milk"]  # stored once


def test_a_stored_chat_shows_while_the_sandbox_starts(held: HeldSandbox) -> None:
    at = new_app()
    at.switch_page("nutricart")
    at.run()
    reply = [TextBlock(text="Here is your milk.")]
    store_reply(store_user(at), "food", "find milk", reply)
    at.run()
    assert not at.exception
    assert _users(at) == ["find milk"]
    assert "Here is your milk." in texts(at.chat_message[-1].markdown)


def test_a_message_kept_while_the_sandbox_started_goes_out_on_the_full_page(app) -> None:
    at = app
    at.switch_page("nutricart")
    at.run()  # the sandbox starts and the page draws in full
    page: VerticalChat = at.session_state[PAGE]
    page.queued = typed_message("find milk")
    at.session_state[PAGE] = page
    at.run()  # drawn in full with the message waiting (nothing of the last page left over)
    assert not at.exception
    assert _users(at) == ["find milk"] and not buttons(at, "Add")
    at.run()  # then sent
    assert not at.exception
    assert _users(at) == ["find milk"]
    assert buttons(at, "Add")
    assert at.session_state[PAGE].queued is None


def test_a_message_sent_while_the_app_loads_is_kept_then_sent(
    held: HeldSandbox, before_load: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = _cold_shop_page()  # title and input first, then the rest once the app has loaded
    assert not at.exception
    assert [title.value for title in at.title] == ["NutriCart"]  # the early one, replaced
    assert len(at.chat_input) == 1 and not at.chat_input[0].disabled
    assert first_paint.app_loaded()

    monkeypatch.setattr(first_paint, "_app_loaded", False)  # sent while it still loads
    at.chat_input[0].set_value("find milk").run()
    assert not at.exception
    assert _users(at) == ["find milk"]  # read from the early input, kept, shown once
    assert at.session_state[PAGE].queued is not None
    held.release()
    at.run()
    at.run()  # drawn in full with it waiting, then sent
    assert not at.exception
    assert _users(at) == ["find milk"]
    assert buttons(at, "Add"), texts(at.chat_message[-1].markdown)


def test_a_message_sent_while_the_app_loads_for_a_shop_already_up_is_sent(
    app: AppTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = app
    at.switch_page("nutricart")
    at.run()  # the sandbox runs
    # Another visitor's page loaded the app meanwhile and the shop is up: the early input
    # must not be drawn twice, and what was sent in it goes out.
    monkeypatch.setattr(first_paint, "_app_loaded", False)
    at.chat_input[0].set_value("find milk").run()
    assert not at.exception
    assert _users(at) == ["find milk"]
    assert buttons(at, "Add"), texts(at.chat_message[-1].markdown)
    assert len(at.chat_input) == 1
