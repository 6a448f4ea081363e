"""`ShopApp`: the store, the sandbox, the servers and their health, for one world.

One object per settings and backend (the UI keeps it for the process). A `Visit` is one
person's use of it in one browser session: it builds their turn setup once per shop and
address (not on every rerun) and hands out the chat session a page drives.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from swiggy_app.chats import ChatsService
from swiggy_app.sandbox import SandboxStart
from swiggy_app.servers import (
    PROBE_USER,
    HealthService,
    HealthTarget,
    extra_servers,
    in_use,
    pollable,
    refresh,
    targets,
    turn_hooks,
)
from swiggy_app.settle import settle_stranded
from swiggy_app.visitor import Backend, Visitor
from swiggy_core.constants import MCP_SERVERS
from swiggy_core.diet import DietProfile, diet_note_for_model
from swiggy_core.diet_store import load_diet, save_diet
from swiggy_core.mcp.config import ServerConfig, ServerConfigSet
from swiggy_core.mcp.health import ServerStatus
from swiggy_core.mcp.user_servers import (
    remove_user_server,
    save_user_server,
    set_user_server_enabled,
    user_servers,
)
from swiggy_core.parsers import AddressItem
from swiggy_core.settings import Settings
from swiggy_core.store import ChatStore

if TYPE_CHECKING:  # the SDKs (anthropic, mcp) load on the first turn, not the first page
    import anthropic

    from swiggy_core.engine import TurnSetup
    from swiggy_core.turn.session import ChatSession
    from swiggy_sandbox.runtime import SandboxServices

Mode = Literal["offline_demo", "claude_sandbox", "claude_swiggy"]
OFFLINE_KEY = "sk-offline-demo"  # the emulator wants some key; it is not a secret
# Swiggy's own endpoints, for the real world's sign-in and address book.
REAL_SERVER_URLS: Mapping[str, str] = {key: spec.url for key, spec in MCP_SERVERS.items()}


@dataclass(eq=False)
class ShopApp:
    """Everything a page needs that is not a widget, for one world (sandbox or Swiggy)."""

    settings: Settings
    backend: Backend
    store: ChatStore
    sandbox: SandboxStart | None  # may still be starting: what needs it waits (`services`)
    server_file: ServerConfigSet  # mcp_servers.toml (or the defaults), read once
    health: HealthService
    chats: ChatsService = field(init=False)

    def __post_init__(self) -> None:
        self.chats = ChatsService(self.store)

    # -- the world ---------------------------------------------------------------------
    @property
    def in_sandbox(self) -> bool:
        return self.sandbox is not None

    @property
    def sandbox_ready(self) -> bool:
        """False while the sandbox is still starting (asking for it would wait)."""
        return self.sandbox is None or self.sandbox.ready

    @property
    def sandbox_starting(self) -> bool:
        """True until the sandbox runs, unless its start failed (asking for it raises why)."""
        return self.sandbox is not None and not self.sandbox.ready and not self.sandbox.failed

    def running_sandbox(self) -> SandboxServices | None:
        """The sandbox's services, waited for if it is still starting (None: real Swiggy)."""
        return self.sandbox.services() if self.sandbox is not None else None

    @property
    def server_urls(self) -> dict[str, str]:
        """Swiggy's three servers in this world (the sandbox's, or Swiggy's own)."""
        sandbox = self.running_sandbox()
        return sandbox.server_urls if sandbox is not None else dict(REAL_SERVER_URLS)

    @property
    def image_origin(self) -> str | None:
        """Where relative image paths in results resolve (the sandbox serves its own)."""
        sandbox = self.running_sandbox()
        return sandbox.mcp.base_url if sandbox is not None else None

    def mode(self, visitor: Visitor) -> Mode:
        if not visitor.api_key:
            return "offline_demo"
        return "claude_sandbox" if self.in_sandbox else "claude_swiggy"

    def client(self, visitor: Visitor) -> anthropic.Anthropic:
        """The model client: the emulator in the offline demo, else the visitor's endpoint."""
        from swiggy_core.engine import make_client

        if not visitor.api_key:
            return self.offline_client()
        return make_client(visitor.api_key, visitor.base_url)

    def offline_client(self) -> anthropic.Anthropic:
        """The sandbox's emulator: the offline demo's model (no key, always in the sandbox)."""
        from swiggy_core.engine import make_client

        sandbox = self.running_sandbox()
        assert sandbox is not None
        return make_client(OFFLINE_KEY, sandbox.emulator_url)

    def mcp_token(self, visitor: Visitor) -> str | None:
        """The bearer token for this visitor's Swiggy world (sandbox or real)."""
        if self.sandbox is None:
            return visitor.swiggy_token
        return visitor.sandbox_signin or self.sandbox.services().token_for(visitor.user_id)

    def process_token(self, visitor: Visitor) -> str | None:
        """A Swiggy token that belongs to no visitor: the sandbox's own, or the owner's."""
        sandbox = self.running_sandbox()
        if sandbox is not None:
            return sandbox.token_for(PROBE_USER)
        return visitor.swiggy_token if visitor.token_source == "owner" else None

    def start_sandbox(self) -> None:
        """Begin starting the sandbox on its own thread, if nobody has (the page does not
        wait: the UI begins it once the first page is drawn, so it does not slow that down)."""
        if self.sandbox is not None:
            self.sandbox.begin()

    def settle_at_start(self) -> None:
        """Start a pass over cut-off confirmations on its own thread, once the sandbox runs
        (the page does not wait; the UI starts one per process and database)."""
        threading.Thread(target=self._settle_at_start, name="settle-at-start", daemon=True).start()

    def _settle_at_start(self) -> None:
        settle_stranded(self.store, self.running_sandbox(), self.offline_client)

    def visit(self, visitor: Visitor) -> Visit:
        return Visit(self, visitor)


@dataclass(eq=False)
class Visit:
    """One person's use of the app in one browser session (kept between reruns)."""

    app: ShopApp
    visitor: Visitor
    _own: dict[str, ServerConfig] | None = field(default=None, init=False, repr=False)
    _setups: dict[tuple[str, str | None], TurnSetup] = field(
        default_factory=dict, init=False, repr=False
    )
    _diet: DietProfile | None = field(default=None, init=False, repr=False)

    @property
    def user_id(self) -> str:
        return self.visitor.user_id

    def servers(self) -> dict[str, ServerConfig]:
        """Every MCP server of this person in this world (raises StoreError on a DB fault)."""
        if self._own is None:  # read once per visit; `forget_own_servers` after a change
            self._own = user_servers(self.app.store, self.user_id)
        return in_use(self.app.server_file, self.app.running_sandbox(), self._own)

    def forget_own_servers(self) -> None:
        """Read the person's own servers again (one was added or changed elsewhere)."""
        self._own = None
        self._setups.clear()

    def save_own_server(self, config: ServerConfig) -> None:
        """Add (or replace) one of the person's own servers; the next turn offers it."""
        self._changing_own(lambda: save_user_server(self.app.store, self.user_id, config))

    def set_own_server_enabled(self, key: str, enabled: bool) -> None:
        self._changing_own(
            lambda: set_user_server_enabled(self.app.store, self.user_id, key, enabled)
        )

    def remove_own_server(self, key: str) -> None:
        self._changing_own(lambda: remove_user_server(self.app.store, self.user_id, key))

    def _changing_own(self, change: Callable[[], None]) -> None:
        # Read again whatever happened: a failed write may still have changed the store.
        try:
            change()
        finally:
            self.forget_own_servers()

    def diet(self) -> DietProfile:
        """This person's standing diet (read once per visit; raises StoreError on a DB fault)."""
        if self._diet is None:
            self._diet = load_diet(self.app.store, self.user_id)
        return self._diet

    def save_diet(self, profile: DietProfile) -> None:
        """Keep a new profile; the next turn of every shop carries it."""
        try:
            save_diet(self.app.store, self.user_id, profile)
        finally:  # read again whatever happened: a failed write may still have landed
            self._diet = None
            self._setups.clear()

    def health_targets(self, servers: Mapping[str, ServerConfig]) -> dict[str, HealthTarget]:
        """Server key → its health target, probed with this person's credentials."""
        return self._targets(servers, self.app.mcp_token(self.visitor))

    def watch(self, servers: Mapping[str, ServerConfig]) -> None:
        """Have the process's poller watch the app's servers, with process-level credentials.

        A person's own servers are probed only when they press Refresh: the poller outlives
        their visit and would otherwise keep reaching out (or starting commands) for them.
        So is a server that needs a credential the process does not hold (Swiggy, visitors).
        """
        found = self._targets(servers, self.app.process_token(self.visitor)).values()
        self.app.health.watched.watch(t for t in found if pollable(t.server))

    def refresh(self, to_probe: list[HealthTarget]) -> dict[str, ServerStatus]:
        return refresh(to_probe)

    def setup(self, vertical_id: str, address: AddressItem | None) -> TurnSetup:
        """The request setup for this shop, built once per address (and own-server change)."""
        key = (vertical_id, address.model_dump_json() if address is not None else None)
        built = self._setups.get(key)
        if built is None:
            built = self._setups[key] = self._build_setup(vertical_id, address)
        return built

    def session(
        self, vertical_id: str, conversation_id: str | None, address: AddressItem | None
    ) -> ChatSession:
        """The core session of one conversation (the newest stored one when `None`)."""
        from swiggy_core.mcp.manager import shared_manager
        from swiggy_core.turn.session import ChatSession

        if conversation_id is None:
            conversation_id = self.app.chats.newest(self.user_id, vertical_id)
        sandbox = self.app.running_sandbox()
        moment: Callable[[], datetime] | None = sandbox.clock if sandbox is not None else None
        return ChatSession(
            store=self.app.store,
            user_id=self.user_id,
            vertical_id=vertical_id,
            client=lambda: self.app.client(self.visitor),
            setup=self.setup(vertical_id, address),
            manager=shared_manager(),
            conversation_id=conversation_id,
            moment=moment,
        )

    def _build_setup(self, vertical_id: str, address: AddressItem | None) -> TurnSetup:
        from swiggy_core.engine import TurnSetup, choose_engine

        app, visitor = self.app, self.visitor
        sandbox = app.running_sandbox()
        token = app.mcp_token(visitor)
        model_url = sandbox.emulator_url if sandbox and not visitor.api_key else visitor.base_url
        form = sandbox.result_form if sandbox else app.settings.result_form
        server_urls = sandbox.server_urls if sandbox is not None else None
        engine = choose_engine(
            app.settings.engine, base_url=model_url, server_urls=server_urls, result_form=form
        )
        # The page's extra servers (file and the person's own), with this person's credentials.
        servers = self.servers()
        self.watch(servers)
        extra = extra_servers(servers, vertical_id, swiggy_token=token, secrets=visitor.secrets)
        return TurnSetup(
            vertical_id=vertical_id,
            model=visitor.model,
            swiggy_token=token,
            server_urls=server_urls,
            address=address,
            engine=engine.name,
            hooks=turn_hooks(app.store, servers),
            extra_servers=extra,
            diet_note=diet_note_for_model(self.diet()),
        )

    def _targets(
        self, servers: Mapping[str, ServerConfig], token: str | None
    ) -> dict[str, HealthTarget]:
        return targets(
            servers,
            world=self.app.backend,
            user_id=self.user_id,
            token=token,
            secrets=self.visitor.secrets,
        )
