"""Each error banner, driven by a real fault from the emulator through the real SDK."""

import os

import pytest
from uihelpers import buttons, open_page, store_user, texts, use_scripted_model

from swiggy_core.constants import TURN_CONTEXT_HEADER
from swiggy_core.store import ChatStore
from swiggy_sandbox.emulator import (
    Fault,
    ScriptedTurn,
    mcp_tool_result_block,
    mcp_tool_use_block,
    text_block,
    text_turn,
)
from swiggy_ui.credentials import KEY_API_KEY, KEY_BASE_URL, KEY_USE_SANDBOX

PAGE = "nutricart"
MESSAGE = "find amul butter"


def _send(app, scripted, *queued):
    scripted.brain.enqueue(*queued)
    at = open_page(app, PAGE)
    use_scripted_model(at, scripted)
    at.run()
    at.chat_input[0].set_value(MESSAGE).run()
    return at


def _user_texts(at):
    return [texts(m.markdown) for m in at.chat_message if m.name == "user"]


@pytest.mark.parametrize(
    ("faults", "code"),
    [
        # Three failures exhaust the automatic retries; the banner then offers Retry.
        ([Fault(kind="overloaded")] * 3, "E-2003"),
        ([Fault(kind="server_error")] * 3, "E-2002"),
        # A broken stream is not retried automatically: the person decides.
        ([Fault(kind="cut", after_blocks=0)], "E-2006"),
    ],
)
def test_transient_faults_offer_retry_that_resends_the_same_message(app, scripted, faults, code):
    at = _send(app, scripted, *faults)
    assert not at.exception
    assert code in texts(at.caption)
    assert _user_texts(at) == [MESSAGE]  # the person's text survives
    scripted.brain.enqueue(text_turn("Offline test reply: found Amul butter."))
    buttons(at, "Retry")[0].click().run()
    assert not at.error
    assert _user_texts(at) == [MESSAGE]
    assert "found Amul butter" in texts(at.markdown)
    said, context = scripted.requests[-1].body["messages"][-1]["content"]
    assert said["text"] == MESSAGE and context["text"].startswith(TURN_CONTEXT_HEADER)


def test_bad_key_points_to_connections(app, scripted):
    at = _send(app, scripted, Fault(kind="auth"))
    assert "E-5001" in texts(at.caption) and "Connections" in texts(at.error)
    assert any("Connections" in link.label for link in at.get("page_link"))
    assert not buttons(at, "Retry")
    assert _user_texts(at) == [MESSAGE]


def test_expired_swiggy_session_offers_reconnect(app, scripted):
    at = _send(app, scripted, Fault(kind="permission"))
    assert "E-5002" in texts(at.caption)
    assert any("Reconnect" in link.label for link in at.get("page_link"))


def test_rate_limit_says_when_to_try_again(app, scripted):
    at = _send(app, scripted, Fault(kind="rate_limit", retry_after=40))
    assert "E-2001" in texts(at.caption) and "40 s" in texts(at.warning)
    assert buttons(at, "Retry")


def test_unreachable_model_endpoint_is_a_network_error_with_retry(app):
    import socket

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        dead_port = probe.getsockname()[1]
    at = open_page(app, PAGE)
    at.session_state[KEY_API_KEY] = "sk-ant-ui-test"
    at.session_state[KEY_BASE_URL] = f"http://127.0.0.1:{dead_port}"
    at.session_state[KEY_USE_SANDBOX] = True
    at.run()
    at.chat_input[0].set_value(MESSAGE).run()
    assert "E-2004" in texts(at.caption)
    assert buttons(at, "Retry")
    assert _user_texts(at) == [MESSAGE]


def test_expired_token_inside_a_tool_result_asks_to_reconnect(app, scripted):
    turn = ScriptedTurn(
        content=[
            text_block("Searching."),
            mcp_tool_use_block(
                "mcptoolu_1", "search_products", "swiggy-instamart", {"query": "amul butter"}
            ),
            mcp_tool_result_block("mcptoolu_1", "401 Unauthorized: token expired", is_error=True),
            text_block("never shown"),
        ]
    )
    at = _send(app, scripted, turn)
    assert "E-3001" in texts(at.caption)
    assert any("Reconnect" in link.label for link in at.get("page_link"))
    assert "never shown" not in texts(at.markdown)
    assert "Searching." in texts(at.markdown)  # what arrived before the error is kept


def _failing_call(number: int, text: str) -> list[dict]:
    use_id = f"mcptoolu_{number}"
    return [
        {
            "type": "mcp_tool_use",
            "id": use_id,
            "name": "search_products",
            "server_name": "swiggy-instamart",
            "input": {"query": "amul butter"},
        },
        {
            "type": "mcp_tool_result",
            "tool_use_id": use_id,
            "is_error": True,
            "content": [{"type": "text", "text": text}],
        },
    ]


def test_a_tool_that_keeps_failing_offers_a_report_to_swiggy(app, scripted):
    internal = "Internal error in search_products; please try again later."
    turn = ScriptedTurn(content=[*_failing_call(1, internal), *_failing_call(2, internal)])
    at = _send(app, scripted, turn)
    assert "E-3105" in texts(at.caption)
    assert "This step kept failing" in texts(at.caption)
    assert "search_products" not in texts(at.caption)  # no tool names on the page
    at = buttons(at, "Report to Swiggy")[0].click().run()
    assert not at.exception
    # The sandbox's report_error answered: the report reached the Instamart server.
    answer = texts(at.info)
    assert "report" in answer.lower() and "could not be sent" not in answer
    # Sent only when pressed, and audited like every other tool call.
    store = ChatStore(os.environ["SWIGGY_DATABASE_URL"])
    (sent,) = store.tool_calls(store_user(at), tool="report_error")
    assert (sent.vertical_id, sent.server, sent.outcome) == ("food", "instamart", "ok")


def test_a_revoked_session_is_not_reported_but_reconnected(app, scripted):
    turn = ScriptedTurn(content=_failing_call(1, "Session revoked (419): sign in again."))
    at = _send(app, scripted, turn)
    assert "E-3101" in texts(at.caption)
    assert any("Reconnect" in link.label for link in at.get("page_link"))
    assert not buttons(at, "Report to Swiggy")
