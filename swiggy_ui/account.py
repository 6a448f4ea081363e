"""Sign in and out (Streamlit's OIDC login), shown only when `[auth]` is configured."""

from __future__ import annotations

import streamlit as st

from swiggy_ui.identity import Identity


def render_account(identity: Identity) -> None:
    """A small sidebar block: who is signed in, or a Sign in button."""
    if identity.signed_in:
        with st.sidebar:
            st.caption(f":material/account_circle: {identity.email or 'Signed in'}")
            st.button("Sign out", key="sign-out", on_click=st.logout, icon=":material/logout:")
    elif identity.can_sign_in:
        with st.sidebar:
            st.caption("Sign in to keep your chats with your account.")
            st.button("Sign in", key="sign-in", on_click=st.login, icon=":material/login:")
