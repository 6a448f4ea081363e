"""The Confirm dialog for a tool of a person's own server: which server, which tool and
exactly the arguments it will get; Cancel runs nothing."""

from __future__ import annotations

import os

from approval_records import new_approval
from uihelpers import buttons, open_page, texts

from swiggy_core.actions import typed_message
from swiggy_core.constants import APPROVAL_TOOL_NAME
from swiggy_core.models import ChatMessage, TextBlock, ToolUseBlock
from swiggy_core.store import ChatStore

BROWSER = "00112233445566778899aabbccddeeff"
PERSON = f"b-{BROWSER}@sandbox"
ARGUMENTS = {"cart": "milk x2", "note": "<b>ring twice</b>"}


def _waiting_approval() -> str:
    store = ChatStore(os.environ["SWIGGY_DATABASE_URL"])
    try:
        chat = store.create_conversation(PERSON, "food")
        ask = ToolUseBlock(
            id="toolu_own",
            name=APPROVAL_TOOL_NAME,
            input={"tool": "notes__submit_cart", "arguments": ARGUMENTS},
        )
        store.append_messages(
            chat,
            [
                typed_message("submit my cart to my notes server"),
                ChatMessage(role="assistant", content=[TextBlock(text="Shall I?"), ask]),
            ],
        )
        view = {
            "kind": "action",
            "tool": "notes__submit_cart",
            "title": "Run “submit_cart” on your server “notes”",
            "server_label": "notes",
            "arguments_text": '{\n  "cart": "milk x2",\n  "note": "<b>ring twice</b>"\n}',
            "notes": ["This runs on a server you added yourself, not on Swiggy."],
        }
        record = store.create_approval(
            new_approval(
                chat,
                user_id=PERSON,
                server_key="notes",
                tool="notes__submit_cart",
                arguments=ARGUMENTS,
                digest="d",
                view=view,
                tool_use_id="toolu_own",
            )
        )
        return record.id
    finally:
        store.close()


def test_the_dialog_shows_the_server_the_tool_and_the_exact_arguments(app) -> None:
    approval_id = _waiting_approval()
    app.session_state["browser_id"] = BROWSER
    at = open_page(app, "nutricart")
    assert not at.exception
    shown = texts(at.markdown) + texts(at.subheader) + texts(at.caption)
    # Markdown source: the underscore is escaped (the page shows "submit_cart").
    assert "Run “submit\\_cart” on your server “notes”" in shown
    assert "Your server **notes**" in shown
    (code,) = [block for block in at.code if "milk x2" in block.value]
    assert "<b>ring twice</b>" in code.value  # shown as code, never as live markup
    assert buttons(at, "Confirm") and buttons(at, "Cancel")

    at = buttons(at, "Cancel")[0].click().run()
    store = ChatStore(os.environ["SWIGGY_DATABASE_URL"])
    try:
        record = store.get_approval(approval_id)
        assert record is not None and record.status == "declined"
        assert "spend_call" not in [action for action, _ in store.audit_entries(PERSON)]
    finally:
        store.close()
