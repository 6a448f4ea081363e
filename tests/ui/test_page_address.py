"""The address is asked for once; the header shows it with a Change control."""

from __future__ import annotations

from uihelpers import buttons, open_page

PAGE = "app_pages/nutricart.py"


def test_the_header_changes_the_address_and_searches_never_relist_it(app):
    at = open_page(app, PAGE)
    assert not buttons(at, "Change address")  # nothing chosen yet
    at.chat_input[0].set_value("show my saved addresses").run()
    buttons(at, "Use this address")[0].click().run()
    assert len(buttons(at, "Change address")) == 1

    at.chat_input[0].set_value("find amul butter").run()
    at.chat_input[0].set_value("find eggs").run()
    users = [m for m in at.chat_message if m.name == "user"]
    # Two searches after choosing: no address listing in between.
    assert len(buttons(at, "Use this address")) == 2  # only the first listing's other two

    at = buttons(at, "Change address")[0].click().run()
    assert not at.exception
    said = [m.markdown[0].value for m in at.chat_message if m.name == "user"]
    assert said[-1] == "Show my saved addresses" and len(said) == len(users) + 1
    assert len(buttons(at, "Use this address")) >= 4  # a fresh listing to pick from
