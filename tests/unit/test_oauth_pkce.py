"""PKCE S256, state, and which addresses Sign in with Swiggy may use."""

from __future__ import annotations

import base64
import hashlib
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from swiggy_core.errors import ErrorCode
from swiggy_core.oauth import OAuthError, redirect_uri_for
from swiggy_core.oauth.pkce import new_state, new_verifier, s256_challenge, valid_verifier
from swiggy_core.oauth.urls import is_allowed_endpoint, pinned_issuer


def test_the_rfc7636_example_challenge() -> None:
    verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"  # RFC 7636 appendix B
    assert s256_challenge(verifier) == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"


def test_verifiers_are_fresh_long_and_unreserved() -> None:
    verifiers = {new_verifier() for _ in range(50)}
    assert len(verifiers) == 50
    for verifier in verifiers:
        assert 43 <= len(verifier) <= 128 and valid_verifier(verifier)
        assert re.fullmatch(r"[A-Za-z0-9_-]+", verifier)


@given(st.text(min_size=43, max_size=128, alphabet="ABCxyz019-._~"))
def test_any_unreserved_verifier_has_an_unpadded_sha256_challenge(verifier: str) -> None:
    assert valid_verifier(verifier)
    digest = hashlib.sha256(verifier.encode()).digest()
    assert s256_challenge(verifier) == base64.urlsafe_b64encode(digest).decode().rstrip("=")


@pytest.mark.parametrize("verifier", ["", "a" * 42, "a" * 129, "a" * 42 + "!", "a" * 50 + " "])
def test_malformed_verifiers_are_rejected(verifier: str) -> None:
    assert not valid_verifier(verifier)


def test_states_are_unguessable() -> None:
    states = {new_state() for _ in range(50)}
    assert len(states) == 50 and all(len(state) >= 40 for state in states)


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("localhost:8501", "http://localhost:8501/callback"),
        ("127.0.0.1:9000", "http://127.0.0.1:9000/callback"),
        ("LOCALHOST:8501", "http://localhost:8501/callback"),
        ("localhost", "http://localhost/callback"),
        (" 127.0.0.1 ", "http://127.0.0.1/callback"),
    ],
)
def test_loopback_hosts_get_a_loopback_callback(host: str, expected: str) -> None:
    assert redirect_uri_for(host) == expected


@pytest.mark.parametrize(
    "host",
    [
        "example.com",
        "myapp.streamlit.app",
        "192.168.1.5:8501",
        "[::1]:8501",
        "localhost.evil.com",
        "localhost:0",
        "localhost:99999",
        "user@localhost:8501",
        "localhost:8501/path",
        "",
    ],
)
def test_other_hosts_are_e5110_with_the_paste_fallback(host: str) -> None:
    with pytest.raises(OAuthError) as caught:
        redirect_uri_for(host)
    assert caught.value.code == ErrorCode.OAUTH_REDIRECT_NOT_ALLOWED
    assert "loopback" in caught.value.message and "paste a token" in caught.value.message


def test_only_plain_http_loopback_callbacks_are_offered() -> None:
    with pytest.raises(OAuthError):
        redirect_uri_for("localhost:8501", scheme="https")


def test_endpoints_must_be_https_or_loopback() -> None:
    assert is_allowed_endpoint("https://mcp.swiggy.com/auth/token")
    assert is_allowed_endpoint("http://127.0.0.1:8000/auth/token")
    assert is_allowed_endpoint("http://localhost/auth/token")
    assert not is_allowed_endpoint("http://mcp.swiggy.com/auth/token")
    assert not is_allowed_endpoint("ftp://mcp.swiggy.com/auth")
    assert not is_allowed_endpoint("https://user:pw@mcp.swiggy.com/auth")
    assert not is_allowed_endpoint("http://127.0.0.1.evil.com/auth")


def test_issuers_are_pinned_for_swiggy_and_loopback_only() -> None:
    assert pinned_issuer("https://mcp.swiggy.com/food") == "https://mcp.swiggy.com/auth"
    assert pinned_issuer("http://127.0.0.1:4321/im") == "http://127.0.0.1:4321/auth"
    assert pinned_issuer("https://other.example/mcp") is None
