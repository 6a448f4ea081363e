"""Large tool results reduced for the model by importance; the cards keep the full result.

JSON is walked key by key (`_importance`): LOW fields go first, then MEDIUM ones (and
repeats of what stays), then long strings are shortened, then list items are dropped
(each list keeps the same number of items, those naming the query first, else the
leading ones; every kept item keeps all its HIGH fields). The result is JSON of the same
top-level shape carrying a `"_reduced"` note. HTML becomes its text; text keeps the lines
that match the query or hold ids and prices, then its head.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
from collections import Counter
from typing import Any, Final, NamedTuple

from swiggy_core.constants import LARGE_RESULT_CHARS
from swiggy_core.conversation._importance import Importance
from swiggy_core.conversation._json_fit import Drop, Shrinker
from swiggy_core.conversation._reduce_text import (
    ELLIPSIS,
    html_to_text,
    looks_like_html,
    reduce_lines,
)
from swiggy_core.conversation._reduce_walk import (
    SAME_AS_BEFORE,
    QueryRank,
    Walk,
    WalkLog,
    expand_back_references,
    with_back_references,
)

__all__ = [
    "LARGE_RESULT_CHARS",
    "NOTE_KEY",
    "REDUCE_SLACK",
    "SAME_AS_BEFORE",
    "Reduced",
    "expand_back_references",
    "reduce_for_model",
]

logger = logging.getLogger(__name__)

NOTE_KEY: Final = "_reduced"
_NOTE_MAX: Final = 360
# The note and what it takes to add it: ',"_reduced":' on an object, ',{"_reduced":}' on a list.
_NOTE_RESERVE: Final = _NOTE_MAX + len(f',{{"{NOTE_KEY}":}}')
# The most a reduced result exceeds its limit by (only when the limit is tiny).
REDUCE_SLACK: Final = _NOTE_MAX + 40
# Strings above these lengths are cut in turn, before any list item is dropped.
_TEXT_CAPS: Final = (240, 120, 60)
# The history's old results are reduced again every turn: the same text gives the same
# result, so each is worked out once, remembered by a digest of the text (the memory holds
# only reduced results, whatever the size of the originals).
_MEMO_ENTRIES: Final = 512
_memo: dict[tuple[bytes, int, str], Reduced] = {}
_memo_lock = threading.Lock()
_LONE_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


class Reduced(NamedTuple):
    """The text for the model, what was left out of it, and whether the text changed."""

    text: str
    dropped: tuple[str, ...]
    reduced: bool


def reduce_for_model(text: str, *, limit: int = LARGE_RESULT_CHARS, query: str = "") -> Reduced:
    """`text` within about `limit` chars, keeping ids, names, prices and availability."""
    limit = max(limit, 0)
    if len(text) <= limit:
        return Reduced(text, (), False)
    key = (hashlib.blake2b(text.encode(), digest_size=16).digest(), limit, query)
    with _memo_lock:
        remembered = _memo.get(key)
    if remembered is not None:
        return remembered
    reduced = _reduce_safely(text, limit, query)
    with _memo_lock:
        _memo[key] = reduced
        while len(_memo) > _MEMO_ENTRIES:  # the oldest entries go first
            _memo.pop(next(iter(_memo)))
    return reduced


def _reduce_safely(text: str, limit: int, query: str) -> Reduced:
    try:
        return _reduce(text, limit, query)
    except Exception:  # a reducer bug must never cost the person their turn
        logger.exception("tool result reduction failed; cutting it instead")
        return _plain_cut(text, limit)


def _reduce(text: str, limit: int, query: str) -> Reduced:
    try:
        value = json.loads(text, parse_constant=lambda _constant: None)
    except ValueError:
        pass
    except RecursionError:
        return _too_deep(text)
    else:
        ascii_only = bool(_LONE_SURROGATE_ESCAPE.search(text))
        try:
            return _reduce_json(value, len(text), limit, ascii_only, query)
        except RecursionError:
            return _too_deep(text)
    if looks_like_html(text):
        return _reduce_text(html_to_text(text), len(text), limit, query, "HTML as text")
    return _reduce_text(text, len(text), limit, query, "")


def _reduce_text(text: str, original: int, limit: int, query: str, how: str) -> Reduced:
    budget = max(limit - _NOTE_MAX // 3, 0)
    dropped: list[str] = [how] if how else []
    if len(text) > budget:
        text, kept, total = reduce_lines(text, budget, query)
        dropped.append(f"kept {kept} of {total} lines")
    note = f"[reduced: {'; '.join(dropped)}; {original} chars in all]"
    return Reduced(f"{text}\n{note}", tuple(dropped), True)


def _plain_cut(text: str, limit: int) -> Reduced:
    what = f"cut to {limit} of {len(text)} chars"
    return Reduced(f"{text[:limit]}\n{ELLIPSIS}[reduced: {what}]", (what,), True)


def _too_deep(text: str) -> Reduced:
    what = f"{len(text)} chars of JSON nested too deeply to read"
    note = {NOTE_KEY: {"dropped": [what]}}
    shaped: Any = [note] if text.lstrip().startswith("[") else note
    return Reduced(json.dumps(shaped), (what,), True)


class _Json:
    """Dumps with one setting for every measurement, so sizes add up."""

    def __init__(self, ascii_only: bool) -> None:
        self.ascii_only = ascii_only

    def dumps(self, value: Any) -> str:
        return json.dumps(value, ensure_ascii=self.ascii_only, separators=(",", ":"))


def _reduce_json(value: Any, original: int, limit: int, ascii_only: bool, query: str) -> Reduced:
    js = _Json(ascii_only)
    compact = js.dumps(value)
    if len(compact) <= limit:
        return Reduced(compact, (), True)  # whitespace was all there was to lose
    if not isinstance(value, dict | list):
        return _scalar(value, compact, original, limit, js)
    budget = max(limit - _NOTE_RESERVE, 2)
    log = WalkLog()
    current = value
    for walk in _walks():
        if walk.text_cap is not None and log.longest_text <= walk.text_cap:
            continue  # nothing that long is left
        current = walk.run(current, log)
        shaped, repeats = _shaped(current, walk.drop_below)
        if len(js.dumps(shaped)) <= budget:
            return _with_note(shaped, repeats, log=log, original=original, js=js)
    fitted = _cap_lists(current, budget, log, js, QueryRank(query))
    if fitted is not None:
        return _with_note(*fitted, log=log, original=original, js=js)
    shaped, repeats = _shaped(current, Importance.HIGH)
    squeezed = Shrinker(frozenset(), ensure_ascii=ascii_only).fit(shaped, budget)
    log.extra.append("more fields to fit")
    empty: Any = {} if isinstance(value, dict) else []
    kept = empty if isinstance(squeezed, Drop) else squeezed
    return _with_note(kept, repeats, log=log, original=original, js=js)


def _walks() -> list[Walk]:
    """The passes in order: LOW fields, MEDIUM fields, then ever shorter strings."""
    return [Walk(drop_below=Importance.MEDIUM), Walk(drop_below=Importance.HIGH)] + [
        Walk(drop_below=Importance.HIGH, text_cap=cap) for cap in _TEXT_CAPS
    ]


def _shaped(value: Any, drop_below: int) -> tuple[Any, Counter[str]]:
    """`value` as sent: once MEDIUM fields go, repeated sub-records are referred back to."""
    repeats: Counter[str] = Counter()
    if drop_below < Importance.HIGH:
        return value, repeats
    return with_back_references(value, repeats), repeats


def _cap_lists(
    value: Any, budget: int, log: WalkLog, js: _Json, rank: QueryRank
) -> tuple[Any, Counter[str]] | None:
    """`value` with every list cut to the most items that fit (query matches first)."""
    best: tuple[Any, Counter[str], WalkLog] | None = None
    low, high = 0, max(log.longest_list - 1, 0)
    while low <= high:  # the largest cap that fits; fewer items never make it longer
        cap = (low + high) // 2
        trial = WalkLog()
        walk = Walk(drop_below=Importance.HIGH, list_cap=cap, rank=rank)
        shaped, repeats = _shaped(walk.run(value, trial), Importance.HIGH)
        if len(js.dumps(shaped)) <= budget:
            best = (shaped, repeats, trial)
            low = cap + 1
        else:
            high = cap - 1
    if best is None:
        return None
    log.lists = best[2].lists
    return best[0], best[1]


def _with_note(
    value: Any, repeats: Counter[str], *, log: WalkLog, original: int, js: _Json
) -> Reduced:
    log.dropped.update(repeats)
    dropped = log.summary()
    note = _note(log, original, js)
    if isinstance(value, dict):
        shaped: Any = {**{k: v for k, v in value.items() if k != NOTE_KEY}, NOTE_KEY: note}
    else:
        shaped = [*value, {NOTE_KEY: note}]
    return Reduced(js.dumps(shaped), dropped, True)


def _note(log: WalkLog, original: int, js: _Json) -> dict[str, Any]:
    """`{"dropped": [...], "kept_items": {...}}`, trimmed to stay small."""
    dropped = [*log.extra, *log.field_names()]
    note: dict[str, Any] = {"dropped": dropped, "original_chars": original}
    if log.lists:
        note["kept_items"] = {
            path: f"{kept} of {total}" for path, (kept, total) in log.lists.items()
        }
    if log.texts_cut:
        note["texts_shortened"] = log.texts_cut
    # The rarest drops go first, then the last lists named: how many items stayed matters most.
    while len(js.dumps(note)) > _NOTE_MAX and (note["dropped"] or note.get("kept_items")):
        if note["dropped"]:
            note["dropped"] = note["dropped"][:-1]
        else:
            note["kept_items"] = dict(list(note["kept_items"].items())[:-1])
    return note


def _scalar(value: Any, compact: str, original: int, limit: int, js: _Json) -> Reduced:
    """A top-level JSON string or number: still one, cut, with the note inside."""
    suffix = f"{ELLIPSIS} [reduced: {original} chars]"
    if not isinstance(value, str):
        what = f"a {len(compact)}-digit number"
        return Reduced(js.dumps(f"[reduced: {what}]"), (what,), True)
    room = max(limit - len(suffix) - 2, 0)
    text = value[:room]
    while text and len(js.dumps(text + suffix)) > max(limit, len(suffix) + 2):
        text = text[: len(text) * 3 // 4]  # escapes make some chars longer than one
    return Reduced(js.dumps(text + suffix), (f"kept {len(text)} of {len(value)} chars",), True)
