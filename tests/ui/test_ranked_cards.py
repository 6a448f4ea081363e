"""Results that fit: a real offline search shows first what fits the request, and what fits
it less one tap away (never silently hidden)."""

from __future__ import annotations

from uihelpers import buttons, open_page, texts

from swiggy_sandbox.catalog import load_catalog


def _product_names() -> set[str]:
    catalog = load_catalog()
    return {product.display_name for product in catalog.search_products("protein")} | {
        product.display_name for product in catalog.search_products("high protein snacks")
    }


def _card_names(at) -> list[str]:
    """Product names as the cards show them (a bold line each), top to bottom."""
    known = _product_names()
    shown = [str(m.value).strip("*") for m in at.markdown if str(m.value).startswith("**")]
    return [name for name in shown if name in known]


def _bold(at) -> list[str]:
    """Headings and names (bold lines), prices left out."""
    values = [str(m.value) for m in at.markdown]
    return [value for value in values if value.startswith("**") and "₹" not in value]


def _say(at, text: str):
    at.chat_input[0].set_value(text).run()
    assert not at.exception
    return at


def test_the_first_card_of_an_offline_search_fits_what_was_asked(app) -> None:
    at = open_page(app, "nutricart")
    _say(at, "high protein snacks")
    if buttons(at, "Use this address"):  # a first search may ask where to deliver first
        buttons(at, "Use this address")[0].click().run()
        assert not at.exception
    names = _card_names(at)
    assert names, texts(at.markdown)
    assert "Protein Bar" in names[0], names
    assert not any("Shake" in name or "Oats" in name for name in names), names

    (more,) = [b for b in at.button if b.label.endswith("that fit less")]
    assert more.label.startswith("Show ")
    more.click().run()
    assert not at.exception
    opened = _card_names(at)
    assert any("Milk Shake" in name for name in opened), "set aside, not lost"
    assert opened.index(names[0]) < min(i for i, n in enumerate(opened) if "Shake" in n)
    assert "other kinds of product" in texts(at.caption)


def test_the_fit_less_button_and_group_headings_render_from_a_stored_card() -> None:
    from streamlit.testing.v1 import AppTest

    def _render() -> None:
        from swiggy_core.parsers import ItemGroup, ProductItem, ProductsResult
        from swiggy_core.verticals import get_vertical
        from swiggy_ui.cards import CardContext, render_result

        items = [ProductItem(name=f"Item {i}", price=10.0 * i) for i in range(1, 6)]
        result = ProductsResult(
            items=items,
            fitting=3,
            groups=[ItemGroup(label="Milk", size=2), ItemGroup(label="Eggs", size=1)],
            fit_less_why=["over ₹30"],
        )
        render_result(result, CardContext(key="t", vertical=get_vertical("food")))

    at = AppTest.from_function(_render, default_timeout=60).run()
    assert not at.exception
    bold = _bold(at)
    assert bold == ["**Milk**", "**Item 1**", "**Item 2**", "**Eggs**", "**Item 3**"]
    (more,) = buttons(at, "Show 2 more that fit less")
    more.click().run()
    bold = _bold(at)
    assert bold[-2:] == ["**Item 4**", "**Item 5**"]
    assert "These fit your request less: over ₹30" in texts(at.caption)
