"""Swiggy's documented error catalogue → our codes, messages and what to do next.

Swiggy signals failure four ways (SWIGGY_REFERENCE.md, "Errors"): the HTTP status of the
MCP request (400, 401, 403, 419, 429 with Retry-After, 5xx), a JSON-RPC error code
(-32001 unauthenticated, -32601 unknown tool, -32603 internal), a planned symbolic
`error.code` in the failure envelope, and today mostly just `error.message`. Each maps to
one category; the category decides whether the turn stops, whether a retry makes sense,
whether the person must sign in again, and whether `report_error` is worth offering.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from swiggy_core.errors import DEFAULT_MESSAGES, ErrorCode
from swiggy_core.models import ErrorInfo
from swiggy_core.retry_after import capped, retry_after_text


class ToolErrorCategory(StrEnum):
    AUTH = "auth"  # 401 / -32001: sign in again (silent within the 30-day session)
    REVOKED = "revoked"  # 419: session revoked, full sign-in with OTP
    FORBIDDEN = "forbidden"  # 403: scope too narrow
    RATE_LIMIT = "rate_limit"  # 429: wait for Retry-After
    ADDRESS = "address"  # the address id is not usable
    SERVER = "server"  # 502/503/504 or a timeout: back off and retry later
    INTERNAL = "internal"  # 500 / -32603: retry once, then report_error
    NOT_FOUND = "not_found"  # 404 / -32601: the tool or record does not exist
    DOMAIN = "domain"  # success:false (out of stock, slot gone, closed): tell the person
    VALIDATION = "validation"  # 400, "Invalid…"/"Missing…": don't retry the same call


# Categories after which the person has to sign in again.
RECONNECT_CATEGORIES = frozenset(
    {ToolErrorCategory.AUTH, ToolErrorCategory.REVOKED, ToolErrorCategory.FORBIDDEN}
)


@dataclass(frozen=True, slots=True)
class ToolError:
    """A classified MCP tool error, with the message shown when the turn is aborted.

    The message never carries the wait of a rate limit: `retry_after_seconds` does, and the
    banner says it once.
    """

    category: ToolErrorCategory
    code: ErrorCode
    message: str
    detail: str
    retry_after_seconds: float | None = None

    def __post_init__(self) -> None:
        # A rate limit built from a coded transport error carries its wait only in the text
        # the model reads ("Retry after 60 s"); read it back so the person sees it too.
        if self.category is ToolErrorCategory.RATE_LIMIT and self.retry_after_seconds is None:
            object.__setattr__(self, "retry_after_seconds", retry_after_text(self.detail))

    @property
    def offer_report(self) -> bool:
        """Swiggy asks integrators to report internal errors (after one retry)."""
        return self.category is ToolErrorCategory.INTERNAL


# After the turn gave up on these (repeated failures), a report to Swiggy can help.
REPORTABLE_CATEGORIES = frozenset(
    {
        ToolErrorCategory.INTERNAL,
        ToolErrorCategory.SERVER,
        ToolErrorCategory.VALIDATION,
        ToolErrorCategory.NOT_FOUND,
    }
)


def tool_error_info(error: ToolError, tool_name: str) -> ErrorInfo:
    """The banner for a turn stopped by `error` from `tool_name`."""
    reportable = error.category in REPORTABLE_CATEGORIES and bool(tool_name)
    return ErrorInfo(
        code=error.code,
        category=f"tool_{error.category}",
        message=error.message,
        retry_after_seconds=error.retry_after_seconds,
        report_tool=tool_name if reportable else None,
        report_detail=error.detail if reportable else None,
    )


# Each category's code; its message is the code's default (swiggy_core.errors).
_CODES: dict[ToolErrorCategory, ErrorCode] = {
    ToolErrorCategory.AUTH: ErrorCode.TOOL_AUTH,
    ToolErrorCategory.REVOKED: ErrorCode.TOOL_SESSION_REVOKED,
    ToolErrorCategory.FORBIDDEN: ErrorCode.TOOL_FORBIDDEN,
    ToolErrorCategory.RATE_LIMIT: ErrorCode.TOOL_RATE_LIMITED,
    ToolErrorCategory.ADDRESS: ErrorCode.TOOL_ADDRESS,
    ToolErrorCategory.SERVER: ErrorCode.TOOL_UPSTREAM,
    ToolErrorCategory.INTERNAL: ErrorCode.TOOL_INTERNAL,
    ToolErrorCategory.NOT_FOUND: ErrorCode.TOOL_NOT_FOUND,
    ToolErrorCategory.DOMAIN: ErrorCode.TOOL_DOMAIN,
    ToolErrorCategory.VALIDATION: ErrorCode.TOOL_VALIDATION,
}

_BY_STATUS: dict[int, ToolErrorCategory] = {
    400: ToolErrorCategory.VALIDATION,
    401: ToolErrorCategory.AUTH,
    403: ToolErrorCategory.FORBIDDEN,
    404: ToolErrorCategory.NOT_FOUND,
    419: ToolErrorCategory.REVOKED,
    429: ToolErrorCategory.RATE_LIMIT,
    500: ToolErrorCategory.INTERNAL,
    502: ToolErrorCategory.SERVER,
    503: ToolErrorCategory.SERVER,
    504: ToolErrorCategory.SERVER,
}
_BY_RPC_CODE: dict[int, ToolErrorCategory] = {
    -32001: ToolErrorCategory.AUTH,
    -32601: ToolErrorCategory.NOT_FOUND,
    -32603: ToolErrorCategory.INTERNAL,
}
# Swiggy's planned symbolic `error.code` values (none emitted in v1.0, ready when they are).
_BY_SYMBOL: dict[str, ToolErrorCategory] = {
    "UNAUTHENTICATED": ToolErrorCategory.AUTH,
    "TOKEN_EXPIRED": ToolErrorCategory.AUTH,
    "SESSION_REVOKED": ToolErrorCategory.REVOKED,
    "INSUFFICIENT_SCOPE": ToolErrorCategory.FORBIDDEN,
    "RATE_LIMITED": ToolErrorCategory.RATE_LIMIT,
    "VALIDATION_ERROR": ToolErrorCategory.VALIDATION,
    "NOT_FOUND": ToolErrorCategory.NOT_FOUND,
    "UPSTREAM_TIMEOUT": ToolErrorCategory.SERVER,
    "UPSTREAM_ERROR": ToolErrorCategory.SERVER,
    "INTERNAL_ERROR": ToolErrorCategory.INTERNAL,
    "ADDRESS_NOT_SERVICEABLE": ToolErrorCategory.ADDRESS,
}
# Domain codes with the sentence a person needs (the model explains the rest).
DOMAIN_MESSAGES: dict[str, str] = {
    "ITEM_OUT_OF_STOCK": "That item is out of stock now.",
    "CART_EXPIRED": "The cart expired; it needs to be built again.",
    "MIN_ORDER_NOT_MET": "The cart is below Instamart's minimum order (₹99).",
    "RESTAURANT_CLOSED": "The restaurant is closed and not taking orders now.",
    "ITEM_UNAVAILABLE": "That dish is not available right now.",
    "COUPON_INVALID": "That coupon is not valid.",
    "COUPON_NOT_APPLICABLE": "That coupon does not apply to this cart.",
    "COUPON_REQUIRES_ONLINE_PAYMENT": "That coupon needs online payment; orders here are cash.",
    "SLOT_UNAVAILABLE": "That time slot is no longer available.",
    "RESTAURANT_NOT_BOOKABLE": "This restaurant does not take table bookings.",
    "BOOKING_WINDOW_CLOSED": "Bookings for that time have closed.",
}

_STATUS_RE = re.compile(r"\b(400|401|403|404|419|429|500|502|503|504)\b")
_RPC_RE = re.compile(r"(-32001|-32601|-32603)\b")
_SYMBOL_RE = re.compile(r"\b(" + "|".join(sorted({*_BY_SYMBOL, *DOMAIN_MESSAGES})) + r")\b")
# Words in a failure's text and what they mean, tried in this order. Address first:
# "Invalid addressId" is an address problem the person can fix. Revoked before the wider
# auth words, and an internal error before the server's transient ones.
_TEXT_SIGNALS: tuple[tuple[re.Pattern[str], ToolErrorCategory], ...] = (
    (
        re.compile(
            r"address with id|address not found|invalid address|delivery address|addressid"
            r"|not serviceable",
            re.I,
        ),
        ToolErrorCategory.ADDRESS,
    ),
    (re.compile(r"rate[- ]limit|too many requests", re.I), ToolErrorCategory.RATE_LIMIT),
    (re.compile(r"session revoked|revoked", re.I), ToolErrorCategory.REVOKED),
    (
        re.compile(
            r"unauthori[sz]ed|expired token|token (?:has )?expired|invalid token"
            r"|not authenticated|cannot resolve session|access denied",
            re.I,
        ),
        ToolErrorCategory.AUTH,
    ),
    (
        re.compile(r"forbidden|insufficient scope|scope too narrow", re.I),
        ToolErrorCategory.FORBIDDEN,
    ),
    (re.compile(r"internal (?:server )?error|some error while", re.I), ToolErrorCategory.INTERNAL),
    (
        re.compile(
            r"overload|timed? ?out|timeout|gateway|temporarily unavailable|try again later"
            r"|upstream",
            re.I,
        ),
        ToolErrorCategory.SERVER,
    ),
)
_MAX_SAMPLE = 2000


def category_of(code: ErrorCode) -> ToolErrorCategory:
    """The category an E-3xxx code belongs to (transport errors carry only the code)."""
    for category, known in _CODES.items():
        if known is code:
            return category
    return ToolErrorCategory.SERVER


def classify_tool_failure(
    *,
    status: int | None = None,
    rpc_code: int | None = None,
    symbol: str | None = None,
    message: str = "",
    retry_after: float | None = None,
) -> ToolError:
    """The most specific signal wins: symbol, then HTTP status, then JSON-RPC code, then text."""
    sample = message[:_MAX_SAMPLE]
    category = (
        _BY_SYMBOL.get(symbol or "")
        or (ToolErrorCategory.DOMAIN if symbol in DOMAIN_MESSAGES else None)
        or _BY_STATUS.get(status or 0)
        or _BY_RPC_CODE.get(rpc_code or 0)
        or _by_text(sample)
    )
    code = _CODES[category]
    text = DEFAULT_MESSAGES[code]
    if category is ToolErrorCategory.DOMAIN and symbol in DOMAIN_MESSAGES:
        text = DOMAIN_MESSAGES[symbol]
    wait = capped(retry_after) if retry_after is not None else None
    return ToolError(category, code, text, sample[:300], wait)


def classify_mcp_tool_error(text: str) -> ToolError:
    """Categorise a failed tool result's text (an envelope, a JSON-RPC error or prose)."""
    sample = text[:_MAX_SAMPLE]
    symbol, message = _envelope_signals(sample)
    status = _first_int(_STATUS_RE, sample)
    return classify_tool_failure(
        status=status,
        rpc_code=_first_int(_RPC_RE, sample),
        symbol=symbol or _first_str(_SYMBOL_RE, sample),
        message=message or sample,
        retry_after=retry_after_text(sample),
    )


def _by_text(sample: str) -> ToolErrorCategory:
    for pattern, category in _TEXT_SIGNALS:
        if pattern.search(sample):
            return category
    return ToolErrorCategory.VALIDATION


def _envelope_signals(sample: str) -> tuple[str | None, str]:
    """`error.code` and `error.message` of a `{success:false, error:{…}}` envelope."""
    try:
        value: Any = json.loads(sample)
    except ValueError:
        return None, ""
    error = value.get("error") if isinstance(value, dict) else None
    if not isinstance(error, dict):
        return None, ""
    symbol = error.get("code")
    message = error.get("message")
    return (
        symbol if isinstance(symbol, str) else None,
        message if isinstance(message, str) else "",
    )


def _first_int(pattern: re.Pattern[str], sample: str) -> int | None:
    match = pattern.search(sample)
    return int(match.group(1)) if match else None


def _first_str(pattern: re.Pattern[str], sample: str) -> str | None:
    match = pattern.search(sample)
    return match.group(1) if match else None
