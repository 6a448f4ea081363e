"""Every text on the page in the main flows speaks to the person.

The real app with the offline planner and the in-process sandbox (AppTest): after each
step, every rendered text (markdown, captions, notices, buttons, choices) is scanned for
tool names, internal roles, things said twice and error codes outside their caption
(the rules are in `tests/app_text_rules.py`).
"""

from __future__ import annotations

import pytest
from app_text_rules import code_outside_caption, demo_labelled, page_doubles, problems
from uihelpers import buttons, open_page

_PLAIN = ("markdown", "warning", "error", "info", "success", "subheader", "title", "toast")


_NOTICES = ("warning", "error", "info", "success", "toast")


def _replies(at) -> list[str]:
    """The assistant's words in the chat (not the person's own)."""
    return [str(e.value) for m in at.chat_message if m.name == "assistant" for e in m.markdown]


def _shown(at) -> list[tuple[str, str]]:
    """(kind, text) of everything the page shows now."""
    found = [(kind, str(e.value)) for kind in (*_PLAIN, "caption") for e in at.get(kind)]
    found += [("button", str(b.label)) for b in at.button]
    for radio in at.radio:
        found += [("choice", str(radio.label)), *(("choice", str(o)) for o in radio.options)]
    return found


class _Page:
    """What the page showed after the last step, and what was wrong so far."""

    def __init__(self) -> None:
        self.before: set[tuple[str, str]] = set()
        self.wrong: list[str] = []

    def check(self, at) -> None:
        assert not at.exception
        shown = _shown(at)
        for kind, text in shown:
            wrong = problems(text)
            if kind != "caption" and (code := code_outside_caption(text)):
                wrong.append(f"code {code} outside its caption")
            if kind == "markdown" and demo_labelled(text):
                wrong.append("the offline-demo label on a reply")
            self._add(f"{kind}: {text!r} → {', '.join(wrong)}" if wrong else "")
        # What this step brought, read together: nothing said twice across it.
        new = [(kind, text) for kind, text in shown if (kind, text) not in self.before]
        notices = [text for kind, text in new if kind in _NOTICES]
        replies = [text for text in _replies(at) if ("markdown", text) in new]
        for found in page_doubles(notices, replies):
            self._add(found)
        self.before = set(shown)

    def step(self, at, *, say: str | None = None, press: str | None = None):
        if say is not None:
            at.chat_input[0].set_value(say).run()
        if press is not None:
            matches = buttons(at, press)
            assert matches, f"no {press!r} button; have {[b.label for b in at.button]}"
            matches[-1].click().run()
        self.check(at)
        return at

    def _add(self, line: str) -> None:
        if line and line not in self.wrong:
            self.wrong.append(line)

    def assert_nothing_wrong(self) -> None:
        assert not self.wrong, "\n".join(self.wrong)


def _opened(app, page_path: str):
    """A fresh `_Page` and the app opened on one of its pages (its URL path)."""
    return _Page(), open_page(app, page_path)


def _set_limits(at, per_order: str) -> None:
    """Save a per-order limit on Connections, then come back to NutriCart."""
    at.switch_page("app_pages/connections.py").run()
    at.text_input(key="form_limit_order").set_value(per_order)
    buttons(at, "Save limits")[0].click().run()
    assert not at.exception
    at.switch_page("nutricart").run()


def test_a_grocery_order_cancelled_then_placed_says_nothing_internal(app):
    page, at = _opened(app, "nutricart")
    page.check(at)
    page.step(at, press="Find high-protein snacks under ₹200")
    page.step(at, press="Add")
    page.step(at, press="Place order")
    page.step(at, press="Cancel")
    page.step(at, say="place the order")
    page.step(at, press="Confirm")
    assert "Order placed" in "\n".join(text for _, text in _shown(at))
    page.assert_nothing_wrong()


# Flows made only of steps: the page, then what the person does, one step at a time.
_STEP_FLOWS = {
    "help-addresses-and-a-miss": (
        "nutricart",
        [
            ("say", "what can you do?"),
            ("say", "show my saved addresses"),
            ("say", "book me a flight to Goa"),
        ],
    ),
    "food-order": (
        "feedme",
        [
            ("say", "I want a paneer biryani"),
            ("press", "Menu"),
            ("press", "Add"),
            ("press", "Place order"),
            ("press", "Confirm"),
        ],
    ),
    "skincare-routine": (
        "stylekit",
        [
            ("say", "Suggest a skincare routine for oily skin and find the products"),
            ("press", "Add"),
            ("say", "show my cart"),
        ],
    ),
}


@pytest.mark.parametrize(("page_path", "steps"), list(_STEP_FLOWS.values()), ids=list(_STEP_FLOWS))
def test_a_flow_says_nothing_internal(app, page_path: str, steps: list[tuple[str, str]]):
    page, at = _opened(app, page_path)
    for action, text in steps:
        page.step(at, **{action: text})
    page.assert_nothing_wrong()


def test_an_order_over_the_limit_is_refused_in_your_words(app):
    page, at = _opened(app, "nutricart")
    _set_limits(at, "1")
    page.step(at, say="add 2 amul taaza milk")
    page.step(at, say="place the order")
    assert not buttons(at, "Confirm")
    assert "E-1107" in "\n".join(str(c.value) for c in at.caption)  # for support, small
    page.assert_nothing_wrong()


def test_a_limit_met_at_confirm_is_refused_in_your_words(app):
    page, at = _opened(app, "nutricart")
    page.step(at, say="add 2 amul taaza milk")
    page.step(at, say="place the order")
    _set_limits(at, "1")
    page.check(at)
    page.step(at, press="Review and confirm")
    page.step(at, press="Confirm")
    assert "per-order limit of ₹1" in "\n".join(str(w.value) for w in at.warning)
    assert "E-1107" in "\n".join(str(c.value) for c in at.caption)
    page.assert_nothing_wrong()


def test_a_table_booking_cancelled_says_nothing_internal(app):
    page, at = _opened(app, "tablescout")
    page.step(at, say="Book a table for 4 tomorrow at 8 pm near Indiranagar")
    page.step(at, press="Slots")
    chips = [b for b in at.button if b.key and "-d0-" in b.key and not b.disabled]
    assert chips, "no free slot chips"
    chips[0].click().run()
    page.check(at)
    page.step(at, press="Cancel")
    page.assert_nothing_wrong()
