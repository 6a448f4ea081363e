"""Retry-After read the same way for every server: seconds, an HTTP date, text; capped."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from swiggy_core.retry_after import (
    RETRY_AFTER_CAP_SECONDS,
    retry_after_headers,
    retry_after_text,
    retry_after_value,
    try_again_text,
)

NOW = datetime(2026, 11, 20, 7, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ("60", 60.0),
        ("0.5", 0.5),
        ("Fri, 20 Nov 2026 07:31:30 GMT", 90.0),  # an HTTP date, 90 s after NOW
        ("Fri, 20 Nov 2026 07:00:00 GMT", 0.0),  # already past
        ("-5", 0.0),
        ("nan", 0.0),
        ("inf", RETRY_AFTER_CAP_SECONDS),
        ("86400", RETRY_AFTER_CAP_SECONDS),
        ("soon", None),
        (None, None),
    ],
)
def test_retry_after_values(value: str | None, seconds: float | None) -> None:
    assert retry_after_value(value, now=NOW) == seconds


def test_milliseconds_win_and_text_names_a_wait() -> None:
    assert retry_after_headers({"Retry-After": "2", "retry-after-ms": "1500"}) == 1.5
    assert retry_after_headers({"retry-after-ms": "later", "retry-after": "3"}) == 3.0
    assert retry_after_text("Rate limit exceeded: 6 requests per minute. Retry after 41 s.") == 41
    assert retry_after_text("HTTP 429; Retry-After: 999999") == RETRY_AFTER_CAP_SECONDS
    assert retry_after_text("slow down") is None


def test_the_sentence_the_person_reads() -> None:
    assert try_again_text(60) == "Try again in 60 s."
    assert try_again_text(44.2) == "Try again in 45 s."  # rounded up: never too early
    assert try_again_text(None) == "Try again in a minute."
