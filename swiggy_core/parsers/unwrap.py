"""From a tool result's content to a payload: text, JSON inside text, envelope, wrappers."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from swiggy_core.constants import PARSER_MAX_DEPTH, PARSER_MAX_INPUT_CHARS
from swiggy_core.parsers._values import as_dict, pick, to_bool, to_str

# Keys under which a payload holds the interesting part, most specific first.
WRAPPER_KEYS = (
    "data",
    "result",
    "results",
    "response",
    "payload",
    "products",
    "restaurants",
    "dishes",
    "menu",
    "items",
    "cart",
    "slots",
    "addresses",
    "locations",
    "cards",
)
_ENVELOPE_KEYS = frozenset({"success", "ok", "message", "error", "errors", "isError", "status"})
_FAILED_STATUS_WORDS = frozenset({"error", "failed", "failure", "fail"})
_ERROR_MESSAGE_KEYS = ("message", "msg", "detail", "description", "error", "title", "reason")
_MAX_ENCODING_LAYERS = 2
_MAX_TEXT_BLOCKS = 50
_decoder = json.JSONDecoder()


class _NotJson:
    """Marker: the text held no JSON value."""


NOT_JSON: Any = _NotJson()


@dataclass(frozen=True, slots=True)
class Unwrapped:
    """A result's plain text and, when it held JSON, the decoded value."""

    text: str
    value: Any = NOT_JSON
    is_error: bool = False


@dataclass(frozen=True, slots=True)
class Envelope:
    """The `{success, data, message}` / `{success:false, error}` envelope, read leniently."""

    ok: bool | None
    data: Any
    message: str | None = None
    error: str | None = None


def unwrap_content(content: Any, _depth: int = 0) -> Unwrapped:
    """Text and decoded JSON from a string, a list of text blocks, a block or a value."""
    if isinstance(content, dict) and _is_result_block(content) and _depth < _MAX_ENCODING_LAYERS:
        inner = unwrap_content(content["content"], _depth + 1)
        flagged = to_bool(content.get("is_error", content.get("isError"))) is True
        return Unwrapped(inner.text, inner.value, inner.is_error or flagged)
    if isinstance(content, dict | list) and not _is_text_block_list(content):
        return Unwrapped(text="", value=content)
    if content is not None and not isinstance(content, str | list):
        nested = getattr(content, "content", None)
        if isinstance(nested, str | list) and _depth < _MAX_ENCODING_LAYERS:
            unwrapped = unwrap_content(nested, _depth + 1)
            flagged = getattr(content, "is_error", False) is True
            return Unwrapped(unwrapped.text, unwrapped.value, unwrapped.is_error or flagged)
        return Unwrapped(text="")
    texts = _texts(content)
    joined = "".join(texts)
    value = _separate_documents(texts) if len(texts) > 1 else NOT_JSON
    if value is NOT_JSON:
        value = decode_json(joined)
    return Unwrapped(text=joined, value=value)


def _separate_documents(texts: list[str]) -> Any:
    """Blocks that each hold a whole JSON document (one per product, say) become a list."""
    if sum(map(len, texts)) > PARSER_MAX_INPUT_CHARS:
        return NOT_JSON
    documents = []
    for text in texts:
        try:
            document = json.loads(text)
        except (ValueError, RecursionError):
            return NOT_JSON
        if not isinstance(document, dict | list):
            return NOT_JSON
        documents.append(document)
    return documents


def _is_result_block(content: Any) -> bool:
    """A whole result block or MCP CallToolResult passed instead of its content."""
    if not isinstance(content, dict) or "content" not in content:
        return False
    marked = content.keys() & {"type", "is_error", "isError", "tool_use_id"}
    return bool(marked) or _is_text_block_list(content["content"])


def _is_text_block_list(content: Any) -> bool:
    return isinstance(content, list) and bool(content) and all(map(_is_text_part, content[:3]))


def _is_text_part(part: Any) -> bool:
    kind = part.get("type") if isinstance(part, dict) else getattr(part, "type", None)
    return kind == "text"


def _texts(content: str | list[Any] | None) -> list[str]:
    if content is None:
        return []
    if isinstance(content, str):
        return [content]
    texts: list[str] = []
    for part in content[:_MAX_TEXT_BLOCKS]:
        text = part.get("text") if isinstance(part, dict) else getattr(part, "text", part)
        if isinstance(text, str):
            texts.append(text)
    return texts


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
            return json.loads(stripped)
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


def read_envelope(value: Any) -> Envelope:
    """Success flag, message, error text and the data of an (optional) envelope."""
    record = as_dict(value)
    if record is None:
        return Envelope(ok=None, data=value)
    error = error_text(record.get("error")) or error_text(record.get("errors"))
    ok = _success_flag(record, error)
    message = to_str(record.get("message"), 1000) or to_str(record.get("msg"), 1000)
    if "data" in record and (len(record) == 1 or record.keys() & _ENVELOPE_KEYS):
        data = _maybe_decode(record["data"])
    elif record.keys() & _ENVELOPE_KEYS:
        rest = {k: v for k, v in record.items() if k not in _ENVELOPE_KEYS}
        data = rest or None
    else:
        data = record
    return Envelope(ok=ok, data=data, message=message, error=error)


def _success_flag(record: dict[str, Any], error: str | None) -> bool | None:
    for key in ("success", "ok"):
        if key in record:
            flag = to_bool(record[key])
            if flag is not None:
                return flag
    if to_bool(record.get("isError")) is True:
        return False
    status = record.get("status")
    if isinstance(status, str) and status.strip().lower() in _FAILED_STATUS_WORDS:
        return False
    return False if error else None


def error_text(value: Any, depth: int = 0) -> str | None:
    """A readable message from an error value (string, `{message}` dict or list of those)."""
    if depth > 3 or value is None or value is False:
        return None
    if isinstance(value, str):
        return to_str(value, 1000)
    if isinstance(value, dict):
        inner = pick(value, *_ERROR_MESSAGE_KEYS)
        text = error_text(inner, depth + 1) if inner is not None else None
        return text or to_str(value.get("code"), 120)
    if isinstance(value, list) and value:
        return error_text(value[0], depth + 1)
    return to_str(value, 120)


def extract_payload(value: Any, keys: Iterable[str] = WRAPPER_KEYS) -> Any:
    """Descend through wrapper keys to the node that holds the items (depth-limited)."""
    order = tuple(keys)
    node = _maybe_decode(value)
    for _ in range(PARSER_MAX_DEPTH):
        record = as_dict(node)
        if record is None:
            return node
        child = _wrapped_child(record, order)
        if child is None:
            return node
        node = child
    return node


def _wrapped_child(record: dict[str, Any], order: tuple[str, ...]) -> Any:
    for key in order:
        child = _maybe_decode(record.get(key))
        if isinstance(child, dict | list) and child:
            return child
    return None


def _maybe_decode(value: Any) -> Any:
    """JSON strings nested inside payloads (a `data` field holding text) are decoded."""
    if isinstance(value, str) and value[:1] in ("{", "["):
        decoded = decode_json(value)
        return value if decoded is NOT_JSON else decoded
    return value
