"""JSON inside text: whole documents, a value after prose, strings that hold JSON."""

from __future__ import annotations

import json
from typing import Any

from pydantic_core import from_json

from swiggy_core.constants import PARSER_MAX_INPUT_CHARS

_MAX_ENCODING_LAYERS = 2
_MAX_TRAILING_TRIES = 8
_decoder = json.JSONDecoder()


class _NotJson:
    """Marker: the text held no JSON value."""


NOT_JSON: Any = _NotJson()


def loads(text: str | bytes) -> Any:
    """`json.loads`, through pydantic-core's faster decoder when it accepts the text.

    It gives the same values (numbers, duplicate keys, NaN and Infinity alike); what it
    refuses (lone surrogates, nesting deeper than 200, text that is no valid JSON) goes
    to `json.loads` unchanged. Only keys are cached: values rarely repeat, and caching
    them costs time on large text.
    """
    try:
        return from_json(text, cache_strings="keys")
    except (ValueError, TypeError):  # TypeError: text that cannot be encoded as UTF-8
        return json.loads(text)


def decode_json(text: str) -> Any:
    """The JSON value in `text` (whole text, or starting at its first bracket), else NOT_JSON."""
    value: Any = text
    for _ in range(_MAX_ENCODING_LAYERS + 1):
        if not isinstance(value, str):
            return value
        decoded = _decode_once(value)
        if decoded is NOT_JSON:
            return NOT_JSON if value is text else value
        value = decoded
    return value


def _decode_once(text: str) -> Any:
    if len(text) > PARSER_MAX_INPUT_CHARS:
        return NOT_JSON
    stripped = text.strip()
    if not stripped:
        return NOT_JSON
    if stripped[0] in '{["':
        try:
            return loads(stripped)
        except (ValueError, RecursionError):
            pass
    for start in _bracket_starts(stripped):
        try:
            return _decoder.raw_decode(stripped, start)[0]
        except (ValueError, RecursionError):
            continue
    return NOT_JSON


def _bracket_starts(text: str) -> list[int]:
    starts = [i for i in (text.find("{"), text.find("[")) if i >= 0]
    return sorted(starts)


def maybe_decode(value: Any) -> Any:
    """JSON strings nested inside payloads (a `data` field holding text) are decoded."""
    if isinstance(value, str) and value[:1] in ("{", "["):
        decoded = decode_json(value)
        return value if decoded is NOT_JSON else decoded
    return value


def whole_json(text: str) -> Any:
    """`text` as one JSON object or array, else NOT_JSON."""
    stripped = text.strip()
    if not stripped or stripped[0] not in "{[":
        return NOT_JSON
    try:
        return loads(stripped)
    except (ValueError, RecursionError):
        return NOT_JSON


def trailing_object(text: str) -> tuple[str, dict[str, Any]] | None:
    """(prose, object) when prose is followed by a JSON object that runs to the end."""
    stripped = text.strip()
    if len(stripped) > PARSER_MAX_INPUT_CHARS or not stripped.endswith("}"):
        return None
    if stripped[0] in '{["':
        return None  # a JSON document, read as such
    start = stripped.find("{")
    for _ in range(_MAX_TRAILING_TRIES):
        if start < 0:
            return None
        try:
            value, end = _decoder.raw_decode(stripped, start)
        except (ValueError, RecursionError):
            value, end = None, -1
        if end == len(stripped) and isinstance(value, dict):
            return stripped[:start].strip(), value
        start = stripped.find("{", start + 1)
    return None
