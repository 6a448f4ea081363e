"""Reading a shopping list: commas, lines, quantities, pack sizes, CSV, limits, hostile text."""

from __future__ import annotations

import pytest

from swiggy_core.basket_list import (
    MAX_LIST_BYTES,
    MAX_LIST_LINES,
    MAX_PACKS,
    WantedLine,
    looks_like_list,
    read_file,
    read_list,
    wanted_line,
)
from swiggy_core.errors import ErrorCode, InputError


def _names(lines: list[WantedLine]) -> list[tuple[str, int, str | None]]:
    return [(line.name, line.quantity, line.unit) for line in lines]


def test_a_comma_list_reads_sizes_counts_and_fillers() -> None:
    lines = read_list("2 l milk, a dozen eggs, bread, something for dal tadka")
    assert _names(lines) == [
        ("milk", 1, "2 l"),
        ("eggs", 1, "1 dozen"),
        ("bread", 1, None),
        ("dal tadka", 1, None),
    ]
    assert lines[0].query == "milk"
    assert lines[0].text == "2 l milk"


def test_one_item_a_line_with_bullets_and_counts() -> None:
    text = "- 2 packs of bread\n* 500g paneer\n3 x onions\ntomatoes x4\n1. half kg atta\n[x] eggs"
    assert _names(read_list(text)) == [
        ("bread", 2, None),
        ("paneer", 1, "500 g"),
        ("onions", 3, None),
        ("tomatoes", 4, None),
        ("atta", 1, "0.5 kg"),
        ("eggs", 1, None),
    ]


def test_lines_win_over_commas_inside_a_line() -> None:
    assert [line.name for line in read_list("milk\nbread, brown\neggs")] == [
        "milk",
        "bread, brown",
        "eggs",
    ]


@pytest.mark.parametrize(
    ("text", "is_list"),
    [
        ("2 l milk, a dozen eggs, bread, something for dal tadka", True),
        ("milk\neggs\nbread", True),
        ("milk, eggs", False),  # two things: a message, not a list
        ("Hi, can you help, please", False),
        ("find oats, milk, bread", False),
        ("yes, confirm, place the order", False),
        ("add milk, eggs, bread", False),
        ("milk, eggs, bread?", False),
        ("I want a healthy breakfast, something light, under 200 rupees please", False),
        ("oats, milk, a very long sentence that goes on and on about things", False),
    ],
)
def test_the_rule_for_a_typed_list(text: str, is_list: bool) -> None:
    assert looks_like_list(text) is is_list


def test_hostile_text_is_plain_words() -> None:
    lines = read_list("<card_action>{}</card_action>, milk\u200b\u202e, , 99, ;;;, " + "x" * 500)
    assert [line.name for line in lines][:2] == ["card_action {} /card_action", "milk"]
    assert all("<" not in line.text and "\u202e" not in line.text for line in lines)
    assert all(len(line.text) <= 80 for line in lines)
    assert "99" not in [line.name for line in lines]  # a bare number is nothing to search


def test_counts_are_capped() -> None:
    line = wanted_line("999 x bananas")
    assert line is not None and line.quantity == MAX_PACKS


def test_too_many_lines_is_refused_with_its_code() -> None:
    text = "\n".join(f"item {n}" for n in range(MAX_LIST_LINES + 1))
    with pytest.raises(InputError) as raised:
        read_list(text)
    assert raised.value.code == ErrorCode.LIST_TOO_LONG
    assert str(MAX_LIST_LINES) in raised.value.message


def test_too_big_a_file_is_refused_with_its_code() -> None:
    with pytest.raises(InputError) as raised:
        read_file("list.txt", b"milk\n" * (MAX_LIST_BYTES // 5 + 1))
    assert raised.value.code == ErrorCode.LIST_TOO_LONG


def test_a_binary_file_is_refused_with_its_code() -> None:
    with pytest.raises(InputError) as raised:
        read_file("list.txt", b"\xff\xd8\xff\xe0 not text")
    assert raised.value.code == ErrorCode.LIST_UNREADABLE
    assert "list.txt" in raised.value.message


def test_a_csv_with_a_header_and_a_quantity_column() -> None:
    data = b"Item,Qty\n2 l milk,2\n\neggs,\nbrown bread,3\n"
    assert _names(read_file("Groceries.CSV", data)) == [
        ("milk", 2, "2 l"),
        ("eggs", 1, None),
        ("brown bread", 3, None),
    ]


def test_a_csv_without_a_header_and_a_text_file() -> None:
    assert _names(read_file("l.csv", b"milk,2\nbread,x\n")) == [
        ("milk", 2, None),
        ("bread", 1, None),
    ]
    assert _names(read_file("l.txt", "\ufeffmilk\nbread\n".encode())) == [
        ("milk", 1, None),
        ("bread", 1, None),
    ]
