"""Every starter chip of every shop, clicked in the real app's offline demo, leads somewhere.

A chip is a promise: its reply shows cards the person can act on (Add, Menu, Slots), never
an empty search, a raw data card or the planner's "here is what I can do" fallback. Each
chip runs in both result forms (the summary form goes through the local engine).
"""

from __future__ import annotations

import re

import pytest
from uihelpers import buttons, new_app, open_page, texts

from swiggy_core.verticals.catalog import VERTICALS

# The buttons a result card offers, per shop.
CARD_ACTIONS = {"food": "Add", "style": "Add", "dining": "Slots", "foodorder": "Menu"}
# Short enough to read whole on a chip.
MAX_LABEL = 40
CHIPS = [
    pytest.param(vertical_id, index, id=f"{vertical_id}-{index}")
    for vertical_id, vertical in VERTICALS.items()
    for index in range(len(vertical.starter_prompts))
]
_FALLBACK = "Try one of these"
_EMPTY = re.compile(
    r"couldn't find anything|couldn't find a matching|No restaurant near you delivers"
)
# How a tool result with no card of its own is drawn: "**message**: …" lines.
_RAW_CARD = re.compile(r"^\*\*(message|query|total\w*|statusMessage|hasMore)\*\*:", re.M)


def _reply_text(at) -> str:
    return texts(at.chat_message[-1].markdown)


@pytest.mark.parametrize(("vertical_id", "index"), CHIPS)
def test_every_starter_chip_leads_to_cards(
    app, result_form: str, vertical_id: str, index: int
) -> None:
    vertical = VERTICALS[vertical_id]
    label = vertical.starter_prompts[index]
    at = open_page(app, vertical.slug)
    chip = at.button(key=f"starter-{vertical_id}-{index}")
    assert chip.label == label
    chip.click().run()
    assert not at.exception
    reply = _reply_text(at)
    if not buttons(at, CARD_ACTIONS[vertical_id]) and buttons(at, "Use this address"):
        # The flow may stop to ask where: a person picks the first address and goes on.
        buttons(at, "Use this address")[0].click().run()
        at.chat_input[0].set_value(label).run()
        reply = _reply_text(at)
    assert [m.name for m in at.chat_message][-1] == "assistant"
    assert _FALLBACK not in reply, reply
    assert not _EMPTY.search(reply), reply
    assert not _RAW_CARD.search(reply), reply
    assert buttons(at, CARD_ACTIONS[vertical_id]), f"{label!r} showed no cards:\n{reply}"


def test_chip_labels_are_short_and_distinct() -> None:
    for vertical in VERTICALS.values():
        labels = vertical.starter_prompts
        assert len(set(labels)) == len(labels)
        assert all(len(label) <= MAX_LABEL for label in labels), labels


def test_the_milk_chip_puts_the_one_litre_pack_in_the_cart() -> None:
    at = open_page(new_app(), "nutricart")
    at.button(key="starter-food-1").click().run()
    assert "Added: 1 × Amul Taaza Toned Milk" in _reply_text(at)
    assert "Amul Taaza Toned Milk · 1 L" in texts(at.markdown)  # the pack the chip names
