"""The standing diet on the page: set once on Connections, a FeedMe menu with what may
break it last and flagged, and a NutriCart cart's nutrition estimate against the goal.
The real app with the in-process sandbox and the offline planner (AppTest)."""

from __future__ import annotations

from uihelpers import buttons, click, open_page, texts

DIET_CODE = "E-1021"


def _set_diet(at, *, diet: str, allergies: list[str], avoid: str, protein: str):
    at.switch_page("app_pages/connections.py").run()
    at.radio(key="form_diet_name").set_value(diet)
    at.multiselect(key="form_diet_allergies").set_value(allergies)
    at.text_input(key="form_diet_dislikes").set_value(avoid)
    at.text_input(key="form_diet_protein").set_value(protein)
    buttons(at, "Save my diet")[0].click().run()
    assert not at.exception
    return at


def test_the_diet_is_saved_on_connections_and_a_bad_goal_is_refused_with_its_code(app):
    at = open_page(app, "app_pages/connections.py")
    assert "Your diet" in texts(at.subheader)
    _set_diet(at, diet="vegetarian", allergies=["peanuts"], avoid="Karela", protein="lots")
    assert DIET_CODE in texts(at.caption)
    assert "A daily goal is a whole number" in texts(at.error)
    assert at.text_input(key="form_diet_protein").value == "lots"  # what was typed stays
    _set_diet(at, diet="vegetarian", allergies=["peanuts"], avoid="Karela", protein="60")
    saved = texts(at.success)
    assert "Saved. You eat: Vegetarian · allergies: peanuts · you avoid: karela" in saved
    assert "goal: 60 g protein a day" in saved
    at.switch_page("nutricart").run()
    at.switch_page("app_pages/connections.py").run()
    assert at.text_input(key="form_diet_dislikes").value == "karela"
    assert at.radio(key="form_diet_name").value == "vegetarian"


def test_a_feedme_menu_puts_what_breaks_the_diet_last_and_flags_it(app):
    at = open_page(app, "app_pages/connections.py")
    _set_diet(at, diet="vegetarian", allergies=[], avoid="", protein="")
    at.switch_page("feedme").run()
    at.chat_input[0].set_value("I want a biryani").run()
    click(at, "Menu")
    page = texts(at.markdown)
    assert "Not vegetarian]" in page  # the badge on a dish, with what it rests on
    assert "The shop marks it non-veg." in texts(at.caption)
    assert "may not suit your diet: moved to the end and flagged." in texts(at.caption)
    assert "may not suit your diet are last, flagged." in page  # the planner's reply
    # Every dish is still there: the first cards are vegetarian, the flagged ones follow.
    more = [b for b in at.button if b.label.startswith("Show ") and b.label.endswith(" more")]
    more[-1].click().run()
    shown = [str(m.value) for m in at.markdown]
    menu = max(i for i, text in enumerate(shown) if text.startswith("**Menu · "))
    names = [text for text in shown[menu:] if text.startswith((":green[●]", ":red[▲]"))]
    marks = [name.startswith(":red") for name in names]
    assert marks == sorted(marks) and any(marks) and not marks[0]


def test_a_nutricart_cart_shows_a_labelled_estimate_against_the_goal(app):
    at = open_page(app, "app_pages/connections.py")
    _set_diet(at, diet="any", allergies=[], avoid="", protein="60")
    at.switch_page("nutricart").run()
    at.chat_input[0].set_value("add 2 amul taaza milk").run()
    assert not at.exception
    sidebar = texts(at.sidebar.markdown)
    assert "**Nutrition estimate** · ≈" in sidebar and "g protein" in sidebar
    notes = texts(at.sidebar.caption)
    assert "days of your 60 g daily protein goal" in notes
    assert "typical values" in notes and "not the products' labels" in notes
