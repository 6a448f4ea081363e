"""Fitting a JSON value into a character budget: lists keep their most relevant items,
dicts share the room fairly, long strings are cut, short ones (ids) kept whole or dropped.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

MARKER_KEY: Final = "_truncated"
_NOTE_MAX: Final = 80
# Room kept for the marker: ',"_truncated":"<note>"' on an object, ',"<note>"' on a list.
_MARKER_RESERVE: Final = len(f',"{MARKER_KEY}":""') + _NOTE_MAX
_MIN_CONTENT: Final = 2  # "{}" / "[]"
# The most a truncated result can exceed its limit by (only when the limit is tiny).
TRUNCATION_SLACK: Final = _MIN_CONTENT + _MARKER_RESERVE
# Below this much room, a too-large list item is skipped rather than shrunk into a stub.
_MIN_SHRINK_ROOM: Final = 160
# Strings this short (ids, names, prices) are dropped whole, never cut: a cut id like
# "sku-12…" is worse than none, because the model might send it back.
_MIN_CUT_CHARS: Final = 48
ELLIPSIS: Final = "…"


class Drop:
    """Sentinel: the value cannot be made to fit."""


DROP: Final = Drop()


@dataclass(slots=True)
class _Stats:
    items: int = 0
    keys: int = 0
    texts: int = 0

    def note(self, original_chars: int) -> str:
        counts = {"items dropped": self.items, "fields dropped": self.keys, "texts cut": self.texts}
        parts = [f"{count} {what}" for what, count in counts.items() if count]
        return "; ".join([f"shortened from {original_chars} chars", *parts])[:_NOTE_MAX]


def shrink_document(value: Any, original_chars: int, limit: int, words: frozenset[str]) -> str:
    """`value` as JSON text of about `limit` chars, with a `_truncated` marker when cut."""
    out = Shrinker(words, ensure_ascii=False).document(value, original_chars, limit)
    try:
        out.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates can't go over the wire: escape them
        out = Shrinker(words, ensure_ascii=True).document(value, original_chars, limit)
    return out


class Shrinker:
    """Fits a JSON value into a character budget, keeping query-relevant list items."""

    def __init__(self, words: frozenset[str], ensure_ascii: bool) -> None:
        self.words = words
        self.ensure_ascii = ensure_ascii
        self.stats = _Stats()

    def dumps(self, value: Any) -> str:
        return json.dumps(value, ensure_ascii=self.ensure_ascii, separators=(",", ":"))

    def document(self, value: Any, original_chars: int, limit: int) -> str:
        compact = self.dumps(value)
        if len(compact) <= limit:
            return compact  # whitespace was all there was to lose
        budget = max(limit - _MARKER_RESERVE, _MIN_CONTENT)
        if isinstance(value, dict):
            value.pop(MARKER_KEY, None)
            fields = self.fit(value, budget)
            fields = fields if isinstance(fields, dict) else {}
            return self.dumps({**fields, MARKER_KEY: self.stats.note(original_chars)})
        if isinstance(value, list):
            items = self.fit(value, budget)
            items = items if isinstance(items, list) else []
            return self.dumps([*items, f"[{self.stats.note(original_chars)}]"])
        if isinstance(value, str):
            note = f"[{MARKER_KEY}: {original_chars} chars]"
            suffix = f"{ELLIPSIS} {note}"
            # The budget always admits the bare suffix, so the note survives tiny limits.
            text = self.fit_str(value, max(limit, len(self.dumps(suffix))), suffix=suffix)
            return self.dumps(text if isinstance(text, str) else note)
        return self.dumps(f"[{self.stats.note(original_chars)}]")

    def fit(self, value: Any, budget: int) -> Any:
        """`value` or a smaller copy whose JSON is at most `budget` chars, else DROP."""
        if len(self.dumps(value)) <= budget:
            return value
        if isinstance(value, str):
            return self.fit_str(value, budget)
        if isinstance(value, list):
            return self._fit_list(value, budget)
        if isinstance(value, dict):
            return self._fit_dict(value, budget)
        return DROP

    def fit_str(self, text: str, budget: int, suffix: str = ELLIPSIS) -> str | Drop:
        if len(self.dumps(text)) <= budget:
            return text
        if budget < len('""') or (suffix == ELLIPSIS and len(text) <= _MIN_CUT_CHARS):
            return DROP
        self.stats.texts += 1
        # Longest prefix whose JSON, suffix included, fits; a char is at least one char
        # of JSON, so no prefix longer than the budget can fit.
        low, high = 0, min(len(text), budget)
        while low < high:
            mid = (low + high + 1) // 2
            if len(self.dumps(text[:mid] + suffix)) <= budget:
                low = mid
            else:
                high = mid - 1
        cut = text[:low] + suffix
        return cut if len(self.dumps(cut)) <= budget else ""

    def _fit_list(self, items: list[Any], budget: int) -> list[Any] | Drop:
        if budget < len("[]"):
            return DROP
        encoded = [self.dumps(item) for item in items]
        kept: dict[int, Any] = {}
        used = len("[]")
        for index in self._priority(encoded):
            room = budget - used - (1 if kept else 0)
            if room <= 0:
                break
            if len(encoded[index]) <= room:
                kept[index] = items[index]
                used += len(encoded[index]) + (1 if len(kept) > 1 else 0)
            elif room >= _MIN_SHRINK_ROOM or not kept:
                fitted = self.fit(items[index], room)
                if not isinstance(fitted, Drop):
                    kept[index] = fitted
                    used += len(self.dumps(fitted)) + (1 if len(kept) > 1 else 0)
        self.stats.items += len(items) - len(kept)
        return [kept[index] for index in sorted(kept)]

    def _priority(self, encoded: list[str]) -> list[int]:
        """Items mentioning more query words first; otherwise original order."""
        if not self.words:
            return list(range(len(encoded)))
        hits = [sum(word in text.lower() for word in self.words) for text in encoded]
        return sorted(range(len(encoded)), key=lambda i: (-hits[i], i))

    def _fit_dict(self, mapping: dict[str, Any], budget: int) -> dict[str, Any] | Drop:
        if budget < len("{}"):
            return DROP
        key_costs = {key: len(self.dumps(key)) + 1 for key in mapping}  # "key":
        sizes = {key: key_costs[key] + len(self.dumps(value)) for key, value in mapping.items()}
        remaining = budget - len("{}") - max(len(mapping) - 1, 0)  # braces and commas
        left = len(mapping)
        fitted: dict[str, Any] = {}
        # Max-min fair share: small fields (success, message) stay whole, big ones split
        # what is left between them.
        for key in sorted(mapping, key=sizes.__getitem__):
            share = remaining // left if remaining > 0 else 0
            left -= 1
            if sizes[key] <= share:
                fitted[key] = mapping[key]
                remaining -= sizes[key]
                continue
            value = self.fit(mapping[key], share - key_costs[key])
            if isinstance(value, Drop):
                self.stats.keys += 1
                continue
            fitted[key] = value
            remaining -= key_costs[key] + len(self.dumps(value))
        return {key: fitted[key] for key in mapping if key in fitted}
