"""What a page needs to run a turn: settings, the mode, a client, the store, the sandbox.

The sandbox and the store are process-wide (`st.cache_resource`): neither holds a
person's credential. Keys and tokens live only in this session's state.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

import anthropic
import streamlit as st

from swiggy_core.constants import SWIGGY_TOKEN_STALE_DAYS
from swiggy_core.engine import TurnSetup, choose_engine, make_client
from swiggy_core.errors import SettingsError
from swiggy_core.mcp.manager import shared_manager
from swiggy_core.parsers import AddressItem
from swiggy_core.session import ChatSession
from swiggy_core.settings import Settings, load_settings
from swiggy_core.store import ChatStore, StoreError
from swiggy_sandbox.runtime import SandboxServices
from swiggy_ui import state

Mode = Literal["offline_demo", "claude_sandbox", "claude_swiggy"]
MODE_LABELS: dict[str, str] = {
    "offline_demo": "Offline demo · sandbox planner and sandbox Swiggy",
    "claude_sandbox": "Claude · sandbox Swiggy",
    "claude_swiggy": "Claude · your Swiggy account",
}
# Session-state keys the Connections page writes.
KEY_API_KEY = "conn_api_key"
KEY_MODEL = "conn_model"
KEY_BASE_URL = "conn_base_url"
KEY_SWIGGY_TOKEN = "conn_swiggy_token"
KEY_SWIGGY_TOKEN_AT = "conn_swiggy_token_at"
KEY_USE_SANDBOX = "conn_use_sandbox"
KEY_SAVED_ADDRESS = "saved_address_id"
ADDRESS_PREFERENCE = "address"
OFFLINE_KEY = "sk-offline-demo"  # the emulator wants some key; it is not a secret


@st.cache_resource(show_spinner="Starting the sandbox…")
def _sandbox() -> SandboxServices:
    return SandboxServices.start()


@st.cache_resource(show_spinner=False)
def _store(database_url: str) -> ChatStore:
    return ChatStore(database_url)


@dataclass
class Runtime:
    """The resolved configuration of this session."""

    settings: Settings
    user_id: str
    store: ChatStore
    sandbox: SandboxServices | None
    api_key: str | None
    base_url: str | None
    model: str
    swiggy_token: str | None

    @property
    def mode(self) -> Mode:
        if not self.api_key:
            return "offline_demo"
        return "claude_sandbox" if self.sandbox is not None else "claude_swiggy"

    @property
    def mode_label(self) -> str:
        return MODE_LABELS[self.mode]

    def client(self) -> anthropic.Anthropic:
        if self.mode == "offline_demo":
            assert self.sandbox is not None
            return make_client(OFFLINE_KEY, self.sandbox.emulator_url)
        assert self.api_key is not None
        return make_client(self.api_key, self.base_url)

    def setup(self, vertical_id: str) -> TurnSetup:
        """The request setup; the app runs the MCP tools itself when the model can't reach them."""
        server_urls = self.sandbox.server_urls if self.sandbox is not None else None
        token = self.sandbox.token_for(self.user_id) if self.sandbox else self.swiggy_token
        model_url = (
            self.sandbox.emulator_url if self.sandbox and not self.api_key else self.base_url
        )
        engine = choose_engine(self.settings.engine, base_url=model_url, server_urls=server_urls)
        return TurnSetup(
            vertical_id=vertical_id,
            model=self.model,
            swiggy_token=token,
            server_urls=server_urls,
            address=state.active_address(),
            engine=engine,
        )

    def sync_address(self) -> None:
        """Restore the remembered address, or remember a newly chosen one."""
        chosen = state.active_address()
        if chosen is None:
            stored = self.store.get_preference(self.user_id, ADDRESS_PREFERENCE)
            if stored:
                state.set_active_address(AddressItem.model_validate(stored))
            return
        if st.session_state.get(KEY_SAVED_ADDRESS) != chosen.address_id:
            self.store.set_preference(self.user_id, ADDRESS_PREFERENCE, chosen.model_dump())
            st.session_state[KEY_SAVED_ADDRESS] = chosen.address_id

    def session(self, vertical_id: str) -> ChatSession:
        """The core session of this page's conversation (the newest stored one at first)."""
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
        )


def _secrets() -> dict[str, Any]:
    try:
        return dict(st.secrets)
    except Exception:  # no secrets.toml at all is normal: Streamlit raises on access
        return {}


def load_runtime_settings() -> Settings:
    """Settings, or a clear stop naming the bad setting."""
    try:
        return load_settings(_secrets(), os.environ)
    except SettingsError as error:
        st.error(str(error), icon=":material/settings_alert:")
        st.stop()
        raise  # st.stop() raises; this keeps type checkers honest


def user_id() -> str:
    """A stable id for this person's chats, kept in the URL so a reload finds them."""
    current = st.query_params.get("u")
    if not current or len(current) > 64:
        current = uuid.uuid4().hex
        st.query_params["u"] = current
    return current


def open_store(database_url: str) -> ChatStore:
    """The process-wide store, or a coded stop when the database cannot be opened."""
    try:
        return _store(database_url)
    except StoreError as error:
        st.error(f"**{error.code}** · {error.message}", icon=":material/database:")
        st.stop()
        raise  # st.stop() raises; this keeps type checkers honest


def get_runtime() -> Runtime:
    settings = load_runtime_settings()
    api_key = st.session_state.get(KEY_API_KEY) or (
        settings.anthropic_api_key.get_secret_value() if settings.anthropic_api_key else None
    )
    swiggy_token = st.session_state.get(KEY_SWIGGY_TOKEN) or (
        settings.swiggy_token.get_secret_value() if settings.swiggy_token else None
    )
    use_sandbox = st.session_state.get(KEY_USE_SANDBOX, settings.sandbox)
    if not api_key:
        use_sandbox = True  # the offline planner only knows the sandbox's shops
    runtime = Runtime(
        settings=settings,
        user_id=user_id(),
        store=open_store(settings.database_url),
        sandbox=_sandbox() if use_sandbox else None,
        api_key=api_key,
        base_url=st.session_state.get(KEY_BASE_URL) or settings.anthropic_base_url,
        model=st.session_state.get(KEY_MODEL) or settings.model,
        swiggy_token=swiggy_token,
    )
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
