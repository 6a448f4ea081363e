"""The last resorts: a status, key facts as an info card, or raw text."""

from __future__ import annotations

from typing import Any

from swiggy_core.constants import PARSER_MAX_RAW_CHARS
from swiggy_core.parsers._values import CONTAINER_TYPES, compact, to_str
from swiggy_core.parsers.plain_results import InfoResult, RawResult, StatusResult
from swiggy_core.parsers.unwrap import NOT_JSON, Envelope, Unwrapped, error_text, read_envelope

_MAX_INFO_FIELDS = 30
_HTML_SNIFF_CHARS = 5_000
_DEFAULT_FAILURE = "The tool call failed."
_HTML_FAILURE = "The server answered with a web page instead of data."


def failure_status(unwrapped: Unwrapped) -> StatusResult:
    """A failed call (`is_error`) as a status carrying the error text."""
    if unwrapped.value is not NOT_JSON:
        envelope = read_envelope(unwrapped.value)
        text = envelope.error or envelope.message or error_text(unwrapped.value)
        if text:
            return StatusResult(success=False, message=text)
    html = _html_title(unwrapped.text)
    message = html or to_str(unwrapped.text, 1000) or _DEFAULT_FAILURE
    return StatusResult(success=False, message=message)


def text_result(text: str) -> StatusResult | RawResult:
    """Plain (non-JSON) text: an HTML error page becomes a failure, the rest stays raw."""
    html = _html_title(text)
    if html is not None:
        return StatusResult(success=False, message=html)
    return raw_result(text)


def raw_result(text: str) -> RawResult:
    """Text shown as is, truncated."""
    return RawResult(text=text[:PARSER_MAX_RAW_CHARS], truncated=len(text) > PARSER_MAX_RAW_CHARS)


def status_or_info(
    envelope: Envelope, payload: Any, text: str
) -> StatusResult | InfoResult | RawResult:
    """Envelope-only results become a status; payloads no card knows become key facts."""
    fields = _fields(payload)
    if fields:
        if envelope.message:
            fields = {"message": envelope.message, **fields}
        return InfoResult(fields=fields)
    scalar = to_str(payload, 1000)
    message = envelope.message or scalar
    if message is not None or envelope.ok is not None:
        return StatusResult(success=envelope.ok is not False, message=message or "Done.")
    return raw_result(text or compact(payload, PARSER_MAX_RAW_CHARS))


def _fields(payload: Any) -> dict[str, str]:
    payload = _single_list(payload)
    if isinstance(payload, dict):
        pairs = ((str(k)[:60], compact(v)) for k, v in list(payload.items())[:_MAX_INFO_FIELDS])
    elif isinstance(payload, list) and any(isinstance(v, CONTAINER_TYPES) for v in payload[:5]):
        pairs = ((str(i + 1), compact(v)) for i, v in enumerate(payload[:_MAX_INFO_FIELDS]))
    else:
        return {}
    return {key: value for key, value in pairs if value}


def _single_list(payload: Any) -> Any:
    """`{"orders": [...], "cursor": null}` is shown as the numbered list of orders."""
    if not isinstance(payload, dict):
        return payload
    given = [v for v in list(payload.values())[:_MAX_INFO_FIELDS] if v not in (None, "", [], {})]
    if len(given) == 1 and isinstance(given[0], list) and given[0]:
        return given[0]
    return payload


def _html_title(text: str) -> str | None:
    """The title of an HTML error page (plain `find`, no regex over hostile text)."""
    head = text[:_HTML_SNIFF_CHARS].lstrip()
    lowered = head.lower()
    if not lowered.startswith("<") or ("<html" not in lowered and "<!doctype" not in lowered):
        return None
    start = lowered.find("<title>")
    end = lowered.find("</title>", start + 7) if start >= 0 else -1
    title = to_str(head[start + 7 : end], 200) if 0 <= start < end else None
    return f"{_HTML_FAILURE} ({title})" if title else _HTML_FAILURE
