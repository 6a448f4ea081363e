"""Dates, times and distances as a person reads them: one format everywhere."""

import math

import pytest

from swiggy_core.formatting import (
    clock_label,
    date_time_label,
    day_label,
    distance_label,
    meal_label,
    time_label,
)


@pytest.mark.parametrize(
    ("minutes", "text"),
    [(0, "12:00 AM"), (30, "12:30 AM"), (9 * 60 + 5, "9:05 AM"), (12 * 60, "12:00 PM"),
     (20 * 60, "8:00 PM"), (23 * 60 + 59, "11:59 PM"), (None, None), (-1, None), (1440, None)],
)  # fmt: skip
def test_clock_label_is_twelve_hour_with_minutes(minutes, text):
    assert clock_label(minutes) == text


@pytest.mark.parametrize(
    ("given", "text"),
    [("20:00", "8:00 PM"), ("8 pm", "8:00 PM"), ("8:00 PM", "8:00 PM"), ("07:30", "7:30 AM"),
     ("12:15", "12:15 PM"), ("soon", "soon"), ("", ""), (None, "")],
)  # fmt: skip
def test_time_label_gives_every_clock_one_format(given, text):
    assert time_label(given) == text


@pytest.mark.parametrize(
    ("given", "text"),
    [("2026-11-23", "Mon 23 Nov"), ("2026-11-01", "Sun 1 Nov"), ("2027-01-05", "Tue 5 Jan"),
     ("Tomorrow", "Tomorrow"), ("2026-02-30", "2026-02-30"), ("", ""), (None, "")],
)  # fmt: skip
def test_day_label_is_humane_and_leaves_other_labels_alone(given, text):
    assert day_label(given) == text


@pytest.mark.parametrize(
    ("given", "text"),
    [
        ("2026-11-23 20:00", "Mon 23 Nov, 8:00 PM"),
        ("2026-11-23T19:30:00+05:30", "Mon 23 Nov, 7:30 PM"),
        ("2026-11-23", "Mon 23 Nov"),
        ("19:30", "7:30 PM"),
        ("Saturday dinner", "Saturday dinner"),
        (None, ""),
    ],
)
def test_date_time_label_matches_the_rest_of_the_app(given, text):
    assert date_time_label(given) == text


@pytest.mark.parametrize("km", [None, 0, 0.0, -1.5, math.nan, math.inf, 5_000, True])
def test_unknown_zero_or_absurd_distances_are_not_shown(km):
    assert distance_label(km) is None


@pytest.mark.parametrize(("km", "text"), [(2.345, "2.3 km"), (12, "12.0 km"), (0.42, "420 m")])
def test_known_distances(km, text):
    assert distance_label(km) == text


@pytest.mark.parametrize(
    ("meal", "minutes", "text"),
    [
        (None, 8 * 60, "Breakfast"),
        (None, 11 * 60 + 29, "Breakfast"),
        (None, 11 * 60 + 30, "Lunch"),
        (None, 15 * 60 + 59, "Lunch"),
        (None, 16 * 60, "Dinner"),
        ("DINNER", 9 * 60, "Dinner"),  # the server's own group wins over the clock
        (" brunch ", None, "Brunch"),
        (None, None, "Other times"),
    ],
)
def test_meal_label(meal, minutes, text):
    assert meal_label(meal, minutes) == text
