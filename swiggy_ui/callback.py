"""The `/callback` page: where Swiggy's sign-in comes back with `code` and `state`.

It runs in a new browser session, so everything it needs is server-side: the pending
authorisation (in `SignInService`, bound to the person who started it) and which world
it was for. A failure shows a coded message and stores nothing; a previous sign-in stays.
"""

from __future__ import annotations

import streamlit as st

from swiggy_core.oauth import OAuthError, SwiggyToken
from swiggy_core.settings import Settings
from swiggy_ui.banners import CONNECTIONS_PAGE
from swiggy_ui.identity import current_identity, remember_browser
from swiggy_ui.runtime import load_runtime_settings
from swiggy_ui.safe_text import plain
from swiggy_ui.signin_state import World, sign_ins, vault

_CALLBACK_PARAMS = ("code", "state", "error", "error_description", "iss")
KEY_CALLBACK_DONE = "callback_outcome"


def render_callback() -> None:
    st.title("Sign in with Swiggy")
    identity = current_identity()
    if identity.kind == "browser":
        remember_browser()
    params = {k: str(st.query_params[k]) for k in _CALLBACK_PARAMS if k in st.query_params}
    if params:
        # Once read, the code leaves the address bar (and a reload cannot replay it).
        st.session_state[KEY_CALLBACK_DONE] = _finish(identity.user_id, params)
        st.query_params.clear()
    outcome = st.session_state.get(KEY_CALLBACK_DONE)
    if outcome is None:
        st.info("Nothing to do here: start signing in from Connections.", icon=":material/info:")
    elif outcome[0] == "ok":
        st.success(outcome[1], icon=":material/check_circle:")
    else:
        st.error(f"**{plain(outcome[0])}** · {plain(outcome[1])}", icon=":material/login:")
    st.page_link(CONNECTIONS_PAGE, label="Back to Connections", icon=":material/settings:")


def _finish(person: str, params: dict[str, str]) -> tuple[str, str]:
    registry = sign_ins()
    started = registry.started(params.get("state", ""))
    world: World = started.world if started is not None else "swiggy"
    try:
        token = registry.service.finish(f"{person}@{world}", params)
    except OAuthError as error:
        return str(error.code), error.message
    registry.keep(person, world, token)
    remember = started is not None and started.remember
    note = _remember(person, world, token, load_runtime_settings()) if remember else ""
    where = "the sandbox" if world == "sandbox" else "Swiggy"
    return "ok", (
        f"Signed in to {where}. You can close this tab and go back to the app: it has "
        f"picked up your sign-in.{note}"
    )


def _remember(person: str, world: World, token: SwiggyToken, settings: Settings) -> str:
    remembered = vault(settings)
    if remembered is None:
        return " (Not remembered: this app has no SWIGGY_TOKEN_KEY.)"
    try:
        remembered.save(person, world, token)
    except OAuthError as error:
        return f" It could not be remembered on this machine: {error.message}"
    return " It is remembered on this machine, encrypted."
