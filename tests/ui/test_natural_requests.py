"""Natural first requests typed in the real app's offline demo lead to cards; a miss offers
the nearest requests as chips under the reply, and a tapped chip leads to cards too.

The full table of phrasings runs against the planner directly
(tests/unit/test_planner_phrasings.py); these few go through the whole app.
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest
from test_starter_chips import CARD_ACTIONS
from uihelpers import buttons, open_page, texts

from swiggy_core.verticals import VERTICALS

NATURAL = [
    ("food", "low sugar snacks for my dad"),
    ("food", "snacks under two hundred"),
    ("style", "cheap sunscreen"),
    ("foodorder", "chinese food for two"),
    ("foodorder", "biryani for my dad"),
    ("dining", "table for four tomorrow evening"),
]


def _ask(at: AppTest, vertical_id: str, said: str) -> str:
    """Type `said`; the reply's words as shown."""
    at.chat_input[0].set_value(said).run()
    assert not at.exception
    if not buttons(at, CARD_ACTIONS[vertical_id]) and buttons(at, "Use this address"):
        # The flow may stop to ask where: a person picks the first address and asks again.
        buttons(at, "Use this address")[0].click().run()
        at.chat_input[0].set_value(said).run()
    return texts(at.chat_message[-1].markdown)


def _chips(at: AppTest, vertical_id: str) -> list:
    return [b for b in at.button if str(b.key or "").startswith(f"suggest-{vertical_id}-")]


@pytest.mark.parametrize(("vertical_id", "said"), NATURAL)
def test_a_natural_request_leads_to_cards(app: AppTest, vertical_id: str, said: str) -> None:
    at = open_page(app, VERTICALS[vertical_id].slug)
    reply = _ask(at, vertical_id, said)
    assert buttons(at, CARD_ACTIONS[vertical_id]), f"{said!r} showed no cards:\n{reply}"
    assert not _chips(at, vertical_id), reply
    assert "couldn't find" not in reply and "No restaurant near you" not in reply


def test_a_miss_offers_the_nearest_requests_as_chips_that_lead_to_cards(app: AppTest) -> None:
    at = open_page(app, VERTICALS["foodorder"].slug)
    reply = _ask(at, "foodorder", "shawarma")
    chips = _chips(at, "foodorder")
    assert 2 <= len(chips) <= 3, reply
    assert "suggest" not in reply  # the chips' tags never show as text
    assert not buttons(at, "Menu")
    label = chips[0].label
    chips[0].click().run()
    assert not at.exception
    assert texts(at.chat_message[-2].markdown) == label  # sent as if typed
    assert buttons(at, "Menu"), texts(at.chat_message[-1].markdown)
    assert not _chips(at, "foodorder")  # a reply with cards offers none
