"""Opening a chat settles a crash's confirmation once; a chat held by a live turn when
the page was drawn is looked at again (it was marked done and never settled)."""

from __future__ import annotations

from swiggy_core.approval.on_sight import Settled
from swiggy_ui import turn_states
from swiggy_ui.state import VerticalChat


class Session:
    """Answers settle_on_sight from a script and counts the looks."""

    conversation_id = "chat-1"

    def __init__(self, *answers: Settled) -> None:
        self.answers = list(answers)
        self.looks = 0

    def settle_on_sight(self) -> Settled:
        self.looks += 1
        return self.answers.pop(0)


def test_a_held_chat_is_looked_at_again_until_it_could_be_settled() -> None:
    page = VerticalChat(vertical_id="groceries")
    session = Session(Settled(deferred=True), Settled(answered=("toolu_1",)))
    assert turn_states.settle_once(page, session) is True  # type: ignore[arg-type]
    assert page.settled_for is None
    assert turn_states.settle_once(page, session) is False  # type: ignore[arg-type]
    assert page.settled_for == "chat-1" and session.looks == 2
    assert turn_states.settle_once(page, session) is False  # type: ignore[arg-type]
    assert session.looks == 2  # once settled, never again for this chat
