"""The Swiggy side with a pasted token: staleness banner and the request it shapes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from uihelpers import open_page, texts

from swiggy_sandbox.emulator import text_turn
from swiggy_ui.credentials import KEY_API_KEY, KEY_BASE_URL, KEY_SWIGGY_TOKEN, KEY_USE_SANDBOX
from swiggy_ui.runtime import KEY_SWIGGY_TOKEN_AT


def _with_token(app, scripted, age: timedelta):
    app.session_state[KEY_API_KEY] = "sk-ant-ui-test"
    app.session_state[KEY_BASE_URL] = scripted.base_url
    app.session_state[KEY_USE_SANDBOX] = False
    app.session_state[KEY_SWIGGY_TOKEN] = "swiggy-user-token"
    app.session_state[KEY_SWIGGY_TOKEN_AT] = datetime.now(UTC) - age
    return open_page(app, "feedme")


@pytest.mark.parametrize(("days", "stale"), [(5, True), (1, False)])
def test_banner_when_the_token_is_older_than_four_days(app, scripted, days, stale):
    at = _with_token(app, scripted, timedelta(days=days))
    assert not at.exception
    assert ("more than 4 days old" in texts(at.warning)) is stale


def test_a_real_token_goes_to_the_connector_for_the_real_server(app, scripted):
    at = _with_token(app, scripted, timedelta(hours=1))
    scripted.brain.enqueue(text_turn("Sure."))
    at.chat_input[0].set_value("I'm hungry").run()
    body = scripted.requests[-1].body
    assert body["mcp_servers"] == [
        {
            "type": "url",
            "url": "https://mcp.swiggy.com/food",
            "name": "swiggy-food",
            "authorization_token": "swiggy-user-token",
        }
    ]
    assert body["tools"][0]["configs"]["place_food_order"] == {"enabled": False}
