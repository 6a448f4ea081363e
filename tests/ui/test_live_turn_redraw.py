"""A streaming reply is redrawn at a pace, not once per chunk, and never loses its end.

Each redraw sends the whole reply so far to the browser, which lays it out again: a reply
of 40 chunks redrawn per chunk is 40 layouts of a growing text on a phone. The clock and
the placeholder are the only stand-ins; the drawing logic is the page's own.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from swiggy_ui import live_turn
from swiggy_ui.safe_text import markdown_text


class Placeholder:
    """`st.empty()`'s stand-in: keeps every text drawn into it."""

    def __init__(self) -> None:
        self.drawn: list[str] = []

    def markdown(self, body: str) -> None:
        self.drawn.append(body)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def page(monkeypatch: pytest.MonkeyPatch) -> tuple[Placeholder, Clock]:
    placeholder, clock = Placeholder(), Clock()
    monkeypatch.setattr(live_turn.st, "empty", lambda: placeholder)
    monkeypatch.setattr(live_turn.time, "monotonic", clock)
    return placeholder, clock


def _words(count: int) -> list[str]:
    return [f"word{index} " for index in range(count)]


def test_a_burst_of_chunks_is_drawn_first_and_last_not_once_per_chunk(page) -> None:
    placeholder, _clock = page
    chunks = _words(40)
    text = live_turn._stream_text(iter(chunks))
    assert text == "".join(chunks)
    # The first words at once, then the whole reply when it ends.
    assert placeholder.drawn == [markdown_text(chunks[0]), markdown_text(text)]


def test_a_slow_stream_is_drawn_as_it_comes(page) -> None:
    placeholder, clock = page

    def arriving() -> Iterator[str]:
        for chunk in _words(5):
            clock.now += live_turn.REDRAW_SECONDS  # each chunk a redraw's pace after the last
            yield chunk

    text = live_turn._stream_text(arriving())
    assert len(placeholder.drawn) == 5
    assert placeholder.drawn[-1] == markdown_text(text)


def test_words_held_back_are_drawn_at_the_next_tick(page) -> None:
    placeholder, clock = page

    def with_a_pause() -> Iterator[str]:
        yield "Looking "
        yield "for eggs"  # same instant: held back
        assert placeholder.drawn == [markdown_text("Looking ")]
        clock.now += live_turn.HEARTBEAT_SECONDS
        yield ""  # nothing new came for a while: the page ticks
        assert placeholder.drawn[-1] == markdown_text("Looking for eggs")
        yield ""  # another tick with nothing new draws nothing
        assert len(placeholder.drawn) == 2

    live_turn._stream_text(with_a_pause())
    assert len(placeholder.drawn) == 2


def test_a_reply_of_only_blank_chunks_draws_nothing(page) -> None:
    placeholder, _clock = page
    assert live_turn._stream_text(iter(["", "  ", "\n"])) == "  \n"
    assert placeholder.drawn == []
