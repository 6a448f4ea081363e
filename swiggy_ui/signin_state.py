"""Whose Swiggy sign-in is whose: one process-wide registry, keyed by person and world.

The sign-in comes back on a new browser tab (a new Streamlit session), so the token cannot
live in the session that started it. It lives here, in this process's memory, under
`"{identity}@{world}"`; only a person who asked to be remembered also gets an encrypted
copy in the database (`TokenVault`, key from the `SWIGGY_TOKEN_KEY` secret).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

import streamlit as st

from swiggy_core.constants import OAUTH_EXPIRY_WARNING, OAUTH_PENDING_TTL_SECONDS
from swiggy_core.oauth import OAuthError, SignInService, SwiggyToken, TokenVault
from swiggy_core.oauth.pending_redis import pending_store
from swiggy_core.settings import Settings
from swiggy_core.shared_state import SharedState, SharedStateError, shared_state
from swiggy_core.store import StoreError

World = Literal["sandbox", "swiggy"]


@dataclass(frozen=True, slots=True)
class StartedSignIn:
    """What the callback needs to know about a sign-in this app started."""

    world: World
    server_urls: Mapping[str, str]
    remember: bool
    started_at: float


def _started_key(state: str) -> str:
    # The OAuth state is a secret-ish nonce: keys carry only its digest.
    return "oauth-started:" + hashlib.sha256(state.encode()).hexdigest()


def _new_service() -> SignInService:
    # Pending sign-ins live in Redis when REDIS_URL is set: the callback may reach any replica.
    return SignInService(pending=pending_store())


@dataclass
class SignIns:
    """The sign-in service plus the tokens it produced, per person and world (memory only)."""

    service: SignInService = field(default_factory=_new_service)
    _tokens: dict[str, SwiggyToken] = field(default_factory=dict)
    # Sign-ins in flight live in the shared state (Redis when REDIS_URL is set), so the
    # callback tab may reach another replica than the one that started the sign-in.
    _state: SharedState = field(default_factory=shared_state)
    _refreshing: set[str] = field(default_factory=set)  # digests of tokens tried
    _vault_read: set[str] = field(default_factory=set)  # person@world already looked up
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __repr__(self) -> str:
        with self._lock:
            return f"SignIns(tokens={len(self._tokens)})"

    def note_started(self, state: str, started: StartedSignIn) -> None:
        record = {
            "world": started.world,
            "server_urls": dict(started.server_urls),
            "remember": started.remember,
            "started_at": started.started_at,
        }
        ttl = 2 * OAUTH_PENDING_TTL_SECONDS
        self._state.set(_started_key(state), json.dumps(record), ttl)

    def started(self, state: str) -> StartedSignIn | None:
        try:
            body = self._state.get(_started_key(state))
        except SharedStateError:
            return None
        if body is None:
            return None
        record = json.loads(body)
        world: World = "sandbox" if record.get("world") == "sandbox" else "swiggy"
        urls = {str(k): str(v) for k, v in dict(record.get("server_urls") or {}).items()}
        return StartedSignIn(world, urls, bool(record.get("remember")), record["started_at"])

    def token(self, person: str, world: World) -> SwiggyToken | None:
        with self._lock:
            return self._tokens.get(f"{person}@{world}")

    def keep(self, person: str, world: World, token: SwiggyToken) -> None:
        with self._lock:
            self._tokens[f"{person}@{world}"] = token

    def claim_refresh(self, token: SwiggyToken) -> bool:
        """True the first time a refresh of this very token is attempted."""
        digest = hashlib.sha256(token.access_token.encode()).hexdigest()
        with self._lock:
            if digest in self._refreshing:
                return False
            self._refreshing.add(digest)
            return True

    def first_look(self, person: str, world: World) -> bool:
        """True once per person and world: the remembered copy is read once, not per rerun."""
        key = f"{person}@{world}"
        with self._lock:
            if key in self._vault_read:
                return False
            self._vault_read.add(key)
            return True

    def drop(self, person: str, world: World) -> SwiggyToken | None:
        with self._lock:
            self._vault_read.discard(f"{person}@{world}")  # a later look reads it afresh
            return self._tokens.pop(f"{person}@{world}", None)


@st.cache_resource(show_spinner=False)
def sign_ins() -> SignIns:
    """The process-wide registry (holds tokens only under their owner's key)."""
    return SignIns()


def vault(settings: Settings) -> TokenVault | None:
    """The encrypted store for remembered sign-ins, when a key is configured."""
    if settings.token_key is None:
        return None
    return TokenVault(settings.database_url, settings.token_key.get_secret_value())


def current_token(person: str, world: World, settings: Settings) -> SwiggyToken | None:
    """This person's sign-in for `world`: memory first, then a remembered one; refreshed
    a day before it expires when the server gave a refresh token (Swiggy v1 gives none)."""
    registry = sign_ins()
    token = registry.token(person, world)
    remembered = vault(settings)
    if token is None and remembered is not None and registry.first_look(person, world):
        token = _load(remembered, person, world)
        if token is not None:
            registry.keep(person, world, token)
    if token is None or not _refresh_due(token):
        return token
    return refresh_now(registry, person, world, token, remembered)


def refresh_now(
    registry: SignIns,
    person: str,
    world: World,
    token: SwiggyToken,
    remembered: TokenVault | None,
) -> SwiggyToken:
    """Swap `token` for a fresh one; on any failure keep it (the page warns of its expiry)."""
    if not registry.claim_refresh(token):
        return token  # tried once already: no request on every rerun
    servers = {str(index): url for index, url in enumerate(token.resources)}
    try:
        fresh = registry.service.refresh(token, servers)
    except OAuthError:
        return token
    registry.keep(person, world, fresh)
    if remembered is not None:
        with contextlib.suppress(OAuthError, StoreError):
            if remembered.load(person, world) is not None:
                remembered.save(person, world, fresh)
    return fresh


def _refresh_due(token: SwiggyToken) -> bool:
    return bool(token.refresh_token and token.resources) and token.expires_within(
        OAUTH_EXPIRY_WARNING
    )


def _load(remembered: TokenVault, person: str, world: World) -> SwiggyToken | None:
    try:
        return remembered.load(person, world)
    except (OAuthError, StoreError):
        # A key change makes old copies unreadable, a database fault hides them: either
        # way the person simply signs in again; the chat pages show database faults.
        return None
