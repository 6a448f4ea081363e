"""PKCE S256 (RFC 7636) and the `state` value of an authorisation."""

from __future__ import annotations

import base64
import hashlib
import re
import secrets

from swiggy_core.logsafe import register_secret

VERIFIER_MIN_LENGTH = 43
VERIFIER_MAX_LENGTH = 128
# 64 random bytes: an 86-character verifier.
_VERIFIER_BYTES = 64
_STATE_BYTES = 32
_VERIFIER_CHARS = re.compile(r"[A-Za-z0-9\-._~]+")


def new_verifier() -> str:
    """A fresh code verifier (unreserved characters, 43–128 long), registered as a secret."""
    verifier = secrets.token_urlsafe(_VERIFIER_BYTES)
    register_secret(verifier)
    return verifier


def valid_verifier(verifier: str) -> bool:
    """Whether `verifier` has the length and alphabet RFC 7636 requires."""
    return (
        VERIFIER_MIN_LENGTH <= len(verifier) <= VERIFIER_MAX_LENGTH
        and _VERIFIER_CHARS.fullmatch(verifier) is not None
    )


def s256_challenge(verifier: str) -> str:
    """BASE64URL(SHA256(verifier)) without padding."""
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def new_state() -> str:
    """An unguessable `state` for one authorisation."""
    return secrets.token_urlsafe(_STATE_BYTES)
