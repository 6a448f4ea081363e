import anthropic
import httpx2
import pytest

from swiggy_core.engine import (
    RetryPolicy,
    ToolErrorCategory,
    classify_api_error,
    classify_mcp_tool_error,
    extract_rate_limit_headers,
    parse_retry_after,
)
from swiggy_core.errors import ErrorCode

REQUEST = httpx2.Request("POST", "http://127.0.0.1/v1/messages")


def _status_error(status, error_type="api_error", headers=None):
    response = httpx2.Response(status, headers=headers or {}, request=REQUEST)
    body = {"type": "error", "error": {"type": error_type, "message": "x"}}
    return anthropic.APIStatusError("x", response=response, body=body)


@pytest.mark.parametrize(
    ("status", "error_type", "code", "category", "retryable"),
    [
        (401, "authentication_error", ErrorCode.API_AUTH, "auth", False),
        (403, "permission_error", ErrorCode.SWIGGY_SESSION_EXPIRED, "permission", False),
        (429, "rate_limit_error", ErrorCode.API_RATE_LIMIT, "rate_limit", True),
        (500, "api_error", ErrorCode.API_SERVER, "server", True),
        (503, "api_error", ErrorCode.API_SERVER, "server", True),
        (529, "overloaded_error", ErrorCode.API_OVERLOADED, "overloaded", True),
        (400, "invalid_request_error", ErrorCode.API_BAD_REQUEST, "bad_request", False),
        (200, "overloaded_error", ErrorCode.API_OVERLOADED, "overloaded", True),
        (200, "api_error", ErrorCode.API_SERVER, "server", True),
        (200, "something_new", ErrorCode.API_STREAM, "stream", False),
    ],
)
def test_status_errors_are_classified(status, error_type, code, category, retryable):
    info = classify_api_error(_status_error(status, error_type))
    assert (info.code, info.category, info.retryable) == (code, category, retryable)
    assert info.status == status


def test_rate_limit_carries_retry_after():
    info = classify_api_error(_status_error(429, "rate_limit_error", {"retry-after": "7"}))
    assert info.retry_after_seconds == 7.0


def test_network_and_timeout_errors():
    assert classify_api_error(anthropic.APITimeoutError(request=REQUEST)).category == "timeout"
    assert classify_api_error(anthropic.APIConnectionError(request=REQUEST)).category == "network"
    assert classify_api_error(RuntimeError("?")).code == ErrorCode.API_UNKNOWN


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("Address with id addr_9 not found", ToolErrorCategory.ADDRESS),
        ("invalid address for delivery", ToolErrorCategory.ADDRESS),
        ("HTTP 401 Unauthorized", ToolErrorCategory.AUTH),
        ("token expired, please login", ToolErrorCategory.AUTH),
        ("Forbidden", ToolErrorCategory.FORBIDDEN),
        ("upstream returned 503", ToolErrorCategory.SERVER),
        ("Request timed out", ToolErrorCategory.SERVER),
        ("service overloaded", ToolErrorCategory.SERVER),
        ("quantity must be a positive integer", ToolErrorCategory.VALIDATION),
        ("", ToolErrorCategory.VALIDATION),
    ],
)
def test_mcp_tool_errors_are_categorised(text, category):
    error = classify_mcp_tool_error(text)
    assert error.category is category
    assert error.message and error.code.startswith("E-3")


def test_retry_policy_backoff_is_exponential_jittered_and_capped():
    policy = RetryPolicy(random_fn=lambda: 0.5)  # no jitter at the midpoint
    assert [policy.delay(n) for n in range(5)] == [0.5, 1.0, 2.0, 4.0, 5.0]
    low = RetryPolicy(random_fn=lambda: 0.0).delay(1)
    high = RetryPolicy(random_fn=lambda: 1.0).delay(1)
    assert low == pytest.approx(0.8) and high == pytest.approx(1.2)


def test_retry_policy_honours_retry_after_and_gives_up_past_the_cap():
    policy = RetryPolicy()
    assert policy.delay(0, retry_after=1.5) == 1.5
    assert policy.delay(0, retry_after=30) is None
    assert policy.should_retry(429, 0) and policy.should_retry(529, 1)
    assert not policy.should_retry(429, 2)
    assert not policy.should_retry(400, 0) and not policy.should_retry(None, 0)


def test_retry_after_header_forms():
    assert parse_retry_after({"retry-after-ms": "250"}) == 0.25
    assert parse_retry_after({"Retry-After": "3"}) == 3.0
    assert parse_retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0.0
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({}) is None


def test_rate_limit_headers_are_extracted():
    headers = {"Anthropic-RateLimit-Requests-Remaining": "3", "content-type": "x"}
    assert extract_rate_limit_headers(headers) == {"anthropic-ratelimit-requests-remaining": "3"}


def test_errors_raised_while_the_body_streams():
    import json

    assert classify_api_error(httpx2.ReadTimeout("slow", request=REQUEST)).code == "E-2005"
    cut = classify_api_error(httpx2.RemoteProtocolError("incomplete chunked read"))
    assert cut.code == "E-2006"
    assert classify_api_error(httpx2.ConnectError("refused")).code == "E-2004"
    bad = classify_api_error(json.JSONDecodeError("x", "{", 0))
    assert bad.code == "E-2006" and "malformed" in bad.message
