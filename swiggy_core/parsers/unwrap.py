"""From a tool result to a payload: structuredContent, JSON blocks, JSON in text, envelope."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from swiggy_core.constants import PARSER_MAX_DEPTH, PARSER_MAX_INPUT_CHARS
from swiggy_core.parsers._values import as_dict, pick, to_bool, to_str
from swiggy_core.parsers.jsontext import (
    NOT_JSON,
    decode_json,
    maybe_decode,
    trailing_object,
    whole_json,
)

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
_STRUCTURED_KEYS = ("structuredContent", "structured_content")
# Tuples, not `A | B` unions: a union is rebuilt on every call in these hot paths.
_NESTED = (dict, list)
_TEXT_OR_BLOCKS = (str, list)


@dataclass(frozen=True, slots=True)
class Unwrapped:
    """A result's prose and, when it held JSON, the decoded value.

    `structured` marks a value that came from the MCP result's `structuredContent` (or
    its JSON copy next to a summary): it may be the `data` object itself, so its
    `status` and `message` fields are data, not an envelope.
    """

    text: str
    value: Any = NOT_JSON
    is_error: bool = False
    structured: bool = False


@dataclass(frozen=True, slots=True)
class Envelope:
    """The `{success, data, message}` / `{success:false, error}` envelope, read leniently."""

    ok: bool | None
    data: Any
    message: str | None = None
    error: str | None = None


def unwrap_content(content: Any, _depth: int = 0) -> Unwrapped:
    """Prose and decoded JSON from any result form, structuredContent first.

    Accepted: a raw MCP result (`content` plus `structuredContent`/`structured_content`),
    a stored result block, text blocks (a JSON-object block beats prose blocks), a string
    (JSON, prose, or prose followed by a JSON object), or an already decoded value.
    """
    text = single_text_block(content)
    if text is not None:  # the usual form
        return _from_text(text)
    if isinstance(content, dict) and _depth < _MAX_ENCODING_LAYERS:
        structured = _structured_part(content)
        if structured is not None:
            flagged = to_bool(content.get("is_error", content.get("isError"))) is True
            prose = "".join(_texts(_content_list(content.get("content"))))
            return Unwrapped(prose, structured, flagged, structured=True)
        if _is_result_block(content):
            inner = unwrap_content(content["content"], _depth + 1)
            flagged = to_bool(content.get("is_error", content.get("isError"))) is True
            return _flagged(inner, flagged)
    if isinstance(content, _NESTED) and not _is_text_block_list(content):
        return Unwrapped(text="", value=content)
    if content is not None and not isinstance(content, _TEXT_OR_BLOCKS):
        return _from_object(content, _depth)
    texts = _texts(content)
    if len(texts) > 1:
        blocks = _from_blocks(texts)
        if blocks is not None:
            return blocks
    return _from_text("".join(texts))


def single_text_block(content: Any) -> str | None:
    """The text of a result that is one text block (the usual form), else None."""
    if type(content) is list and len(content) == 1:
        return _block_text(content[0])
    return None


def _block_text(part: Any) -> str | None:
    """The text of a `{"type": "text", "text": ...}` block, else None."""
    if type(part) is dict and part.get("type") == "text":
        text = part.get("text")
        return text if isinstance(text, str) else None
    return None


def _from_text(text: str) -> Unwrapped:
    trailing = trailing_object(text)
    if trailing is not None:  # a summary with its data appended (two blocks joined)
        prose, value = trailing
        return Unwrapped(text=prose, value=value, structured=True)
    return Unwrapped(text=text, value=decode_json(text))


def _flagged(inner: Unwrapped, flagged: bool) -> Unwrapped:
    return Unwrapped(inner.text, inner.value, inner.is_error or flagged, inner.structured)


def _structured_part(content: dict[str, Any]) -> Any:
    for key in _STRUCTURED_KEYS:
        value = content.get(key)
        if isinstance(value, _NESTED) and value:
            return value
    return None


def _content_list(value: Any) -> str | list[Any] | None:
    return value if isinstance(value, _TEXT_OR_BLOCKS) else None


def _from_object(content: Any, depth: int) -> Unwrapped:
    """An SDK result object (CallToolResult or a stored block model)."""
    flagged = getattr(content, "is_error", getattr(content, "isError", False)) is True
    for key in _STRUCTURED_KEYS:
        structured = getattr(content, key, None)
        if isinstance(structured, _NESTED) and structured:
            prose = "".join(_texts(_content_list(getattr(content, "content", None))))
            return Unwrapped(prose, structured, flagged, structured=True)
    nested = getattr(content, "content", None)
    if isinstance(nested, _TEXT_OR_BLOCKS) and depth < _MAX_ENCODING_LAYERS:
        return _flagged(unwrap_content(nested, depth + 1), flagged)
    return Unwrapped(text="")


def _from_blocks(texts: list[str]) -> Unwrapped | None:
    """Several text blocks: whole JSON documents, or a summary beside its JSON object."""
    if sum(map(len, texts)) > PARSER_MAX_INPUT_CHARS:
        return None
    documents = [whole_json(text) for text in texts]
    objects = [i for i, doc in enumerate(documents) if isinstance(doc, dict)]
    if all(isinstance(doc, _NESTED) for doc in documents):
        if len(documents) == 2 and any("success" in documents[i] for i in objects):
            # The envelope as text next to its structured copy: one result, read once.
            return Unwrapped(text="", value=documents[-1], structured=True)
        return Unwrapped(text="", value=documents)  # one document per block (a list)
    if not objects:
        return None
    chosen = objects[-1]  # the engine appends structuredContent as the last block
    prose = "".join(text for i, text in enumerate(texts) if i != chosen)
    return Unwrapped(text=prose, value=documents[chosen], structured=True)


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


def read_envelope(value: Any) -> Envelope:
    """Success flag, message, error text and the data of an (optional) envelope."""
    record = as_dict(value)
    if record is None:
        return Envelope(ok=None, data=value)
    error = error_text(record.get("error")) or error_text(record.get("errors"))
    ok = _success_flag(record, error)
    message = to_str(record.get("message"), 1000) or to_str(record.get("msg"), 1000)
    enveloped = not _ENVELOPE_KEYS.isdisjoint(record)
    if "data" in record and (len(record) == 1 or enveloped):
        data = maybe_decode(record["data"])
    elif enveloped:
        rest = {k: v for k, v in record.items() if k not in _ENVELOPE_KEYS}
        data = rest or None
    else:
        data = record
    return Envelope(ok=ok, data=data, message=message, error=error)


def structured_envelope(value: Any) -> Envelope:
    """structuredContent is either the whole envelope or its `data` object: read both."""
    record = as_dict(value)
    if record is None:
        return Envelope(ok=None, data=value)
    if record.keys() & {"success", "ok", "isError", "error", "errors"}:
        return read_envelope(record)
    if record.keys() <= _ENVELOPE_KEYS:
        return read_envelope(record)  # only `status`/`message`: an envelope, not data
    if record.keys() == {"data"}:
        return Envelope(ok=None, data=maybe_decode(record["data"]))
    return Envelope(ok=None, data=record)


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
    node = maybe_decode(value)
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
        child = maybe_decode(record.get(key))
        if isinstance(child, _NESTED) and child:
            return child
    return None


__all__ = [
    "NOT_JSON",
    "WRAPPER_KEYS",
    "Envelope",
    "Unwrapped",
    "decode_json",
    "error_text",
    "extract_payload",
    "read_envelope",
    "single_text_block",
    "structured_envelope",
    "unwrap_content",
]
