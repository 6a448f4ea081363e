"""The "Sign in with Swiggy" control on Connections: start, status, expiry, disconnect.

"Sign in with Swiggy" is a link to Swiggy's sign-in page, so one click opens it (in a new
tab): the sign-in is prepared when the control is drawn (discovery, registration, PKCE),
not on a first click that would only reveal a second button. The page comes back to this
app's `/callback` page (`swiggy_ui.callback`), which files the token under this person;
this tab notices within a couple of seconds. Pasting a token stays as the fallback (hosted
copies, apps Swiggy has not allow-listed).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qs, urlsplit

import streamlit as st

from swiggy_core.constants import OAUTH_EXPIRY_WARNING, OAUTH_PENDING_TTL_SECONDS, SWIGGY_TZ
from swiggy_core.errors import ErrorCode
from swiggy_core.oauth import OAuthError, SwiggyToken, redirect_uri_for
from swiggy_core.settings import Settings
from swiggy_ui.banners import KEY_RECONNECT, coded_error, support_code
from swiggy_ui.signin_state import StartedSignIn, World, current_token, sign_ins, vault

KEY_SIGNIN_URL = "signin_url"
KEY_SIGNIN_OPENED = "signin_opened"
KEY_SIGNIN_ERROR = "signin_error"
# A prepared link is renewed well before Swiggy's pending sign-in would expire.
FRESH_SECONDS = OAUTH_PENDING_TTL_SECONDS / 2
KEY_REMEMBER = "signin_remember"
POLL_SECONDS = 2.0
# Codes after which pasting a token is the way forward.
PASTE_FALLBACK_CODES = frozenset(
    {ErrorCode.OAUTH_NOT_ALLOWLISTED, ErrorCode.OAUTH_REDIRECT_NOT_ALLOWED}
)


@dataclass(frozen=True, slots=True)
class PreparedSignIn:
    """A sign-in ready to open: Swiggy's page for it and what the callback will be told."""

    url: str
    state: str
    started: StartedSignIn


def render_signin(
    person: str, world: World, server_urls: Mapping[str, str], settings: Settings
) -> bool:
    """The control for one world; True when the paste fallback should be open."""
    token = current_token(person, world, settings)
    can_remember = settings.token_key is not None
    label = "Sign in with Swiggy" + (" (sandbox)" if world == "sandbox" else "")
    if st.session_state.pop(KEY_RECONNECT, False) and token is not None:
        st.warning(
            "Swiggy refused your sign-in (401/419). Sign in again: within Swiggy's 30-day "
            "session this usually needs no OTP.",
            icon=":material/lock_reset:",
        )
    if token is not None:
        _status(token, datetime.now(UTC), "the Swiggy sandbox" if world == "sandbox" else "Swiggy")
    remember = st.checkbox(
        "Remember me on this machine (encrypted)",
        key=f"{KEY_REMEMBER}::{world}",
        disabled=not can_remember,
        help=None if can_remember else "Set the SWIGGY_TOKEN_KEY secret to allow this.",
    )
    cols = st.columns(2)
    with cols[0]:
        again = "Sign in again" if token is not None else label
        _signin_link(again, person, world, server_urls, remember=remember)
    if token is not None and cols[1].button(
        "Disconnect", key=f"signin-disconnect::{world}", icon=":material/link_off:"
    ):
        _disconnect(person, world, token, server_urls, settings)
        st.rerun()
    failed = _show_error(world)
    _waiting(person, world, token)
    return failed in PASTE_FALLBACK_CODES


def _status(token: SwiggyToken, now: datetime, where: str) -> None:
    if token.expires_at is None:
        st.success(f"Signed in to {where}.", icon=":material/link:")
        return
    left = token.expires_at - now
    when = token.expires_at.astimezone(SWIGGY_TZ).strftime("%a %d %b, %I:%M %p %Z")
    if token.expired(now):
        st.error(
            f"Your sign-in to {where} expired on {when}. Sign in again.",
            icon=":material/schedule:",
        )
        support_code(ErrorCode.SWIGGY_SESSION_EXPIRED)
    elif token.expires_within(OAUTH_EXPIRY_WARNING, now):
        st.warning(
            f"Your sign-in to {where} expires in {_duration(left)} ({when}). Sign in again now: "
            "within Swiggy's 30-day session this usually needs no OTP.",
            icon=":material/schedule:",
        )
    else:
        st.success(
            f"Signed in to {where} · expires in {_duration(left)} ({when}).",
            icon=":material/link:",
        )


def _duration(left: timedelta) -> str:
    hours = max(0, int(left.total_seconds() // 3600))
    days, hours = divmod(hours, 24)
    if days:
        return f"{days} day{'s' * (days != 1)} {hours} h"
    minutes = max(0, int(left.total_seconds() // 60) % 60)
    return f"{hours} h {minutes} min"


def _signin_link(
    label: str, person: str, world: World, server_urls: Mapping[str, str], *, remember: bool
) -> None:
    """One click opens Swiggy's sign-in page; after a failed preparation, Try again."""
    if _failed(world):  # not prepared again on every rerun: the person asks for it
        if st.button("Try again", key=f"signin-retry::{world}", icon=":material/refresh:"):
            st.session_state.pop(KEY_SIGNIN_ERROR, None)
            st.rerun()
        return
    prepared = _prepared(person, world, server_urls, remember=remember)
    if prepared is None:
        return  # the coded reason shows below
    st.link_button(
        label,
        prepared.url,
        key=f"signin-start::{world}",
        type="primary",
        icon=":material/login:",
        on_click=_opened,
        args=(world,),
    )


def _prepared(
    person: str, world: World, server_urls: Mapping[str, str], *, remember: bool
) -> PreparedSignIn | None:
    """This session's sign-in for `world`, made once and renewed before it expires (or when
    the servers change); "Remember me" is noted on it as it changes."""
    key = f"{KEY_SIGNIN_URL}::{world}"
    prepared: PreparedSignIn | None = st.session_state.get(key)
    now = datetime.now(UTC).timestamp()
    if (
        prepared is None
        or now - prepared.started.started_at > FRESH_SECONDS
        or dict(prepared.started.server_urls) != dict(server_urls)
    ):
        prepared = _start(person, world, server_urls, remember=remember)
        if prepared is None:
            st.session_state.pop(key, None)
            return None
    elif prepared.started.remember != remember:
        started = StartedSignIn(world, dict(server_urls), remember, prepared.started.started_at)
        sign_ins().note_started(prepared.state, started)
        prepared = PreparedSignIn(prepared.url, prepared.state, started)
    st.session_state[key] = prepared
    return prepared


def _start(
    person: str, world: World, server_urls: Mapping[str, str], *, remember: bool
) -> PreparedSignIn | None:
    registry = sign_ins()
    try:
        redirect_uri = redirect_uri_for(_host())
        url = registry.service.start(f"{person}@{world}", server_urls, redirect_uri)
    except OAuthError as error:
        st.session_state[KEY_SIGNIN_ERROR] = (world, error.code, error.message)
        return None
    state = parse_qs(urlsplit(url).query).get("state", [""])[0]
    started = StartedSignIn(world, dict(server_urls), remember, datetime.now(UTC).timestamp())
    registry.note_started(state, started)
    return PreparedSignIn(url, state, started)


def _opened(world: World) -> None:
    """The link was followed: watch for the sign-in, and prepare a new link for a next
    click (each sign-in page can be used once)."""
    st.session_state[f"{KEY_SIGNIN_OPENED}::{world}"] = True
    st.session_state.pop(f"{KEY_SIGNIN_URL}::{world}", None)


def _failed(world: World) -> bool:
    saved: tuple[str, str, str] | None = st.session_state.get(KEY_SIGNIN_ERROR)
    return saved is not None and saved[0] == world


def _disconnect(
    person: str,
    world: World,
    token: SwiggyToken,
    server_urls: Mapping[str, str],
    settings: Settings,
) -> None:
    registry = sign_ins()
    registry.drop(person, world)
    remembered = vault(settings)
    if remembered is not None:
        remembered.forget(person, world)
    with contextlib.suppress(OAuthError):  # best effort: the app has already dropped it
        registry.service.revoke(token, server_urls)
    st.session_state.pop(f"{KEY_SIGNIN_URL}::{world}", None)
    st.session_state.pop(f"{KEY_SIGNIN_OPENED}::{world}", None)
    st.toast("Disconnected from Swiggy.", icon=":material/link_off:")


def _show_error(world: World) -> ErrorCode | None:
    saved = st.session_state.get(KEY_SIGNIN_ERROR)
    if not saved or saved[0] != world:
        return None
    _, code, message = saved
    coded_error(message, code, icon=":material/login:")
    return ErrorCode(code)


def _waiting(person: str, world: World, token: SwiggyToken | None) -> None:
    """After the link was followed: what to do there, and this page updates by itself."""
    if not st.session_state.get(f"{KEY_SIGNIN_OPENED}::{world}"):
        return
    st.caption(
        "Swiggy's sign-in opened in a new tab: enter your phone number and the OTP, approve, "
        "then come back here. This page updates by itself."
    )
    _wait_for_token(person, world, token)


@st.fragment(run_every=POLL_SECONDS)
def _wait_for_token(person: str, world: World, before: SwiggyToken | None) -> None:
    """Rerun the page once the callback tab has filed a new token for this person."""
    now = sign_ins().token(person, world)
    if now is not None and now is not before:
        st.session_state.pop(f"{KEY_SIGNIN_OPENED}::{world}", None)
        st.rerun(scope="app")


def _host() -> str:
    host = st.context.headers.get("Host")
    if host:
        return host
    return f"localhost:{st.get_option('server.port')}"  # AppTest and bare runs send no Host
