"""The local engine's tools: the page's Swiggy server, the extra servers, and the hooks.

The model gets the Swiggy server's tools under their own names and each extra server's
under `<key>__<tool>` (so two servers can both have a `search`); a call is routed back to
its server by that name. An extra server that is down is left out of the listing (its
error goes to the audit) and the turn goes on. Every call passes the pre hooks (a refusal
reaches the model as the tool's error) and the post hooks (audit, what the model reads).
A spending tool never runs here, on any server: the approval gate decides. On a server a
person added themselves, only tools annotated `readOnlyHint: true` (and not named like a
spender) run freely; every other one is offered only through the approval tool, so it runs
once, after the person confirmed that exact call.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from swiggy_core.constants import APPROVAL_TOOL_NAME
from swiggy_core.engine.errors import ToolError, classify_mcp_tool_error
from swiggy_core.errors import ErrorCode
from swiggy_core.hooks import (
    CallScope,
    Denial,
    ToolExchange,
    ToolHooks,
    denied_outcome,
    outcome_of,
    refusal_text,
)
from swiggy_core.mcp.client import McpCallError, for_model, read_only
from swiggy_core.mcp.config import ResolvedServer
from swiggy_core.mcp.manager import McpManager, ToolOutput
from swiggy_core.models import ToolUseBlock
from swiggy_core.tool_errors import category_of
from swiggy_core.verticals.policy import ToolPolicy

logger = logging.getLogger(__name__)

HELD_MESSAGE = (
    "{tool} is not available to you: it spends money. Call "
    + APPROVAL_TOOL_NAME
    + " with the exact arguments; the person decides."
)
NEEDS_YOUR_CONFIRMATION = "This needs your confirmation first, so it was not run."
GATED_MESSAGE = (
    "{tool} may change something on the person's own server, so it runs only after they "
    "confirm. Call " + APPROVAL_TOOL_NAME + " with this tool and the exact arguments."
)
# What the API accepts as a tool name.
TOOL_NAME_LIMIT: Final = 64
PREFIX_SEPARATOR: Final = "__"
LISTING_TOOL: Final = "tools/list"  # how a failed listing of an extra server is audited
_NAME_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def prefixed_name(server_key: str, tool: str) -> str:
    """`<key>__<tool>` as the API accepts tool names: [A-Za-z0-9_-], at most 64 characters."""
    return _NAME_UNSAFE.sub("_", f"{server_key}{PREFIX_SEPARATOR}{tool}")[:TOOL_NAME_LIMIT]


def needs_confirmation(server: ResolvedServer, tool: dict[str, Any], policy: ToolPolicy) -> bool:
    """A person's own server's tool runs freely only when annotated read-only and not named
    like a spender (the name pattern stays as a second guard)."""
    if server.config.origin != "user":
        return False
    return not read_only(tool) or policy.is_money_spending(str(tool.get("name", "")))


class ExtraTool(NamedTuple):
    """Where a prefixed tool name leads: the extra server and the server's own name."""

    server: ResolvedServer
    name: str


class CallResult(NamedTuple):
    """A call's full result (stored, for the cards), what the model reads, its error."""

    output: ToolOutput
    for_model: ToolOutput
    error: ToolError | None
    denied: bool = False


@dataclass
class LocalTools:
    """Where and how one turn's tools run; `scope` grows with each call of the turn."""

    manager: McpManager
    url: str
    token: str | None = field(repr=False)
    server_key: str
    server_name: str
    policy: ToolPolicy
    hooks: ToolHooks
    scope: CallScope
    extra_servers: tuple[ResolvedServer, ...] = ()
    extra: dict[str, ExtraTool] = field(default_factory=dict)
    # Tools of people's own servers that run only once confirmed: prefixed name → listing.
    gated: dict[str, dict[str, Any]] = field(default_factory=dict)

    def held(self, name: str) -> bool:
        """Spending tools, and people's tools that may change something, never run here
        whatever the model asks (the approval gate)."""
        if name in self.gated:
            return True
        routed = self.extra.get(name)
        original = routed.name if routed is not None else name
        return self.policy.is_money_spending(name) or self.policy.is_money_spending(original)

    def confirmable(self) -> list[dict[str, Any]]:
        """The gated tools as the approval tool lists them (found by `listing`)."""
        return list(self.gated.values())

    def server_of(self, name: str) -> str:
        """The stored server name of a tool: the Swiggy server's, or the extra server's key."""
        routed = self.extra.get(name)
        return routed.server.config.key if routed is not None else self.server_name

    def listing(self) -> list[dict[str, Any]]:
        """The Swiggy server's tools (raises McpCallError) and every reachable extra's tools."""
        user = self.scope.user_id
        listed = self.manager.list_tools(self.url, self.token, user=user) if self.token else []
        tools = [for_model(tool) for tool in listed]
        taken = {tool["name"] for tool in tools}
        for server in self.extra_servers:
            for tool in self._extra_listing(server):
                name = prefixed_name(server.config.key, tool["name"])
                if name in taken:
                    continue  # two names that read the same once made safe: the first wins
                taken.add(name)
                self.extra[name] = ExtraTool(server, tool["name"])
                offered = {**for_model(tool), "name": name}
                if needs_confirmation(server, tool, self.policy):
                    self.gated[name] = offered  # only through the approval tool
                elif not self.held(name):  # a spender is routed (and held), never offered
                    tools.append(offered)
        return tools

    def run(self, use: ToolUseBlock) -> CallResult:
        """One call through the hooks: refused, held, or run on its server."""
        routed = self.extra.get(use.name)
        server = routed.server.config.key if routed is not None else self.server_key
        info = self.scope.info(server, routed.name if routed else use.name, use.input)
        # The checks come first, so a spender with made-up arguments hears what is wrong.
        denial = self.hooks.before(info)
        if denial is None and use.name in self.gated:
            denial = Denial(GATED_MESSAGE.format(tool=use.name), shown=NEEDS_YOUR_CONFIRMATION)
        elif denial is None and self.held(use.name):
            denial = Denial(HELD_MESSAGE.format(tool=use.name), shown=NEEDS_YOUR_CONFIRMATION)
        if denial is not None:
            outcome = denied_outcome(info, denial)
            return CallResult(outcome.output, self.hooks.after(outcome), None, denied=True)
        started = time.perf_counter()
        tool_error: ToolError | None = None
        try:
            output = self._call(use.name, routed, use.input)
        except McpCallError as error:
            # The model sees what went wrong and may try again; the error budget bounds that.
            # Its card shows the message; the model also reads the code (and any wait).
            output = ToolOutput(refusal_text(error.message, str(error)), True)
            tool_error = ToolError(category_of(error.code), error.code, error.message, str(error))
            outcome = outcome_of(info, output, started, str(error.code))
        else:
            tool_error = classify_mcp_tool_error(output.text) if output.is_error else None
            outcome = outcome_of(info, output, started)
        self.scope = self.scope.with_exchange(_exchange(info.tool, use.input, output))
        return CallResult(output, self.hooks.after(outcome), tool_error)

    def _call(
        self, name: str, routed: ExtraTool | None, arguments: Mapping[str, Any]
    ) -> ToolOutput:
        if routed is None:
            return self.manager.call_tool(
                self.url, self.token, name, arguments, user=self.scope.user_id
            )
        server = routed.server
        return self.manager.call_tool(
            server, server.token, routed.name, arguments, user=self.scope.user_id
        )

    def _extra_listing(self, server: ResolvedServer) -> Sequence[dict[str, Any]]:
        """The extra server's tools; a server that is down is left out (and audited)."""
        started = time.perf_counter()
        try:
            return self.manager.list_tools(server, user=self.scope.user_id)
        except Exception as error:  # any failure of an extra server must not end the turn
            code = getattr(error, "code", ErrorCode.SERVER_UNREACHABLE)
            message = getattr(error, "message", type(error).__name__)
            logger.warning("extra MCP server %r left out: %s", server.config.key, code)
            info = self.scope.info(server.config.key, LISTING_TOOL, {})
            self.hooks.after(outcome_of(info, ToolOutput(str(message), True), started, str(code)))
            return []


def _exchange(tool: str, arguments: Mapping[str, Any], output: ToolOutput) -> ToolExchange:
    return ToolExchange(tool, dict(arguments), tuple(output.texts()), output.is_error)
