"""A shopping list as typed, pasted, read from a file or transcribed from a photo, read into
typed `WantedLine`s: what is wanted, how many packs, and the pack size asked for.

"2 l milk, a dozen eggs, bread, something for dal tadka" → milk (pack 2 l), eggs (pack
1 dozen), bread, dal tadka. Items are split by lines, else by commas or semicolons;
"3 x bread", "bread x3" and a CSV quantity column say how many packs. Limits keep a list
to what one review can show: at most `MAX_LIST_LINES` lines and `MAX_LIST_BYTES` bytes.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from typing import Final

from pydantic import BaseModel, ConfigDict

from swiggy_core.errors import ErrorCode, InputError

MAX_LIST_LINES: Final = 40
MAX_LIST_BYTES: Final = 20_000
# A typed message is a list when it names at least this many short things.
MIN_LIST_ITEMS: Final = 3
MAX_ITEM_WORDS: Final = 6
MAX_ITEM_CHARS: Final = 80
MAX_PACKS: Final = 20

# Openers of a sentence to the assistant, never of a shopping list.
_CHAT_OPENERS: Final = frozenset({
    "hi", "hello", "hey", "please", "can", "could", "would", "what", "how", "why", "when",
    "where", "which", "who", "show", "find", "search", "get", "tell", "i", "i'm", "im",
    "thanks", "thank", "my", "do", "does", "is", "are", "yes", "no", "ok", "okay", "sure",
    "add", "buy", "order", "place", "confirm", "cancel", "remove", "plan", "make",
    "suggest", "give", "need", "want", "let's", "lets", "book",
})  # fmt: skip
_NUMBER_WORDS: Final = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "half": 0.5,
}  # fmt: skip
# Units that name a pack size ("2 l milk": one 2-litre pack), in the spelling shown.
_SIZE_UNITS: Final = {
    "kg": "kg", "kgs": "kg", "kilo": "kg", "kilos": "kg", "g": "g", "gm": "g", "gms": "g",
    "grams": "g", "gram": "g", "l": "l", "ltr": "l", "litre": "l", "litres": "l",
    "liter": "l", "liters": "l", "ml": "ml", "dozen": "dozen",
}  # fmt: skip
# Units that count packs ("2 packs of bread": two packs).
_COUNT_UNITS: Final = frozenset({
    "x", "pack", "packs", "packet", "packets", "pc", "pcs", "piece", "pieces", "nos",
})  # fmt: skip
_FILLERS: Final = re.compile(
    r"^(?:(?:something|anything|stuff|things)\s+(?:for|to make)|some|a few|any|of)\s+", re.I
)
_BULLET: Final = re.compile(r"^\s*(?:[-*•·]|\d{1,2}[.)]|\[\s?[xX ]?\s?\])\s*")
_TRAILING_COUNT: Final = re.compile(r"\s*(?:x|×|\*|-)\s*(\d{1,3})$", re.I)
_CONTROL: Final = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u200b-\u200f\u2028-\u202e\u2060-\u2064]")
_ATTACHED: Final = re.compile(r"(\d+(?:\.\d+)?)([a-z]+)", re.I)


class WantedLine(BaseModel):
    """One thing on the list: its words as written, what to search, packs and pack size."""

    model_config = ConfigDict(frozen=True)

    text: str
    name: str
    quantity: int = 1
    unit: str | None = None  # the pack size asked for ("2 l", "1 dozen")

    @property
    def query(self) -> str:
        """What the shop is searched for: the thing (its pack size picks the pack)."""
        return self.name


def looks_like_list(text: str) -> bool:
    """The rule for a typed message: at least three short things separated by commas or
    lines, no question, and not opening like a sentence to the assistant."""
    if "?" in text or len(text.encode()) > MAX_LIST_BYTES:
        return False
    items = _items(text)
    if len(items) < MIN_LIST_ITEMS:
        return False
    first = items[0].split()[0].lower().strip(",.!")
    if first in _CHAT_OPENERS:
        return False
    return all(len(item.split()) <= MAX_ITEM_WORDS for item in items)


def read_list(text: str) -> list[WantedLine]:
    """The wanted lines of a typed or transcribed list. Raises InputError beyond the limits."""
    _check_size(len(text.encode()))
    items = _items(text)
    _check_lines(len(items))
    return [line for item in items if (line := wanted_line(item)) is not None]


def read_file(name: str, data: bytes) -> list[WantedLine]:
    """The wanted lines of a .txt or .csv file. Raises InputError (too big, not text)."""
    _check_size(len(data))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(
            f"{name} is not a text file you can read as a list. Send a .txt or .csv list.",
            code=ErrorCode.LIST_UNREADABLE,
        ) from error
    if not name.lower().endswith(".csv"):
        return read_list(text)
    rows = [row for row in csv.reader(io.StringIO(text)) if any(cell.strip() for cell in row)]
    rows = rows[1:] if rows and _is_header(rows[0]) else rows
    _check_lines(len(rows))
    return [line for row in rows if (line := _csv_line(row)) is not None]


def wanted_line(item: str) -> WantedLine | None:
    """One item read: "2 l milk", "a dozen eggs", "bread x3" (None: no words in it)."""
    text = _clean(item)
    rest, quantity = _trailing_count(text)
    words = _split_attached(rest.split())
    unit: str | None = None
    amount = _number(words[0]) if words else None
    said = words[1].lower() if len(words) > 1 else ""
    if amount is not None and said in _SIZE_UNITS and len(words) > 2:
        unit, words = f"{_plain_number(amount)} {_SIZE_UNITS[said]}", words[2:]
    elif amount is not None and said in _COUNT_UNITS and len(words) > 2 and amount >= 1:
        quantity, words = int(amount), words[2:]
    elif amount is not None and len(words) > 1 and amount >= 1:
        quantity, words = int(amount), words[1:]
    rest = " ".join(words)
    name = _FILLERS.sub("", rest).strip(" .,:;-") or rest
    if not any(ch.isalpha() for ch in name):
        return None  # nothing to search for: a bare number or symbols
    return WantedLine(text=text, name=name, quantity=max(1, min(quantity, MAX_PACKS)), unit=unit)


def _split_attached(words: list[str]) -> list[str]:
    """ "2l milk" → ["2", "l", "milk"]: a size written without a space."""
    match = _ATTACHED.fullmatch(words[0]) if words else None
    if match is None or match.group(2).lower() not in _SIZE_UNITS:
        return words
    return [match.group(1), match.group(2), *words[1:]]


def _items(text: str) -> list[str]:
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) == 1:
        lines = re.split(r"[,;]", lines[0])
    return [line.strip() for line in lines if line.strip()]


def _clean(item: str) -> str:
    """Printable, single-spaced, no bullet, no markup brackets, at most MAX_ITEM_CHARS."""
    text = unicodedata.normalize("NFKC", item)
    text = _CONTROL.sub("", text).replace("<", " ").replace(">", " ")
    text = _BULLET.sub("", text)
    return " ".join(text.split())[:MAX_ITEM_CHARS]


def _trailing_count(text: str) -> tuple[str, int]:
    """ "bread x3" → ("bread", 3); else (text, 1)."""
    match = _TRAILING_COUNT.search(text)
    if match is None or match.start() == 0:
        return text, 1
    count = int(match.group(1))
    return (text[: match.start()], count) if count >= 1 else (text, 1)


def _number(word: str) -> float | None:
    if word.replace(".", "", 1).isdigit():
        return float(word)
    return _NUMBER_WORDS.get(word.lower())


def _plain_number(amount: float) -> str:
    return str(int(amount)) if amount == int(amount) else str(amount)


def _is_header(row: list[str]) -> bool:
    cells = {cell.strip().lower() for cell in row}
    return bool(cells & {"item", "items", "name", "product", "quantity", "qty"})


def _csv_line(row: list[str]) -> WantedLine | None:
    """A CSV row: the item in the first cell, a number of packs in the second (if any)."""
    line = wanted_line(row[0])
    count = row[1].strip() if len(row) > 1 else ""
    if line is None or not count.isdigit():
        return line
    return line.model_copy(update={"quantity": max(1, min(int(count), MAX_PACKS))})


def _check_size(size: int) -> None:
    _within(size, MAX_LIST_BYTES, f"That list is {size:,} bytes; a list can be at most "
            f"{MAX_LIST_BYTES:,}.")  # fmt: skip


def _check_lines(count: int) -> None:
    _within(count, MAX_LIST_LINES, f"That list has {count} lines; a list can have at most "
            f"{MAX_LIST_LINES}.")  # fmt: skip


def _within(amount: int, limit: int, said: str) -> None:
    if amount > limit:
        raise InputError(
            f"{said} Split it and send the parts one by one.", code=ErrorCode.LIST_TOO_LONG
        )
