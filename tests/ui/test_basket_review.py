"""A typed shopping list on NutriCart becomes a basket review in the chat; Add all writes
the cart once and the cart panel shows it (the offline planner and the sandbox shop)."""

from __future__ import annotations

import io

from PIL import Image
from streamlit.testing.v1 import AppTest
from uihelpers import buttons, new_app, open_page, same_browser, texts

from swiggy_core.errors import ErrorCode
from swiggy_sandbox.planner.brain import PHOTO_NEEDS_VISION
from swiggy_ui.basket_review import ADD_ALL_LABEL

LIST = "1 l milk, brown bread x2, something for dal tadka"


def _until(at: AppTest, done, runs: int = 20) -> AppTest:  # type: ignore[no-untyped-def]
    """Run again until `done(at)`: the reply runs on its own thread, each run watches it."""
    for _ in range(runs):
        if done(at):
            break
        at.run()
    assert not at.exception
    return at


def _sidebar(at: AppTest) -> str:
    return texts(at.sidebar.markdown) + texts(at.sidebar.caption)


def test_a_typed_list_becomes_a_review_and_add_all_fills_the_cart(app: AppTest) -> None:
    at = open_page(app, "nutricart")
    at.chat_input[0].set_value(LIST).run()
    at = _until(at, lambda at: buttons(at, ADD_ALL_LABEL))

    picks = {box.label: box for box in at.selectbox if str(box.key).startswith("basket-")}
    assert set(picks) == {"1 l milk", "brown bread x2"}
    assert len(picks["1 l milk"].options) == 3  # the best match and two alternatives
    milk = picks["1 l milk"].options[0]
    assert picks["1 l milk"].index == 0 and "1 L" in milk and "₹" in milk
    quantities = [box for box in at.number_input if str(box.key).startswith("basket-")]
    assert [box.value for box in quantities] == [1, 2]
    unmatched = texts(at.warning)
    assert "something for dal tadka" in unmatched and ErrorCode.LIST_UNMATCHED.value in unmatched
    assert "Your list: 3 lines, 2 matched" in texts(at.markdown)
    assert "Amul" not in _sidebar(at) and "Brown Bread" not in _sidebar(at)  # nothing added yet

    bread = picks["brown bread x2"]
    other_bread = bread.options[1]
    bread.select_index(1).run()
    quantities[0].set_value(3).run()
    buttons(at, ADD_ALL_LABEL)[0].click().run()
    at = _until(at, lambda at: "Brown Bread" in _sidebar(at))

    sidebar = _sidebar(at)
    assert other_bread.split(" · ")[0] in sidebar
    assert "Toned Milk" in sidebar
    # Added once: the review says so and its Add all is off, also after a reload (the
    # review and the action that added it are both stored with the chat).
    (add_all,) = buttons(at, ADD_ALL_LABEL)
    assert add_all.disabled and "You added this list" in texts(at.caption)
    again = open_page(same_browser(at), "nutricart")
    (add_all,) = buttons(again, ADD_ALL_LABEL)
    assert add_all.disabled and not again.exception


def test_a_photo_on_the_offline_demo_is_answered_plainly_with_no_basket() -> None:
    at = open_page(new_app(), "nutricart")
    picture = io.BytesIO()
    Image.new("RGB", (40, 30), (255, 255, 255)).save(picture, format="JPEG")
    at.chat_input[0].upload("list.jpg", picture.getvalue(), "image/jpeg").run()
    at = _until(at, lambda at: PHOTO_NEEDS_VISION in texts(at.markdown))
    assert "Photo: list.jpg" in texts(at.markdown)
    assert not buttons(at, ADD_ALL_LABEL)


def test_a_list_file_too_long_is_refused_with_its_code_and_the_words_kept() -> None:
    at = open_page(new_app(), "nutricart")
    lines = "\n".join(f"item number {n}" for n in range(60)).encode()
    at.chat_input[0].set_value("my list").upload("list.txt", lines, "text/plain").run()
    assert not at.exception
    shown = texts(at.error) + texts(at.warning) + texts(at.markdown) + texts(at.caption)
    assert ErrorCode.LIST_TOO_LONG.value in shown and "at most 40" in shown
    assert "my list" in shown  # kept for Send again


def test_a_csv_file_attached_becomes_a_review() -> None:
    at = open_page(new_app(), "nutricart")
    csv = b"item,qty\npaneer,2\nbrown bread,1\n"
    at.chat_input[0].upload("groceries.csv", csv, "text/csv").run()
    at = _until(at, lambda at: buttons(at, ADD_ALL_LABEL))
    assert "List from groceries.csv" in texts(at.markdown)
    picks = [box.label for box in at.selectbox if str(box.key).startswith("basket-")]
    assert picks == ["paneer", "brown bread"]
    quantities = [box.value for box in at.number_input if str(box.key).startswith("basket-")]
    assert quantities == [2, 1]
