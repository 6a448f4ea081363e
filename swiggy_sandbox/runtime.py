"""The whole sandbox in one object: MCP servers, the Messages emulator and its planner.

The Streamlit app starts one per process; `python -m swiggy_sandbox serve` starts one and
prints its URLs. Each person gets their own sandbox token, so carts stay apart. Tokens are
per process, but the shop is keyed by the app's user id: given one database, every
process serves the same carts, orders and bookings to the same person.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime
from typing import Any

from swiggy_core.constants import MCP_SERVERS
from swiggy_sandbox.auth_server import AuthSettings
from swiggy_sandbox.emulator import EmulatorServer
from swiggy_sandbox.lifecycle import StopsOnExit
from swiggy_sandbox.servers import SandboxHttpServer, TokenStore
from swiggy_sandbox.servers.stdio import clock_from_env
from swiggy_sandbox.servers.summary import ResultForm, resolve_result_form
from swiggy_sandbox.shop import IN_MEMORY_URL


class SandboxServices(StopsOnExit):
    """Sandbox Swiggy + emulator with the offline planner, both on loopback."""

    def __init__(self, mcp: SandboxHttpServer, emulator: EmulatorServer[Any]) -> None:
        self.mcp = mcp
        self.emulator = emulator
        self._tokens: dict[str, str] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        # Never the tokens: only where the services listen.
        return f"SandboxServices(mcp={self.mcp.base_url!r}, emulator={self.emulator_url!r})"

    @classmethod
    def start(
        cls,
        *,
        mcp_port: int = 0,
        emulator_port: int = 0,
        brain: Any = None,
        result_form: ResultForm | None = None,
        auth_auto_approve: bool | None = None,
        db_url: str = IN_MEMORY_URL,
        **shop: Any,
    ) -> SandboxServices:
        """Start both servers (free ports unless given); `brain` defaults to the planner.

        `result_form`: "envelope" or "summary" (default: $SWIGGY_SANDBOX_RESULT_FORM, else
        envelope).
        `auth_auto_approve`: the sign-in page approves at once (default:
        $SWIGGY_SANDBOX_AUTH_AUTO_APPROVE, else off).
        `db_url`: where the shop lives: an SQLite file or PostgreSQL URL that every process
        serving the same people shares (default: in memory, this process only).
        """
        if brain is None:
            from swiggy_sandbox.planner import PlannerBrain  # heavy: catalog, parsers

            brain = PlannerBrain()
        # $SWIGGY_SANDBOX_NOW freezes the shop's clock (demos and tests at any hour).
        shop.setdefault("clock", clock_from_env())
        form = resolve_result_form(result_form)
        shop.setdefault("auth", AuthSettings.from_env(auth_auto_approve))
        mcp = SandboxHttpServer(
            port=mcp_port, store=TokenStore(), result_form=form, db_url=db_url, **shop
        )
        mcp.start()
        try:
            emulator = EmulatorServer(brain, port=emulator_port).start()
        except Exception:
            mcp.stop()
            raise
        return cls(mcp, emulator)

    @property
    def result_form(self) -> ResultForm:
        """How the MCP servers answer: the envelope as text, or a summary + structuredContent."""
        form: ResultForm = self.mcp.app.state.result_form
        return form

    @property
    def auth_base_url(self) -> str:
        """The sandbox authorization server's issuer (`{base}/auth`, Swiggy's layout)."""
        return str(self.mcp.app.state.auth.issuer)

    @property
    def clock(self) -> Callable[[], datetime]:
        """The shop's clock ($SWIGGY_SANDBOX_NOW may freeze it): the model is told this time,
        so "tomorrow" is the same day to whoever asks and to the shop that answers."""
        clock: Callable[[], datetime] = self.mcp.app.state.shop.clock
        return clock

    @property
    def emulator_url(self) -> str:
        return self.emulator.base_url

    @property
    def server_urls(self) -> dict[str, str]:
        """Server key → the sandbox's URL for it (replaces the real Swiggy URLs)."""
        return {key: self.mcp.url_for(key) for key in MCP_SERVERS}

    def token_for(self, user_id: str) -> str:
        """This user's sandbox bearer token (issued once per process)."""
        with self._lock:
            if user_id not in self._tokens:
                self._tokens[user_id] = self.mcp.store.issue(user_id)
            return self._tokens[user_id]

    def stop(self) -> None:
        self.emulator.stop()
        self.mcp.stop()
