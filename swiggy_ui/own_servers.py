"""Connections → Servers → Your servers: add, switch off and remove a server of one's own.

Each change happens in a callback, so the page that follows already shows it; the store
(`swiggy_core.mcp.user_servers`) checks every rule and refuses with E-3201 (E-3209 for a
host that is not a public address). A person's server gets no credential from the app, and
stdio only where the deployment allows it.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

import streamlit as st

from swiggy_core.errors import ErrorCode, McpServerError, SwiggyAssistantError
from swiggy_core.mcp.config import ServerConfig, Transport
from swiggy_core.mcp.user_servers import (
    user_stdio_allowed,
)
from swiggy_core.verticals import VERTICALS, get_vertical
from swiggy_ui import state
from swiggy_ui.banners import support_code
from swiggy_ui.runtime import Runtime
from swiggy_ui.safe_text import plain

TRANSPORTS: Final[tuple[Transport, ...]] = ("http", "sse", "stdio")
TRANSPORT_LABELS: Final = {"http": "Streamable HTTP", "sse": "SSE", "stdio": "stdio (a command)"}
# The add form's widgets (cleared after a server is added).
_FIELDS: Final = ("srv-add-key", "srv-add-url", "srv-add-command")

# What to say once, and the code of a refusal (shown small, for support).
Flash = tuple[Literal["success", "error"], str, str | None]


@dataclass
class ServersUi:
    """What the section is in the middle of: a removal to confirm, a message to show once."""

    confirming: str | None = None
    flash: Flash | None = None


def _ui_state() -> ServersUi:
    key = f"servers_ui::{state.backend()}"
    if key not in st.session_state:
        st.session_state[key] = ServersUi()
    ui: ServersUi = st.session_state[key]
    return ui


def render_own_servers(runtime: Runtime, servers: dict[str, ServerConfig]) -> None:
    """The person's servers, each with a switch and Remove, then the add form."""
    ui = _ui_state()
    st.markdown("**Your servers**")
    if ui.flash is not None:
        kind, text, code = ui.flash
        ui.flash = None
        if kind == "success":
            st.success(text, icon=":material/check:")
        else:
            st.error(text, icon=":material/error:")
            support_code(code)
    own = [config for config in servers.values() if config.origin == "user"]
    if not own:
        st.caption("You have not added a server. Its tools show on the pages you choose.")
    for config in own:
        _own_row(runtime, config, ui)
    with st.expander("Add a server", icon=":material/add:"):
        _add_form(runtime, taken=set(servers))


def _own_row(runtime: Runtime, config: ServerConfig, ui: ServersUi) -> None:
    pages = ", ".join(_page_name(page) for page in config.pages) or "no page"
    st.caption(f"**{plain(config.key)}** · on {plain(pages)}")
    if ui.confirming == config.key:
        st.warning(
            f"Remove “{plain(config.key)}”? Its tools leave every page.", icon=":material/warning:"
        )
        yes, no = st.columns(2)
        yes.button("Remove server", key=f"srv-remove-yes-{config.key}", type="primary",
                   width="stretch", on_click=_remove, args=(runtime, config.key))  # fmt: skip
        no.button("Keep", key=f"srv-remove-no-{config.key}", width="stretch",
                  on_click=_confirm, args=(None,))  # fmt: skip
        return
    on, remove = st.columns(2, vertical_alignment="center")
    on.toggle("Enabled", value=config.enabled, key=f"srv-enabled-{config.key}",
              on_change=_toggle, args=(runtime, config.key))  # fmt: skip
    remove.button("Remove", key=f"srv-remove-{config.key}", icon=":material/delete:",
                  width="stretch", on_click=_confirm, args=(config.key,))  # fmt: skip


def _page_name(vertical_id: str) -> str:
    return get_vertical(vertical_id).display_name


def _add_form(runtime: Runtime, taken: set[str]) -> None:
    with st.form("srv-add", border=False):
        key_col, transport_col = st.columns(2)
        key_col.text_input("Name", key="srv-add-key", placeholder="notes", max_chars=40)
        transports = TRANSPORTS if user_stdio_allowed() else TRANSPORTS[:2]
        transport_col.selectbox("Transport", transports, key="srv-add-transport",
                                format_func=TRANSPORT_LABELS.__getitem__)  # fmt: skip
        st.text_input("URL (Streamable HTTP or SSE)", key="srv-add-url",
                      placeholder="https://mcp.example.com/mcp")  # fmt: skip
        if user_stdio_allowed():
            st.text_input("Command and arguments (stdio)", key="srv-add-command",
                          placeholder="python -m my_server --stdio")  # fmt: skip
        st.multiselect("Pages that offer its tools (none chosen: every page)", list(VERTICALS),
                       key="srv-add-pages", format_func=_page_name)  # fmt: skip
        st.caption(
            ":material/lock: A server you add gets no credential from this app: neither your "
            "Swiggy sign-in nor any secret is ever sent to it."
        )
        st.form_submit_button("Add server", type="primary", icon=":material/add:",
                              on_click=_add, args=(runtime, frozenset(taken)))  # fmt: skip


# -- callbacks (run before the page is drawn again) ---------------------------------------
def _confirm(key: str | None) -> None:
    _ui_state().confirming = key


def _fail(error: SwiggyAssistantError) -> None:
    _ui_state().flash = ("error", plain(error.message), error.code)


def _change(runtime: Runtime, change: Callable[[], str | None]) -> None:
    """Run one change to the person's servers and flash what it says, or why it failed
    (the visit reads their servers from the store again after any change)."""
    try:
        done = change()
    except SwiggyAssistantError as error:
        _fail(error)
        return
    if done is not None:
        _ui_state().flash = ("success", done, None)


def _add(runtime: Runtime, taken: frozenset[str]) -> None:
    def add() -> str:
        config = _form_config(taken)
        runtime.visit.save_own_server(config)
        for field in _FIELDS:
            st.session_state[field] = ""
        st.session_state["srv-add-pages"] = []
        return f"Added “{plain(config.key)}”."

    _change(runtime, add)


def _form_config(taken: frozenset[str]) -> ServerConfig:
    """The add form as a server of the person's own (raises with E-3201 when it can't be)."""
    values = st.session_state
    key = str(values.get("srv-add-key", "")).strip()
    transport: Transport = values.get("srv-add-transport", "http")
    if key in taken:
        raise McpServerError(
            f"A server called '{key}' is already in use: choose another name.",
            code=ErrorCode.SERVER_CONFIG,
        )
    command, args = (
        _command_line(values.get("srv-add-command", "")) if transport == "stdio" else ("", ())
    )
    return ServerConfig(
        key=key,
        transport=transport,
        url=str(values.get("srv-add-url", "")).strip() if transport != "stdio" else "",
        command=command,
        args=args,
        pages=tuple(values.get("srv-add-pages", ())) or tuple(VERTICALS),
        origin="user",
    )


def _command_line(text: object) -> tuple[str, tuple[str, ...]]:
    try:
        words = shlex.split(str(text or ""))
    except ValueError as problem:  # shlex's own words, e.g. "No closing quotation"
        raise McpServerError(
            f"The command line could not be read ({problem}).", code=ErrorCode.SERVER_CONFIG
        ) from problem
    return (words[0], tuple(words[1:])) if words else ("", ())


def _toggle(runtime: Runtime, key: str) -> None:
    enabled = bool(st.session_state.get(f"srv-enabled-{key}"))
    _change(runtime, lambda: runtime.visit.set_own_server_enabled(key, enabled))


def _remove(runtime: Runtime, key: str) -> None:
    _confirm(None)

    def remove() -> str:
        runtime.visit.remove_own_server(key)
        return f"Removed “{plain(key)}”."

    _change(runtime, remove)
