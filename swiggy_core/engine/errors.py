"""Classify model-API exceptions into codes people can act on (tool errors: tool_errors)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from swiggy_core.engine.retry import parse_retry_after
from swiggy_core.errors import DEFAULT_MESSAGES, ErrorCode
from swiggy_core.models import ErrorInfo
from swiggy_core.tool_errors import ToolError, ToolErrorCategory, classify_mcp_tool_error

if TYPE_CHECKING:  # the SDK loads with the first client: only a turn has errors to classify
    import anthropic

# The tool-side catalogue lives in tool_errors; these names stay importable from here.
__all__ = [
    "ToolError",
    "ToolErrorCategory",
    "classify_api_error",
    "classify_mcp_tool_error",
    "error_info",
]

# Error categories (stable: the UI picks the banner's fix from them).
AUTH = "auth"
PERMISSION = "permission"
RATE_LIMIT = "rate_limit"
SERVER = "server"
OVERLOADED = "overloaded"
NETWORK = "network"
TIMEOUT = "timeout"
BAD_REQUEST = "bad_request"
STREAM = "stream"
UNKNOWN = "unknown"

# Each category's code; its message is the code's default (swiggy_core.errors).
_CODES: dict[str, ErrorCode] = {
    AUTH: ErrorCode.API_AUTH,
    PERMISSION: ErrorCode.SWIGGY_SESSION_EXPIRED,
    RATE_LIMIT: ErrorCode.API_RATE_LIMIT,
    SERVER: ErrorCode.API_SERVER,
    OVERLOADED: ErrorCode.API_OVERLOADED,
    NETWORK: ErrorCode.API_NETWORK,
    TIMEOUT: ErrorCode.API_TIMEOUT,
    BAD_REQUEST: ErrorCode.API_BAD_REQUEST,
    STREAM: ErrorCode.API_STREAM,
    UNKNOWN: ErrorCode.API_UNKNOWN,
}
_RETRYABLE = frozenset({RATE_LIMIT, SERVER, OVERLOADED})

# `error.type` values seen inside a 200 stream (event: error) → category.
_STREAM_ERROR_TYPES = {
    "overloaded_error": OVERLOADED,
    "rate_limit_error": RATE_LIMIT,
    "api_error": SERVER,
    "authentication_error": AUTH,
    "permission_error": PERMISSION,
    "invalid_request_error": BAD_REQUEST,
    "timeout_error": TIMEOUT,
}


def error_info(category: str, *, status: int | None = None, detail: str = "") -> ErrorInfo:
    """Build the ErrorInfo for a category; `detail` is appended when it helps."""
    code = _CODES.get(category, _CODES[UNKNOWN])
    message = DEFAULT_MESSAGES[code]
    if detail:
        message = f"{message} ({detail})"
    return ErrorInfo(
        code=code,
        category=category,
        message=message,
        status=status,
        retryable=category in _RETRYABLE,
    )


def classify_api_error(exc: BaseException) -> ErrorInfo:
    """Map an SDK exception (or a broken stream) to a coded ErrorInfo."""
    import anthropic
    import httpx2

    if isinstance(exc, anthropic.APITimeoutError):
        return error_info(TIMEOUT)
    if isinstance(exc, anthropic.APIConnectionError):
        return error_info(NETWORK)
    if isinstance(exc, anthropic.APIStatusError):
        return _classify_status_error(exc)
    # Errors while the body streams surface as raw httpx2 / json exceptions, not SDK ones.
    if isinstance(exc, TimeoutError | httpx2.TimeoutException):
        return error_info(TIMEOUT)
    if isinstance(exc, httpx2.RemoteProtocolError):
        return error_info(STREAM, detail="the connection closed mid-reply")
    if isinstance(exc, httpx2.TransportError):
        return error_info(NETWORK)
    if isinstance(exc, ValueError | anthropic.APIResponseValidationError):
        return error_info(STREAM, detail="malformed event")
    return error_info(UNKNOWN)


def _classify_status_error(exc: anthropic.APIStatusError) -> ErrorInfo:
    status = exc.status_code
    if status == 200:
        # An `event: error` inside a stream: the HTTP status says nothing, the type does.
        category = _STREAM_ERROR_TYPES.get(exc.type or "", STREAM)
    elif status == 401:
        category = AUTH
    elif status == 403:
        category = PERMISSION
    elif status == 429:
        category = RATE_LIMIT
    elif status == 529:
        category = OVERLOADED
    elif status >= 500:
        category = SERVER
    elif status == 400:
        category = BAD_REQUEST
    else:
        category = UNKNOWN
    info = error_info(category, status=status)
    retry_after = parse_retry_after(exc.response.headers) if status != 200 else None
    if retry_after is not None:
        info = info.model_copy(update={"retry_after_seconds": retry_after})
    return info
