"""A chat whose reply is elsewhere, on the page: a message whose reply died shows as
interrupted with Retry (which answers it), and a chat another replica is replying in says
so, keeps the input busy and shows the stored reply once that replica is done."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from uihelpers import buttons, open_page, texts

from swiggy_core.actions import typed_message
from swiggy_core.models import ChatMessage, TextBlock
from swiggy_core.store import ChatStore
from swiggy_core.turn.lease import TurnGate

BROWSER = "fedcba9876543210fedcba9876543210"
PERSON = f"b-{BROWSER}@sandbox"


def _chat(*messages: ChatMessage) -> str:
    store = ChatStore(os.environ["SWIGGY_DATABASE_URL"])
    try:
        conversation_id = store.create_conversation(PERSON, "food")
        store.append_messages(conversation_id, list(messages))
        return conversation_id
    finally:
        store.close()


def _open(app):
    app.session_state["browser_id"] = BROWSER
    at = open_page(app, "nutricart")
    assert not at.exception
    return at


@contextmanager
def _replying_elsewhere(conversation_id: str) -> Iterator[ChatStore]:
    """Another replica holds the chat's turn until the block ends (its store is yielded)."""
    store = ChatStore(os.environ["SWIGGY_DATABASE_URL"])
    elsewhere = TurnGate(store.leases).take(conversation_id, "turn-in-replica-b", "message")
    try:
        yield store
    finally:
        elsewhere.release()
        store.close()


def test_a_message_whose_reply_died_is_interrupted_and_retry_answers_it(app) -> None:
    _chat(typed_message("find greek yogurt"))  # stored; the process replying to it died

    at = _open(app)
    assert "E-1109" in texts(at.caption) and "interrupted" in texts(at.error)
    (retry,) = buttons(at, "Retry")
    at = retry.click().run()
    for _ in range(10):  # the reply streams on its own thread; each run watches it
        if not buttons(at, "Retry") and "E-1109" not in texts(at.caption):
            break
        at = at.run()
    assert "E-1109" not in texts(at.caption)
    assert any(message.name == "assistant" for message in at.chat_message)


def test_a_chat_replying_in_another_replica_waits_and_then_shows_the_reply(app) -> None:
    conversation_id = _chat(typed_message("find eggs"))
    with _replying_elsewhere(conversation_id) as store:
        at = _open(app)
        assert "another window" in texts(at.info)
        assert at.chat_input[0].disabled  # nothing can be typed into a chat that is busy
        assert at.chat_input[0].placeholder == "A reply is coming in another window…"
        assert "E-1109" not in texts(at.caption), "a running reply is not interrupted"

        reply = ChatMessage(role="assistant", content=[TextBlock(text="Eggs are in stock.")])
        store.append_messages(conversation_id, [reply])
    at = at.run()
    assert "another window" not in texts(at.info)
    assert "Eggs are in stock." in texts(at.markdown)
    assert not at.chat_input[0].disabled


def test_words_sent_from_the_input_as_it_turned_busy_are_kept_to_send_again(app) -> None:
    # The page shows an open input; another window starts a reply before Enter reaches
    # the app. The run that gets the words is one that waits for that reply: it keeps them.
    eggs = ChatMessage(role="assistant", content=[TextBlock(text="Eggs are in stock.")])
    conversation_id = _chat(typed_message("find eggs"), eggs)
    at = _open(app)
    assert not at.chat_input[0].disabled
    with _replying_elsewhere(conversation_id) as store:
        at = at.chat_input[0].set_value("and some bread").run()
        assert at.chat_input[0].disabled and "another window" in texts(at.info)
        assert "and some bread" in texts(at.markdown)  # kept on screen while it waits
        store.append_messages(conversation_id, [typed_message("find milk")])
        milk = ChatMessage(role="assistant", content=[TextBlock(text="Milk is in stock.")])
        store.append_messages(conversation_id, [milk])
    at = at.run()
    assert "Not sent yet (kept for you):" in texts(at.caption)
    at = buttons(at, "Send again")[0].click().run()
    for _ in range(10):  # the reply streams on its own thread; each run watches it
        if not buttons(at, "Send again"):
            break
        at = at.run()
    users = [m for m in at.chat_message if m.name == "user"]
    assert "and some bread" in texts(users[-1].markdown)
