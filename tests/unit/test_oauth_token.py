"""SwiggyToken: expiry, the day-ahead warning, JSON round trip, and no secret in its repr."""

from __future__ import annotations

import pickle
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from swiggy_core.constants import OAUTH_EXPIRY_WARNING, SWIGGY_TOKEN_TTL_SECONDS
from swiggy_core.errors import ErrorCode
from swiggy_core.logsafe import redact
from swiggy_core.oauth import OAuthError, SwiggyToken
from swiggy_core.oauth.exchange import token_from_answer

NOW = datetime(2026, 11, 20, 9, 30, tzinfo=UTC)
ACCESS = "eyJhbGciOiJSUzI1NiJ9.payload-unit-test.signature"
REFRESH = "refresh-unit-test-0123456789"


# Swiggy's token as it is kept after sign-in; `token(...)` changes any of its fields.
A_TOKEN = SwiggyToken(
    access_token=ACCESS,
    token_type="Bearer",
    scope="mcp:tools mcp:resources mcp:prompts",
    issuer="https://mcp.swiggy.com/auth",
    obtained_at=NOW,
    expires_at=NOW + timedelta(seconds=SWIGGY_TOKEN_TTL_SECONDS),
    refresh_token=REFRESH,
    resources=("https://mcp.swiggy.com/im", "https://mcp.swiggy.com/food"),
    client_id="swiggy-mcp",
)


def token(**changes: Any) -> SwiggyToken:
    return replace(A_TOKEN, **changes)


def test_swiggys_answer_makes_a_five_day_token() -> None:
    answer = {
        "access_token": ACCESS,
        "token_type": "bearer",
        "expires_in": 432000,
        "scope": ["mcp:tools"],
    }
    made = token_from_answer(
        answer, issuer="https://mcp.swiggy.com/auth", now=NOW, resources=(), client_id="swiggy-mcp"
    )
    assert made.expires_at == NOW + timedelta(days=5)
    assert (made.token_type, made.scope, made.refresh_token) == ("Bearer", "mcp:tools", None)


@pytest.mark.parametrize(
    "answer", [{}, {"access_token": ""}, {"access_token": ACCESS, "token_type": "mac"}]
)
def test_an_answer_without_a_bearer_token_is_e5109(answer: dict[str, object]) -> None:
    with pytest.raises(OAuthError) as caught:
        token_from_answer(answer, issuer="i", now=NOW, resources=(), client_id="c")
    assert caught.value.code == ErrorCode.OAUTH_TOKEN_ENDPOINT


def test_expiry_and_the_day_ahead_warning() -> None:
    five_days = token()
    assert not five_days.expired(NOW)
    assert not five_days.expires_within(OAUTH_EXPIRY_WARNING, NOW + timedelta(days=3, hours=23))
    assert five_days.expires_within(OAUTH_EXPIRY_WARNING, NOW + timedelta(days=4, hours=1))
    assert not five_days.expired(NOW + timedelta(days=5) - timedelta(seconds=1))
    assert five_days.expired(NOW + timedelta(days=5))
    unknown = token(expires_at=None)
    assert not unknown.expired(NOW + timedelta(days=400))
    assert not unknown.expires_within(OAUTH_EXPIRY_WARNING, NOW)


def test_times_must_be_aware() -> None:
    with pytest.raises(ValueError):
        token(obtained_at=datetime(2026, 11, 20, 9, 30))
    with pytest.raises(ValueError):
        token(expires_at=datetime(2026, 11, 25, 9, 30))


def test_json_round_trip_keeps_every_field() -> None:
    original = token()
    assert SwiggyToken.from_json(original.to_json()) == original
    assert (
        SwiggyToken.from_json(token(refresh_token=None, expires_at=None).to_json()).refresh_token
        is None
    )


@pytest.mark.parametrize(
    "text", ["[]", "{}", '{"access_token": 5, "obtained_at": "x"}', "not json"]
)
def test_anything_else_is_not_a_token(text: str) -> None:
    with pytest.raises(ValueError):
        SwiggyToken.from_json(text)


def test_no_secret_in_the_repr_and_both_registered_for_the_logs() -> None:
    made = token()
    for shown in (
        repr(made),
        str(made),
        f"{made}",
        repr([made]),
        repr(pickle.loads(pickle.dumps(made))),
    ):
        assert ACCESS not in shown and REFRESH not in shown
    assert "mcp.swiggy.com/auth" in repr(made)
    assert ACCESS not in redact(f"sending {made.authorization_header} now")
    assert REFRESH not in redact(f"refresh with {REFRESH}")
