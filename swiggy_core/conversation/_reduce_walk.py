"""One pass over a JSON value that drops fields below an importance, cuts strings and lists."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, Final, NamedTuple

from swiggy_core.conversation._importance import (
    Importance,
    is_id_key,
    is_image_key,
    key_importance,
)
from swiggy_core.conversation._reduce_text import ELLIPSIS, looks_like_html

# Deeper than this is nested metadata: dropped with the LOW fields.
MAX_DEPTH: Final = 24
# A string this long under a key no rule names high is prose, not a fact (LOW).
LONG_TEXT: Final = 300
_MIN_HTML_CHARS: Final = 40
# An id this long that repeats a sibling's is dropped as a repeat (short ones may be codes).
_MIN_REPEAT: Final = 6
_WORD: Final = re.compile(r"\w{2,}")
_REPEATABLE: Final = (str, int, float)
SAME_AS_BEFORE: Final = "(same as the item before)"
_NAME_KEYS: Final = ("name", "displayName", "display_name", "title", "itemName", "item_name")
_PATH_CHARS: Final = 60
_NOTE_FIELDS: Final = 12


class _Gone:
    """Sentinel: the value was dropped."""


_GONE: Final = _Gone()


@dataclass(slots=True)
class WalkLog:
    """What the passes left out, and the sizes the next pass needs to know."""

    dropped: Counter[str] = field(default_factory=Counter)
    lists: dict[str, tuple[int, int]] = field(default_factory=dict)  # path → (kept, total)
    texts_cut: int = 0
    extra: list[str] = field(default_factory=list)
    longest_text: int = 0
    longest_list: int = 0

    def field_names(self) -> list[str]:
        """Dropped fields, most often dropped first: "description ×80"."""
        return [
            name if count == 1 else f"{name} ×{count}"
            for name, count in self.dropped.most_common(_NOTE_FIELDS)
        ]

    def cut_list(self, path: str, kept: int, total: int) -> None:
        old_kept, old_total = self.lists.get(path, (0, 0))
        self.lists[path] = (old_kept + kept, old_total + total)

    def summary(self) -> tuple[str, ...]:
        """One line per kind of loss, for the caller."""
        lines = [f"field {name}" for name in self.field_names()]
        lines += [
            f"{path}: kept {kept} of {total} items" for path, (kept, total) in self.lists.items()
        ]
        if self.texts_cut:
            lines.append(f"{self.texts_cut} long texts shortened")
        return (*lines, *self.extra)


class QueryRank:
    """Which items a cut list keeps: those naming the query's words first, then the leading
    ones; kept items stay in their order. Rankings are remembered per list object, since
    every trial cap walks the same lists."""

    def __init__(self, query: str) -> None:
        self.words = frozenset(word.lower() for word in _WORD.findall(query))
        # id → (the list, its order): holding the list keeps its id from being reused.
        self._orders: dict[int, tuple[list[Any], list[int]]] = {}

    def keep(self, items: list[Any], cap: int) -> list[Any]:
        if not self.words:
            return items[:cap]
        known = self._orders.get(id(items))
        if known is None or known[0] is not items:
            hits = [self._hits(item) for item in items]
            known = (items, sorted(range(len(items)), key=lambda index: (-hits[index], index)))
            self._orders[id(items)] = known
        return [items[index] for index in sorted(known[1][:cap])]

    def _hits(self, item: Any) -> int:
        text = json.dumps(item, ensure_ascii=False, default=str).lower()
        return sum(word in text for word in self.words)


@dataclass(frozen=True, slots=True)
class Walk:
    """Drop fields less important than `drop_below`; cut strings and lists to the caps."""

    drop_below: int
    text_cap: int | None = None
    list_cap: int | None = None
    rank: QueryRank = field(default_factory=lambda: QueryRank(""), compare=False)

    def run(self, value: Any, log: WalkLog) -> Any:
        log.longest_text = 0
        log.longest_list = 0
        if self.text_cap is not None:
            log.texts_cut = 0  # a shorter cap cuts again every string the last one cut
        out = _Walker(self, log).value(value, _Place(None, "", "", 0, {}))
        return type(value)() if isinstance(out, _Gone) else out


class _Place(NamedTuple):
    """Where a value sits: its key's importance (or its parent's), key, path, depth, and
    the record above the one it is in (whose fields a nested record often repeats)."""

    inherited: Importance | None
    key: str
    path: str
    depth: int
    owner: Mapping[str, Any]


class _Walker:
    def __init__(self, walk: Walk, log: WalkLog) -> None:
        self.walk = walk
        self.log = log

    def value(self, value: Any, place: _Place) -> Any:
        if isinstance(value, dict):
            return self.mapping(value, place)
        if isinstance(value, list):
            return self.items(value, place)
        if isinstance(value, str):
            return self.text(value, place.key)
        return value

    def mapping(self, value: dict[str, Any], place: _Place) -> Any:
        if place.depth >= MAX_DEPTH and value:
            self.log.dropped[f"{place.path[-_PATH_CHARS:] or 'value'} (nested too deep)"] += 1
            return _GONE
        out: dict[str, Any] = {}
        for key, child in value.items():
            named = key_importance(key)
            inherit = named if named is not None else place.inherited
            label = self.dropped_as(key, child, inherit, place.owner, out)
            if label is None:
                path = f"{place.path}.{key}" if place.path else key
                kept = self.value(child, _Place(inherit, key, path, place.depth + 1, value))
                if not isinstance(kept, _Gone):
                    out[key] = kept
                    continue
                label = key[:_PATH_CHARS]
            self.log.dropped[label] += 1
        return _GONE if value and not out else out

    def dropped_as(
        self,
        key: str,
        child: Any,
        inherit: Importance | None,
        owner: Mapping[str, Any],
        kept: dict[str, Any],
    ) -> str | None:
        """None when the field stays, else how the note names it."""
        label = key[:_PATH_CHARS]
        if self.importance(inherit, child) < self.walk.drop_below:
            return label
        if self.walk.drop_below <= Importance.MEDIUM or not isinstance(child, _REPEATABLE):
            return None
        # Once MEDIUM goes, so do repeats that are read off what stays: a deal's slotId is
        # its slot's, a pack's "Amul Milk 500 ml" is its product's name and size, a parent
        # id is often the id beside it. Flags are kept: their meaning differs by level.
        if isinstance(child, bool):
            return None
        if key in owner and owner[key] == child and type(owner[key]) is type(child):
            return f"{label} (as in the record above)"
        if not isinstance(child, str):
            return None
        name = _name_of(owner)
        if name and child != name and child.startswith(name) and key in _NAME_KEYS:
            return f"{label} (repeats the name above)"
        if is_id_key(key) and len(child) >= _MIN_REPEAT and child in kept.values():
            return f"{label} (repeats an id beside it)"
        return None

    def items(self, value: list[Any], place: _Place) -> Any:
        if place.depth >= MAX_DEPTH and value:
            self.log.dropped[f"{place.path[-_PATH_CHARS:] or 'value'} (nested too deep)"] += 1
            return _GONE
        items = value
        if is_image_key(place.key) and len(items) > 1:
            self.log.dropped[f"{place.key[:_PATH_CHARS]} beyond the first"] += len(items) - 1
            items = items[:1]
        cap = self.walk.list_cap
        if cap is not None and len(items) > cap:
            self.log.cut_list(place.path[-_PATH_CHARS:] or "list", cap, len(items))
            items = self.walk.rank.keep(items, cap)
        self.log.longest_list = max(self.log.longest_list, len(items))
        inner = place._replace(path=f"{place.path}[]", depth=place.depth + 1)
        out = [self.value(item, inner) for item in items]
        kept = [item for item in out if not isinstance(item, _Gone)]
        return _GONE if items and not kept else kept

    def text(self, value: str, key: str) -> str:
        cap = self.walk.text_cap
        if cap is not None and len(value) > cap and not is_id_key(key):
            self.log.texts_cut += 1
            value = value[:cap] + ELLIPSIS
        self.log.longest_text = max(self.log.longest_text, len(value))
        return value

    @staticmethod
    def importance(named: Importance | None, value: Any) -> Importance:
        """A field's importance from its key, else from its value."""
        # Prose and markup are LOW unless the key is HIGH; a short value keeps the key's rank.
        if isinstance(value, str) and named is not Importance.HIGH and _is_prose(value):
            return Importance.LOW
        if named is not None:
            return named
        # A container no rule names is judged field by field; a scalar is a card extra.
        return Importance.HIGH if isinstance(value, dict | list) else Importance.MEDIUM


def _name_of(record: Mapping[str, Any]) -> str:
    for key in _NAME_KEYS:
        value = record.get(key)
        if isinstance(value, str) and value:
            return value
    return ""


def _is_prose(text: str) -> bool:
    return len(text) > LONG_TEXT or (len(text) > _MIN_HTML_CHARS and looks_like_html(text))


def with_back_references(value: Any, repeats: Counter[str]) -> Any:
    """A copy in which a record's list or object equal to the same field of the record
    before it reads SAME_AS_BEFORE (a week of slots repeats the same deals in every slot).

    Applied to a finished pass, so every reference points at an item that is kept.
    """
    if isinstance(value, dict):
        return {key: with_back_references(child, repeats) for key, child in value.items()}
    if not isinstance(value, list):
        return value
    out = [with_back_references(item, repeats) for item in value]
    for index, (before, record) in enumerate(pairwise(value), start=1):
        if not isinstance(before, dict) or not isinstance(record, dict):
            continue
        for key, child in record.items():
            if isinstance(child, dict | list) and child and before.get(key) == child:
                out[index][key] = SAME_AS_BEFORE
                repeats[f"{key[:_PATH_CHARS]} (same as the item before)"] += 1
    return out


def expand_back_references(value: Any, depth: int = 0) -> Any:
    """The data whole again: each SAME_AS_BEFORE field takes that field of the item before
    (for readers that want the structure, not the words, of a reduced result)."""
    if depth > MAX_DEPTH * 2:
        return value
    if isinstance(value, dict):
        return {key: expand_back_references(child, depth + 1) for key, child in value.items()}
    if not isinstance(value, list):
        return value
    out = [expand_back_references(item, depth + 1) for item in value]
    for before, record in pairwise(out):  # in order, so a chain of references resolves
        if isinstance(before, dict) and isinstance(record, dict):
            for key, child in record.items():
                if child == SAME_AS_BEFORE and key in before:
                    record[key] = before[key]
    return out
