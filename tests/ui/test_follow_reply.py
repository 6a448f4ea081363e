"""The page follows the reply you sent into view once more when its stored cards are
drawn (they make the page taller after the follow during streaming has ended)."""

from __future__ import annotations

import re

from uihelpers import open_page

_FOLLOW = re.compile(r"/\* ([0-9a-f]+)-(live|drawn) \*/")


def _follows(at) -> list[tuple[str, str]]:
    scripts = [str(element.proto) for element in at.get("iframe")]
    return [match.groups() for script in scripts if (match := _FOLLOW.search(script))]


def test_the_drawn_reply_is_followed_once(app) -> None:
    at = open_page(app, "nutricart")
    at.chat_input[0].set_value("find eggs").run()
    assert not at.exception
    follows = _follows(at)
    assert len(follows) == 1 and follows[0][1] == "drawn", follows
    at.run()  # the next run (a click, a toggle) does not pull the page down again
    assert _follows(at) == []
