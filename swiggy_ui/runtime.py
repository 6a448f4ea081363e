"""What a page needs to run a turn: settings, the mode, a client, the store, the sandbox.

The sandbox and the store are process-wide (`st.cache_resource`): neither holds a
person's credential. Keys and tokens live only in this session's state.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal

import streamlit as st

from swiggy_core.constants import DEFAULT_DATABASE_URL, SWIGGY_TOKEN_STALE_DAYS
from swiggy_core.errors import SettingsError
from swiggy_core.parsers import AddressItem
from swiggy_core.settings import SandboxResultForm, Settings, load_settings
from swiggy_core.store import ChatStore, StoreError
from swiggy_core.store.fallback import open_chat_store, temporary_database_url
from swiggy_ui import state
from swiggy_ui.account import render_account
from swiggy_ui.banners import coded_error, temporary_store_banner
from swiggy_ui.credentials import Credentials, resolve_credentials
from swiggy_ui.identity import Identity, current_identity, remember_browser
from swiggy_ui.signin_state import current_token
from swiggy_ui.startup_settle import settle_at_start

if TYPE_CHECKING:  # the SDKs (anthropic, mcp) load on the first turn, not the first page
    import anthropic

    from swiggy_core.engine import TurnSetup
    from swiggy_core.session import ChatSession
    from swiggy_sandbox.runtime import SandboxServices

Mode = Literal["offline_demo", "claude_sandbox", "claude_swiggy"]
MODE_LABELS: dict[str, str] = {
    "offline_demo": "Offline demo · sandbox planner and sandbox Swiggy",
    "claude_sandbox": "Claude · sandbox Swiggy",
    "claude_swiggy": "Claude · your Swiggy account",
}
KEY_MODEL = "conn_model"
KEY_SWIGGY_TOKEN_AT = "conn_swiggy_token_at"
KEY_SAVED_ADDRESS = "saved_address_id"
ADDRESS_PREFERENCE = "address"
OFFLINE_KEY = "sk-offline-demo"  # the emulator wants some key; it is not a secret
SANDBOXES_KEPT = 4


def _stop_sandbox(sandbox: SandboxServices) -> None:
    sandbox.stop()


# One sandbox per (result form, database): a process serves one database, so this holds one
# or two; beyond a few (a test run opening a database per test) the oldest is stopped.
@st.cache_resource(
    show_spinner="Starting the sandbox…", max_entries=SANDBOXES_KEPT, on_release=_stop_sandbox
)
def _sandbox(result_form: SandboxResultForm, database_url: str) -> SandboxServices:
    """The sandbox, its shop in the app's database: every replica serves the same carts."""
    import logging

    from sqlalchemy.exc import SQLAlchemyError

    from swiggy_sandbox.runtime import SandboxServices

    try:
        return SandboxServices.start(result_form=result_form, db_url=database_url)
    except SQLAlchemyError:
        # E.g. a database role that may not create tables: the demo still works, with a
        # shop of this process only, rather than not at all.
        logging.getLogger(__name__).warning(
            "The sandbox shop could not open the app's database; it keeps its carts and "
            "orders in this process only.",
            exc_info=True,
        )
        return SandboxServices.start(result_form=result_form)


@st.cache_resource(show_spinner=False)
def _store(database_url: str, is_default: bool) -> tuple[ChatStore, bool]:
    return open_chat_store(database_url, is_default=is_default)


@dataclass
class Runtime:
    """The resolved configuration of this session (no secret in its repr)."""

    settings: Settings
    identity: Identity
    # Chats, addresses, approvals and audit are keyed by this: the person *and* the
    # backend, so sandbox and real Swiggy never share a chat, an address id or a cart.
    user_id: str
    store: ChatStore
    sandbox: SandboxServices | None
    credentials: Credentials
    model: str
    # This person's "Sign in with Swiggy (sandbox)" token, if they signed in to the sandbox.
    sandbox_signin: str | None = field(default=None, repr=False)

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
        if not self.api_key:
            return "offline_demo"
        return "claude_sandbox" if self.sandbox is not None else "claude_swiggy"

    @property
    def mode_label(self) -> str:
        return MODE_LABELS[self.mode]

    def client(self) -> anthropic.Anthropic:
        from swiggy_core.engine import make_client

        if self.mode == "offline_demo":
            assert self.sandbox is not None
            return make_client(OFFLINE_KEY, self.sandbox.emulator_url)
        assert self.api_key is not None
        return make_client(self.api_key, self.base_url)

    def mcp_token(self) -> str | None:
        """The bearer token for this session's Swiggy world (sandbox or real)."""
        if self.sandbox is None:
            return self.swiggy_token
        return self.sandbox_signin or self.sandbox.token_for(self.user_id)

    def setup(self, vertical_id: str) -> TurnSetup:
        """The request setup; the app runs the MCP tools itself when the model can't reach them."""
        from swiggy_core.engine import TurnSetup, choose_engine
        from swiggy_ui import server_setup

        server_urls = self.sandbox.server_urls if self.sandbox is not None else None
        token = self.mcp_token()
        model_url = (
            self.sandbox.emulator_url if self.sandbox and not self.api_key else self.base_url
        )
        form = self.sandbox.result_form if self.sandbox else self.settings.result_form
        engine = choose_engine(
            self.settings.engine, base_url=model_url, server_urls=server_urls, result_form=form
        )
        # The page's extra servers (file and the person's own), with this person's credentials.
        servers = server_setup.servers_in_use(self)
        server_setup.watch_servers(self, servers)
        extra = server_setup.extra_servers(
            servers, vertical_id, swiggy_token=token, secrets=secret_strings()
        )
        return TurnSetup(
            vertical_id=vertical_id,
            model=self.model,
            swiggy_token=token,
            server_urls=server_urls,
            address=state.active_address(),
            engine=engine,
            hooks=server_setup.turn_hooks(self.store, servers),
            extra_servers=extra,
        )

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
            self.store.set_preference(self.user_id, ADDRESS_PREFERENCE, chosen.model_dump())
            st.session_state[saved_key] = chosen.address_id

    def session(self, vertical_id: str) -> ChatSession:
        """The core session of this page's conversation (the newest stored one at first)."""
        from swiggy_core.mcp.manager import shared_manager
        from swiggy_core.session import ChatSession

        chat = state.vertical_chat(vertical_id)
        if chat.conversation_id is None:
            stored = self.store.list_conversations(self.user_id, vertical_id)
            chat.conversation_id = stored[0].id if stored else None
        return ChatSession(
            store=self.store,
            user_id=self.user_id,
            vertical_id=vertical_id,
            client=self.client,
            setup=self.setup(vertical_id),
            manager=shared_manager(),
            conversation_id=chat.conversation_id,
            moment=self.sandbox.clock if self.sandbox is not None else None,
        )


def _secrets() -> dict[str, Any]:
    try:
        return dict(st.secrets)
    except Exception:  # no secrets.toml at all is normal: Streamlit raises on access
        return {}


def secret_strings() -> dict[str, str]:
    """The deployment's secrets that a server's `secret:NAME` credential may name."""
    return {name: value for name, value in _secrets().items() if isinstance(value, str)}


def load_runtime_settings() -> Settings:
    """Settings, or a clear stop naming the bad setting."""
    try:
        return load_settings(_secrets(), os.environ)
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


def get_runtime() -> Runtime:
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
    in_sandbox = credentials.backend == "sandbox"
    store = open_store(settings.database_url)
    shop_url = database_in_use(settings.database_url)  # the sandbox shop lives beside the chats
    sandbox = _sandbox(settings.sandbox_result_form, shop_url) if in_sandbox else None
    runtime = Runtime(
        settings=settings,
        identity=identity,
        user_id=f"{identity.user_id}@{credentials.backend}",
        store=store,
        sandbox=sandbox,
        credentials=credentials,
        model=st.session_state.get(KEY_MODEL) or settings.model,
        sandbox_signin=sandbox_signin.access_token if sandbox_signin else None,
    )
    # Confirmations a crash or deploy cut off are settled once per process (by reading orders).
    settle_at_start(runtime.store, runtime.sandbox, f"{settings.database_url}|{in_sandbox}")
    # On a database fault the chosen address stays in this session; the chat shows the banner.
    with contextlib.suppress(StoreError):
        runtime.sync_address()
    return runtime


def swiggy_token_is_stale(now: datetime | None = None) -> bool:
    """True when the pasted Swiggy token is older than the staleness limit."""
    set_at: datetime | None = st.session_state.get(KEY_SWIGGY_TOKEN_AT)
    if set_at is None:
        return False
    now = now or datetime.now(UTC)
    return now - set_at > timedelta(days=SWIGGY_TOKEN_STALE_DAYS)
