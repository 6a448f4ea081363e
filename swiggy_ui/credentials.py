"""Whose key and token a session uses, and where they may go.

Credentials belong to whoever supplied them. The owner's key and token (from secrets or
the environment) go only to the owner's configured endpoint, and only for the owner at
this machine or allow-listed signed-in users when the owner shares them. A visitor's
base URL is used only with the visitor's own key; a visitor without a key gets the
offline demo.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from swiggy_core.settings import Settings
from swiggy_ui.identity import Identity, may_use_owner_credentials

# Session-state keys the Connections page writes (the visitor's own credentials).
KEY_API_KEY = "conn_api_key"
KEY_BASE_URL = "conn_base_url"
KEY_SWIGGY_TOKEN = "conn_swiggy_token"
KEY_USE_SANDBOX = "conn_use_sandbox"

# "signin": the person's own "Sign in with Swiggy" token (theirs like a pasted one).
Source = Literal["visitor", "owner", "signin"]
Backend = Literal["sandbox", "swiggy"]


@dataclass(frozen=True, slots=True)
class Credentials:
    """The key, endpoint and token of one session (secrets never in the repr)."""

    api_key: str | None = field(default=None, repr=False)
    base_url: str | None = None
    key_source: Source | None = None
    swiggy_token: str | None = field(default=None, repr=False)
    token_source: Source | None = None
    backend: Backend = "sandbox"
    # The person asked for real Swiggy (it takes a key and a Swiggy token to get there).
    wants_swiggy: bool = False


def resolve_credentials(
    settings: Settings,
    identity: Identity,
    session: Mapping[str, Any],
    signed_in_token: str | None = None,
) -> Credentials:
    """Pick the key, endpoint, token and backend for this session (pure: easy to test).

    `signed_in_token` is this person's own "Sign in with Swiggy" token for real Swiggy.
    """
    owner_ok = may_use_owner_credentials(identity, settings)
    api_key, base_url, key_source = _model_access(settings, session, owner_ok)
    token: str | None
    token_source: Source | None
    if signed_in_token:
        token, token_source = signed_in_token, "signin"
    else:
        token, token_source = _swiggy_access(settings, session, owner_ok, key_source)
    use_sandbox = bool(session.get(KEY_USE_SANDBOX, settings.sandbox))
    wants_swiggy = bool(api_key) and not use_sandbox
    if not api_key or not token:
        use_sandbox = True  # the planner knows only the sandbox; no token, nothing real
    return Credentials(
        api_key=api_key,
        base_url=base_url,
        key_source=key_source,
        swiggy_token=token,
        token_source=token_source,
        backend="sandbox" if use_sandbox else "swiggy",
        wants_swiggy=wants_swiggy,
    )


def _model_access(
    settings: Settings, session: Mapping[str, Any], owner_ok: bool
) -> tuple[str | None, str | None, Source | None]:
    visitor_key = session.get(KEY_API_KEY)
    if isinstance(visitor_key, str) and visitor_key:
        visitor_url = session.get(KEY_BASE_URL)
        return visitor_key, visitor_url if isinstance(visitor_url, str) else None, "visitor"
    if owner_ok and settings.anthropic_api_key is not None:
        # The owner's key only ever goes to the owner's endpoint, never a visitor's URL.
        return settings.anthropic_api_key.get_secret_value(), settings.anthropic_base_url, "owner"
    return None, None, None


def _swiggy_access(
    settings: Settings, session: Mapping[str, Any], owner_ok: bool, key_source: Source | None
) -> tuple[str | None, Source | None]:
    visitor_token = session.get(KEY_SWIGGY_TOKEN)
    if isinstance(visitor_token, str) and visitor_token:
        return visitor_token, "visitor"
    # The connector hands the token to the model endpoint: only the owner's endpoint.
    if owner_ok and key_source == "owner" and settings.swiggy_token is not None:
        return settings.swiggy_token.get_secret_value(), "owner"
    return None, None
