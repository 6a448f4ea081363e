"""Error bodies, statuses and headers shaped exactly like the real Messages API's."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from starlette.responses import JSONResponse

from swiggy_sandbox.emulator.script import Fault
from swiggy_sandbox.emulator.sse import new_request_id

# kind -> (HTTP status, error.type, the real API's usual message).
HTTP_FAULTS: dict[str, tuple[int, str, str]] = {
    "rate_limit": (
        429,
        "rate_limit_error",
        "Number of request tokens has exceeded your per-minute rate limit. "
        "Please reduce the prompt length or the maximum tokens requested, or try again later.",
    ),
    "overloaded": (529, "overloaded_error", "Overloaded"),
    "server_error": (500, "api_error", "Internal server error"),
    "auth": (401, "authentication_error", "invalid x-api-key"),
    "permission": (
        403,
        "permission_error",
        "Your API key does not have permission to use the specified resource.",
    ),
    "bad_request": (400, "invalid_request_error", "Invalid request"),
    # What a client still waiting after a `hang` finally receives.
    "hang": (504, "timeout_error", "Request timed out"),
}

# error.type -> status, so an in-stream error can also be answered to a non-streaming call.
STATUS_BY_ERROR_TYPE: dict[str, int] = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "billing_error": 402,
    "permission_error": 403,
    "not_found_error": 404,
    "request_too_large": 413,
    "rate_limit_error": 429,
    "api_error": 500,
    "timeout_error": 504,
    "overloaded_error": 529,
}

# The real API always sends a retry-after on 429; it counts whole seconds, at least one.
DEFAULT_RATE_LIMIT_RETRY_AFTER = 1.0
# Illustrative account limits; only their presence and shape matter to clients.
RATE_LIMITS: dict[str, int] = {
    "requests": 50,
    "tokens": 100_000,
    "input-tokens": 80_000,
    "output-tokens": 20_000,
}
RATE_LIMIT_WINDOW_SECONDS = 60.0


def error_payload(error_type: str, message: str) -> dict[str, Any]:
    """The `error` envelope used both in HTTP error bodies and in `event: error`."""
    return {"type": "error", "error": {"type": error_type, "message": message}}


def error_response(
    status: int,
    error_type: str,
    message: str,
    *,
    extra_headers: dict[str, str] | None = None,
) -> JSONResponse:
    """An HTTP error as the real API sends it: JSON body, request-id header and body field."""
    request_id = new_request_id()
    body = {**error_payload(error_type, message), "request_id": request_id}
    headers = {"request-id": request_id, **(extra_headers or {})}
    return JSONResponse(body, status_code=status, headers=headers)


def fault_response(fault: Fault) -> JSONResponse:
    """The HTTP error a fault of an HTTP kind (or an error_event, non-streaming) stands for."""
    if fault.kind in HTTP_FAULTS:
        status, error_type, usual_message = HTTP_FAULTS[fault.kind]
    else:
        error_type, usual_message = fault.error_type, "Overloaded"
        status = STATUS_BY_ERROR_TYPE.get(error_type, 500)
    headers: dict[str, str] = {}
    retry_after = fault.retry_after
    if fault.kind == "rate_limit":
        retry_after = DEFAULT_RATE_LIMIT_RETRY_AFTER if retry_after is None else retry_after
        headers.update(rate_limit_headers(exhausted=True, reset_in=retry_after))
    if retry_after is not None:
        headers["retry-after"] = format_seconds(retry_after)
    if fault.retry_after_ms is not None:
        headers["retry-after-ms"] = format_seconds(fault.retry_after_ms)
    return error_response(status, error_type, fault.message or usual_message, extra_headers=headers)


def rate_limit_headers(*, exhausted: bool = False, reset_in: float | None = None) -> dict[str, str]:
    """`anthropic-ratelimit-*` headers: limit, remaining and an RFC 3339 reset time."""
    window = RATE_LIMIT_WINDOW_SECONDS if reset_in is None else reset_in
    reset = (datetime.now(UTC) + timedelta(seconds=window)).strftime("%Y-%m-%dT%H:%M:%SZ")
    headers: dict[str, str] = {}
    for name, limit in RATE_LIMITS.items():
        remaining = 0 if exhausted else limit - 1
        headers[f"anthropic-ratelimit-{name}-limit"] = str(limit)
        headers[f"anthropic-ratelimit-{name}-remaining"] = str(remaining)
        headers[f"anthropic-ratelimit-{name}-reset"] = reset
    return headers


def format_seconds(seconds: float) -> str:
    """Seconds as retry-after carries them: "2" for whole seconds, "0.5" otherwise."""
    return f"{seconds:g}"
