"""Who is using the app: the signed-in user, or one browser; and whether it is the owner.

Never a value from the page address: a link cannot carry anyone's identity.
- Streamlit's OIDC login (`[auth]` in secrets): the signed-in user.
- Otherwise a random per-browser id kept in a cookie (strict format), so it survives
  page switches and reloads and cannot be chosen by typing a URL.
- A browser on this very machine (a direct loopback connection asking for a loopback
  host) is the owner of this copy's secrets, when no login is configured.
"""

from __future__ import annotations

import functools
import hashlib
import ipaddress
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

import streamlit as st
from streamlit.components.v2 import component as define_component
from streamlit.components.v2.types import ComponentRenderer

from swiggy_core.constants import LOOPBACK_HOSTS
from swiggy_core.settings import Settings

BROWSER_COOKIE = "swiggy_uid"
BROWSER_ID_RE = re.compile(r"[0-9a-f]{32}")
_SESSION_KEY = "browser_id"
_COOKIE_SET_KEY = "browser_id_cookie_set"
_COOKIE_MAX_AGE_SECONDS = 400 * 24 * 3600
_WRITER_NAME = "swiggy_browser_cookie"
_WRITER_KEY = "browser-cookie-writer"
# Writes the cookie, reads it back, and reports the id only when it really is stored
# (a browser that refuses cookies reports nothing, and the writer stays on the page).
# It reports an id once per page load: the writer drawn by a run that a report interrupted
# stays on the page while the next run goes on, and runs again when redrawn; a second
# report of the same id would rerun the whole page once more for nothing.
_WRITER_JS = """
export default function ({ data, setStateValue }) {
  const name = data && data.name;
  const id = data && data.id;
  if (name !== "__COOKIE__" || typeof id !== "string" || !/^[0-9a-f]{32}$/.test(id)) return;
  if (window.__swiggyCookieReported === id) return;
  document.cookie = `${name}=${id}; Path=/; Max-Age=${Number(data.maxAge)}; SameSite=Strict`;
  if (document.cookie.split("; ").includes(`${name}=${id}`)) {
    window.__swiggyCookieReported = id;
    setStateValue("stored", id);
  }
}
""".replace("__COOKIE__", BROWSER_COOKIE)
_LOOPBACK_HOSTS = LOOPBACK_HOSTS | {"[::1]"}  # a Host header brackets IPv6

IdentityKind = Literal["signed_in", "browser"]


@dataclass(frozen=True, slots=True)
class Identity:
    """The person behind this browser session, as far as the app can tell."""

    user_id: str
    kind: IdentityKind
    email: str | None = None
    # Login is configured but this person has not signed in yet.
    can_sign_in: bool = False
    # The browser runs on the machine that holds the owner's secrets (no login set up).
    is_owner_here: bool = False

    @property
    def signed_in(self) -> bool:
        return self.kind == "signed_in"


def may_use_owner_credentials(identity: Identity, settings: Settings) -> bool:
    """Owner secrets serve the owner here, or allow-listed signed-in users if shared."""
    if identity.is_owner_here:
        return True
    return (
        settings.share_owner_credentials
        and identity.signed_in
        and identity.email is not None
        and identity.email.lower() in settings.allowed_emails
    )


def current_identity() -> Identity:
    """Resolve this session's identity (remembered for the session)."""
    user = _user_info()
    if user.get("is_logged_in") is True:
        return _signed_in(user)
    can_sign_in = "is_logged_in" in user  # present only when [auth] is configured
    return Identity(
        user_id=f"b-{_browser_id()}",
        kind="browser",
        can_sign_in=can_sign_in,
        is_owner_here=not can_sign_in and _on_this_machine(),
    )


def valid_browser_id(value: object) -> bool:
    return isinstance(value, str) and BROWSER_ID_RE.fullmatch(value) is not None


def _signed_in(user: dict[str, object]) -> Identity:
    issuer = str(user.get("iss") or "")
    subject = str(user.get("sub") or user.get("email") or "")
    email = user.get("email")
    digest = hashlib.sha256(f"{issuer}|{subject}".encode()).hexdigest()[:32]
    return Identity(
        user_id=f"u-{digest}",
        kind="signed_in",
        email=email.lower() if isinstance(email, str) else None,
    )


def _user_info() -> dict[str, object]:
    try:
        return dict(st.user.to_dict())
    except Exception:  # no auth machinery at all (older runtimes, bare mode)
        return {}


def _on_this_machine() -> bool:
    """A direct loopback TCP peer that also asked for a loopback host name.

    Both are needed: a proxy on this machine makes every peer loopback, but it forwards
    the public host name, which a remote visitor cannot turn into `localhost`.
    """
    peer = _peer_ip()
    host = (st.context.headers.get("Host") or "").rsplit(":", 1)[0].lower()
    if peer is None or host not in _LOOPBACK_HOSTS:
        return False
    try:
        return ipaddress.ip_address(peer).is_loopback
    except ValueError:
        return False


def _peer_ip() -> str | None:
    """The TCP peer of this session's connection (not a header a client can set)."""
    try:
        from streamlit.runtime import exists, get_instance
        from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx
    except ImportError:
        return None
    ctx = get_script_run_ctx()
    if ctx is None or not exists():
        return None
    client = get_instance().get_client(ctx.session_id)
    context = getattr(client, "client_context", None) if client is not None else None
    peer = getattr(context, "remote_ip", None)
    return peer if isinstance(peer, str) else None


def _browser_id() -> str:
    """This browser's id: the cookie if it is well-formed, else a new one (then stored)."""
    remembered = st.session_state.get(_SESSION_KEY)
    if valid_browser_id(remembered):
        return str(remembered)
    cookie = st.context.cookies.get(BROWSER_COOKIE)
    browser_id = cookie if valid_browser_id(cookie) else uuid.uuid4().hex
    st.session_state[_SESSION_KEY] = browser_id
    return str(browser_id)


def remember_browser() -> None:
    """Make sure this browser holds its id in the cookie, so a reload finds the same person.

    The id is minted on the server, but only the browser can store it, and it can only be
    trusted to have done so once it says so. Until this session hears that (the cookie it
    sent in, or the writer's report), the writer is mounted on every run at this same place:
    a writer that had not run yet when a rerun came (a slow machine, a message sent at
    once) is still on the page and runs when it can, instead of vanishing unrun.

    The place is kept on every run, empty (and hidden) once the writer is done, so the
    writer leaving never shifts the page below it (a shift shows the stale copy of each
    element beside its new one until that run ends: two titles, two chat inputs).
    """
    slot = st.empty()
    browser_id = st.session_state.get(_SESSION_KEY)
    if not valid_browser_id(browser_id) or st.session_state.get(_COOKIE_SET_KEY):
        return
    if st.context.cookies.get(BROWSER_COOKIE) == browser_id:
        st.session_state[_COOKIE_SET_KEY] = True
        return
    with slot:
        _cookie_writer()(
            key=_WRITER_KEY,
            data={"name": BROWSER_COOKIE, "id": browser_id, "maxAge": _COOKIE_MAX_AGE_SECONDS},
            on_stored_change=_writer_reported,
            width="content",
            height="content",
        )


def _writer_reported() -> None:
    """The writer read the cookie back (its state changed): believe it or not."""
    if stored_here(st.session_state.get(_WRITER_KEY), st.session_state.get(_SESSION_KEY)):
        st.session_state[_COOKIE_SET_KEY] = True


def stored_here(report: object, browser_id: object) -> bool:
    """True when the writer's report names exactly this session's (well-formed) id."""
    stored = report.get("stored") if isinstance(report, Mapping) else None
    return valid_browser_id(stored) and stored == browser_id


@functools.cache
def _cookie_writer() -> ComponentRenderer:
    # Our own fixed script; the id comes in as data and is checked again before use.
    return define_component(_WRITER_NAME, js=_WRITER_JS, isolate_styles=True)
