"""What Home and a shop page show before the app's machinery has loaded in a new process.

The first page a new process serves draws what needs none of the app first. Here the
runtime is made to stop the page where it would load, so the test sees exactly what was
drawn before it: Home's offline-demo note (only when no key makes it the demo), a shop's
title and its chat input.
"""

from __future__ import annotations

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest
from uihelpers import new_app, texts

from swiggy_ui import first_paint, runtime
from swiggy_ui.credentials import KEY_API_KEY

OFFLINE_NOTE = "Offline demo."


@pytest.fixture
def before_load(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new process (the app not loaded), whose runtime ends the page where it is asked
    for: what the page shows then is what it drew before the app loaded."""
    monkeypatch.setattr(first_paint, "_app_loaded", False)
    monkeypatch.setattr(runtime, "get_runtime", lambda **_: st.stop())


def _alerts(at: AppTest) -> str:
    return texts(at.info) + texts(at.success)


def test_home_says_offline_demo_before_the_app_loads(before_load: None) -> None:
    at = new_app().run()
    assert not at.exception
    assert [title.value for title in at.title] == ["Shop by chatting"]
    assert OFFLINE_NOTE in _alerts(at)


def test_home_never_says_offline_demo_early_to_a_session_with_a_key(before_load: None) -> None:
    at = new_app()
    at.session_state[KEY_API_KEY] = "sk-ant-first-paint"
    at.run()
    assert not at.exception
    assert OFFLINE_NOTE not in _alerts(at)  # the full page says which mode, once loaded


def test_a_shop_page_draws_its_title_and_input_before_the_app_loads(before_load: None) -> None:
    at = new_app()
    at.switch_page("nutricart")
    at.run()
    assert not at.exception
    assert [title.value for title in at.title] == ["NutriCart"]
    assert len(at.chat_input) == 1 and not at.chat_input[0].disabled
    assert at.chat_input[0].placeholder == "Ask NutriCart…"


def test_once_the_app_has_loaded_a_page_draws_nothing_before_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(first_paint, "_app_loaded", True)
    monkeypatch.setattr(runtime, "get_runtime", lambda **_: st.stop())
    at = new_app()
    at.switch_page("nutricart")
    at.run()
    assert not at.exception
    assert not at.title and not at.chat_input
