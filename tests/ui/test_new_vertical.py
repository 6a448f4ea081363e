"""A fifth vertical is its catalog entry: registered at test time, it has a page at its slug
(title, starter prompts, chat input) and a card on Home, with no page file or table to edit.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from uihelpers import open_page, texts

from swiggy_core.verticals import (
    VERTICALS,
    PromptProfile,
    Vertical,
    build_system_prompt,
    register_vertical,
    unregister_vertical,
)

TOY = Vertical(
    id="pharmacy",
    display_name="PillBox",
    slug="pillbox",
    tagline="Everyday medicines and first aid, delivered",
    icon=":material/medication:",
    server_key="instamart",
    profile=PromptProfile(
        mission="You are PillBox, a pharmacy assistant on Swiggy Instamart.",
        scope=("Over-the-counter medicines and first-aid supplies.",),
        slots=("Product, brand, pack size, quantity.",),
        phases=("Search, then add what the person chooses.",),
        policies=("Never advise on prescriptions.",),
        style=("Brief and plain.",),
        confirmation=("Ask before checkout.",),
        fallbacks=("Nothing found: search once more, broader.",),
        include_cod_rule=True,
    ),
    starter_prompts=("Find a digital thermometer", "Add a box of plasters"),
)


@pytest.fixture
def toy() -> Iterator[Vertical]:
    register_vertical(TOY)
    yield TOY
    unregister_vertical(TOY.id)


def test_a_registered_vertical_opens_at_its_slug_with_its_title_prompts_and_input(app, toy):
    at = open_page(app, toy.slug)
    assert not at.exception
    assert [title.value for title in at.title] == ["PillBox"]
    chips = [at.button(key=f"starter-{toy.id}-{i}").label for i in range(2)]
    assert chips == list(toy.starter_prompts)
    assert [box.placeholder for box in at.chat_input] == ["Ask PillBox…"]


def test_home_shows_a_registered_vertical_beside_the_four(app, toy):
    at = open_page(app, "app_pages/home.py")
    assert not at.exception
    shops = texts(at.subheader)
    for vertical in VERTICALS.values():
        assert vertical.display_name in shops
    assert toy.tagline in texts(at.caption)


def test_the_catalog_takes_it_and_refuses_a_second_id_or_slug(toy):
    assert VERTICALS[toy.id] is toy
    assert "You are PillBox" in build_system_prompt(toy.id)
    with pytest.raises(ValueError, match="already registered"):
        register_vertical(toy)
    with pytest.raises(ValueError, match="slug 'nutricart'"):
        register_vertical(Vertical(**{**_fields(toy), "id": "other", "slug": "nutricart"}))


def test_it_is_gone_once_unregistered():
    register_vertical(TOY)
    unregister_vertical(TOY.id)
    assert TOY.id not in VERTICALS


def _fields(vertical: Vertical) -> dict[str, object]:
    return {name: getattr(vertical, name) for name in Vertical.__dataclass_fields__}
