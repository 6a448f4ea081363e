"""The page's handle on the app: this session's settings, identity, credentials and visit.

The app object (`swiggy_app.ShopApp`: store, sandbox, servers, health) is process-wide
(`st.cache_resource`); none of it holds a person's credential. Keys and tokens live only
in this session's state and in its `Visit`, which is kept in that state between reruns.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

import streamlit as st

from swiggy_app import ShopApp, Visit, Visitor
from swiggy_app.app import Mode
from swiggy_app.sandbox import SandboxStart
from swiggy_app.servers import HealthService
from swiggy_core.constants import DEFAULT_DATABASE_URL, HEALTH_POLL_ENV, SWIGGY_TOKEN_STALE_DAYS
from swiggy_core.errors import SettingsError
from swiggy_core.mcp.config import ServerConfigSet, load_server_config
from swiggy_core.parsers import AddressItem
from swiggy_core.settings import SandboxResultForm, Settings, load_settings
from swiggy_core.store import ChatStore, StoreError
from swiggy_core.store.fallback import open_chat_store, temporary_database_url
from swiggy_ui import state
from swiggy_ui.account import render_account
from swiggy_ui.banners import coded_error, temporary_store_banner
from swiggy_ui.credentials import Credentials, resolve_credentials
from swiggy_ui.first_paint import deployment_secrets
from swiggy_ui.identity import Identity, current_identity, remember_browser
from swiggy_ui.signin_state import current_token

if TYPE_CHECKING:  # the SDKs (anthropic, mcp) load on the first turn, not the first page
    from swiggy_core.engine import TurnSetup
    from swiggy_core.turn.session import ChatSession

MODE_LABELS: dict[str, str] = {
    "offline_demo": "Offline demo · sandbox planner and sandbox Swiggy",
    "claude_sandbox": "Claude · sandbox Swiggy",
    "claude_swiggy": "Claude · your Swiggy account",
}
KEY_MODEL = "conn_model"
KEY_SWIGGY_TOKEN_AT = "conn_swiggy_token_at"
KEY_SAVED_ADDRESS = "saved_address_id"
KEY_VISIT = "visit"
ADDRESS_PREFERENCE = "address"
SANDBOXES_KEPT = 4
APPS_KEPT = 8
_OFF = frozenset({"0", "false", "no", "off"})


def _stop_sandbox(sandbox: SandboxStart) -> None:
    sandbox.stop()


# One sandbox per (result form, database): a process serves one database, so this holds one
# or two; beyond a few (a test run opening a database per test) the oldest is stopped. It
# starts on its own thread (`start_background_work`): a page waits for it only if it must.
@st.cache_resource(show_spinner=False, max_entries=SANDBOXES_KEPT, on_release=_stop_sandbox)
def _sandbox(result_form: SandboxResultForm, database_url: str) -> SandboxStart:
    return SandboxStart(result_form, database_url)


@st.cache_resource(show_spinner=False)
def _store(database_url: str, is_default: bool) -> tuple[ChatStore, bool]:
    return open_chat_store(database_url, is_default=is_default)


@st.cache_resource(show_spinner=False)
def server_config() -> ServerConfigSet:
    """mcp_servers.toml (or $SWIGGY_MCP_CONFIG), read once per process; never raises."""
    return load_server_config()


@st.cache_resource(show_spinner=False)
def health_service() -> HealthService:
    """Started once per process: polls every watched server at most every 10 s."""
    return HealthService.start(poll=os.environ.get(HEALTH_POLL_ENV, "").strip().lower() not in _OFF)


@st.cache_resource(show_spinner=False)
def _apps() -> dict[tuple[Settings, str], ShopApp]:
    """The process's app objects, one per (settings, backend)."""
    return {}


@st.cache_resource(show_spinner=False)
def _settle_at_start(_app: ShopApp, key: str) -> None:
    """Confirmations a crash or deploy cut off: settled once per process and database."""
    _app.settle_at_start()


@dataclass
class Runtime:
    """This session's view of the app (no secret in its repr)."""

    settings: Settings
    identity: Identity
    credentials: Credentials
    app: ShopApp
    visit: Visit

    @property
    def visitor(self) -> Visitor:
        return self.visit.visitor

    @property
    def user_id(self) -> str:
        return self.visit.user_id

    @property
    def store(self) -> ChatStore:
        return self.app.store

    @property
    def model(self) -> str:
        return self.visitor.model

    @property
    def api_key(self) -> str | None:
        return self.credentials.api_key

    @property
    def base_url(self) -> str | None:
        return self.credentials.base_url

    @property
    def swiggy_token(self) -> str | None:
        return self.credentials.swiggy_token

    @property
    def mode(self) -> Mode:
        return self.app.mode(self.visitor)

    @property
    def mode_label(self) -> str:
        return MODE_LABELS[self.mode]

    def mcp_token(self) -> str | None:
        """The bearer token for this session's Swiggy world (sandbox or real)."""
        return self.app.mcp_token(self.visitor)

    def setup(self, vertical_id: str) -> TurnSetup:
        return self.visit.setup(vertical_id, state.active_address())

    def conversation_id(self, vertical_id: str) -> str | None:
        """The conversation this page shows: the newest stored one at first (or none)."""
        chat = state.vertical_chat(vertical_id)
        if chat.conversation_id is None:
            chat.conversation_id = self.app.chats.newest(self.user_id, vertical_id)
        return chat.conversation_id

    def session(self, vertical_id: str) -> ChatSession:
        """The core session of this page's conversation (the newest stored one at first)."""
        conversation_id = self.conversation_id(vertical_id)
        return self.visit.session(vertical_id, conversation_id, state.active_address())

    def sync_address(self) -> None:
        """Restore the remembered address, or remember a newly chosen one."""
        chosen = state.active_address()
        if chosen is None:
            stored = self.store.get_preference(self.user_id, ADDRESS_PREFERENCE)
            if stored:
                state.set_active_address(AddressItem.model_validate(stored))
            return
        saved_key = f"{KEY_SAVED_ADDRESS}::{self.credentials.backend}"
        if st.session_state.get(saved_key) != chosen.address_id:
            address = chosen.model_dump()
            self.store.set_preference(self.user_id, ADDRESS_PREFERENCE, address, best_effort=True)
            st.session_state[saved_key] = chosen.address_id


def secret_strings() -> dict[str, str]:
    """The deployment's secrets that a server's `secret:NAME` credential may name."""
    return {name: value for name, value in deployment_secrets().items() if isinstance(value, str)}


def load_runtime_settings() -> Settings:
    """Settings, or a clear stop naming the bad setting."""
    try:
        return load_settings(deployment_secrets(), os.environ)
    except SettingsError as error:
        coded_error(error.message, error.code, icon=":material/settings_alert:")
        st.stop()
        raise  # st.stop() raises; this keeps type checkers honest


def open_store(database_url: str) -> ChatStore:
    """The process-wide store, or a coded stop when the database cannot be opened.

    An unwritable default file is replaced by a temporary database, with a banner (E-4106).
    """
    try:
        store, temporary = _store(database_url, database_url == DEFAULT_DATABASE_URL)
    except StoreError as error:
        coded_error(error.message, error.code, icon=":material/database:")
        st.stop()
        raise  # st.stop() raises; this keeps type checkers honest
    if temporary:
        temporary_store_banner()
    return store


def database_in_use(database_url: str) -> str:
    """The URL `open_store` really opened: the temporary one in place of an unwritable default."""
    _opened, temporary = _store(database_url, database_url == DEFAULT_DATABASE_URL)
    return temporary_database_url() if temporary else database_url


def shop_app(settings: Settings, in_sandbox: bool) -> ShopApp:
    """The process's app for these settings and world (rebuilt if its store or sandbox went)."""
    store = open_store(settings.database_url)
    shop_url = database_in_use(settings.database_url)  # the sandbox shop lives beside the chats
    sandbox = _sandbox(settings.sandbox_result_form, shop_url) if in_sandbox else None
    key = (settings, "sandbox" if in_sandbox else "swiggy")
    apps = _apps()
    app = apps.get(key)
    parts = (store, sandbox, server_config(), health_service())
    if app is None or (app.store, app.sandbox, app.server_file, app.health) != parts:
        while len(apps) >= APPS_KEPT:
            apps.pop(next(iter(apps)))
        app = apps[key] = ShopApp(
            settings=settings,
            backend=key[1],  # type: ignore[arg-type]
            store=store,
            sandbox=sandbox,
            server_file=server_config(),
            health=health_service(),
        )
    return app


def start_background_work(runtime: Runtime) -> None:
    """Begin starting the sandbox, and settle cut-off confirmations once (per process and
    database) when it runs; neither holds up the page."""
    runtime.app.start_sandbox()
    _settle_at_start(runtime.app, f"{runtime.settings.database_url}|{runtime.app.in_sandbox}")


def wait_for_sandbox(runtime: Runtime) -> None:
    """Begin the background work if nobody has, then wait, with a note on the page, until
    the sandbox runs (at once when it does; a start that failed raises why)."""
    start_background_work(runtime)
    if not runtime.app.sandbox_ready:
        with st.spinner("Starting the sandbox…"):
            runtime.app.running_sandbox()


def _visit(app: ShopApp, visitor: Visitor) -> Visit:
    """This session's visit: kept between reruns, so its turn setups are built once."""
    key = f"{KEY_VISIT}::{visitor.backend}"
    kept: Visit | None = st.session_state.get(key)
    if kept is None or kept.app is not app or kept.visitor != visitor:
        kept = st.session_state[key] = app.visit(visitor)
    return kept


def get_runtime(*, wait: bool = True) -> Runtime:
    """This session's runtime; with `wait`, once the sandbox runs (the shop page while it
    starts, and Home, pass False: they draw at once, then begin the start themselves)."""
    settings = load_runtime_settings()
    identity = current_identity()
    if identity.kind == "browser":
        remember_browser()
    render_account(identity)
    signed_in = current_token(identity.user_id, "swiggy", settings)
    credentials = resolve_credentials(
        settings,
        identity,
        st.session_state.to_dict(),
        signed_in_token=signed_in.access_token if signed_in else None,
    )
    sandbox_signin = current_token(identity.user_id, "sandbox", settings)
    state.set_backend(credentials.backend)
    app = shop_app(settings, credentials.backend == "sandbox")
    visitor = Visitor(
        person_id=identity.user_id,
        backend=credentials.backend,
        model=st.session_state.get(KEY_MODEL) or settings.model,
        api_key=credentials.api_key,
        base_url=credentials.base_url,
        swiggy_token=credentials.swiggy_token,
        token_source=credentials.token_source,
        sandbox_signin=sandbox_signin.access_token if sandbox_signin else None,
        secrets=secret_strings(),
    )
    runtime = Runtime(
        settings=settings,
        identity=identity,
        credentials=credentials,
        app=app,
        visit=_visit(app, visitor),
    )
    # On a database fault the chosen address stays in this session; the chat shows the banner.
    with contextlib.suppress(StoreError):
        runtime.sync_address()
    if wait:
        wait_for_sandbox(runtime)
    return runtime


def swiggy_token_is_stale(now: datetime | None = None) -> bool:
    """True when the pasted Swiggy token is older than the staleness limit."""
    set_at: datetime | None = st.session_state.get(KEY_SWIGGY_TOKEN_AT)
    if set_at is None:
        return False
    now = now or datetime.now(UTC)
    return now - set_at > timedelta(days=SWIGGY_TOKEN_STALE_DAYS)
