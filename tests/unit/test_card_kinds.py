"""Card kinds are named once (`CARD_KINDS`): every card model carries one, every one is drawn."""

from __future__ import annotations

from typing import get_args

import pytest

from swiggy_core.parsers import CARD_KINDS, ParsedToolResult
from swiggy_ui.cards import RENDERERS, renderer_for


def _model_tags() -> list[str]:
    union = get_args(ParsedToolResult)[0]
    return [model.model_fields["type"].default for model in get_args(union)]


def test_the_card_models_are_tagged_with_exactly_the_card_kinds() -> None:
    assert len(set(CARD_KINDS)) == len(CARD_KINDS)
    assert sorted(_model_tags()) == sorted(CARD_KINDS)


def test_every_card_kind_has_a_renderer() -> None:
    assert set(RENDERERS) == set(CARD_KINDS)
    for kind in CARD_KINDS:
        assert callable(RENDERERS[kind]) and RENDERERS[kind] is renderer_for(kind)


def test_a_kind_without_a_renderer_fails_loudly() -> None:
    with pytest.raises(AssertionError):
        renderer_for("coupon")  # type: ignore[arg-type]
