"""The calls the app runs itself around an approval: reads of the shop's server, the
confirmed spending call, a person's own server's tool; each through the post hooks (the
audit of every tool call)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from swiggy_core.approval.own_tools import OwnTool, find_own_tool
from swiggy_core.approval.request_tool import spending_tools_for
from swiggy_core.engine import TurnSetup
from swiggy_core.hooks import NO_HOOKS, CallScope, ToolHooks
from swiggy_core.hooks.audited import run_hooked
from swiggy_core.mcp.manager import McpManager, ToolOutput
from swiggy_core.mcp.transports import ServerTarget
from swiggy_core.verticals import Vertical


@dataclass(frozen=True)
class ShopCalls:
    """One person's calls on one vertical's servers, in one conversation."""

    user_id: str
    vertical: Vertical
    setup: TurnSetup
    manager: McpManager
    conversation_id: str | None = None

    def read(self, tool: str, arguments: dict[str, Any]) -> str:
        """One read of the vertical's server, audited (the app's own call)."""
        return self.call(tool, arguments)

    @property
    def _hooks(self) -> ToolHooks:
        return self.setup.hooks or NO_HOOKS

    def _scope(self) -> CallScope:
        return CallScope(self.user_id, self.vertical.id, self.conversation_id)

    def own_tool(self, name: str) -> OwnTool | None:
        """The person's own server's tool the model asked for, if it needs confirming."""
        if name in spending_tools_for(self.vertical) or not self.setup.extra_servers:
            return None
        policy = self.vertical.tool_policy
        servers = self.setup.extra_servers
        return find_own_tool(servers, self.manager, policy, name, user=self.user_id)

    def call_server(
        self, target: ServerTarget, token: str | None, key: str, tool: str, args: dict[str, Any]
    ) -> ToolOutput:
        """One call the app runs itself, through the session's post hooks (the audit)."""
        info = self._scope().info(key, tool, args)
        run = lambda: self.manager.call_tool(target, token, tool, args, user=self.user_id)  # noqa: E731
        return run_hooked(info, run, self._hooks.observe)  # the app reads it, no model

    def call(self, tool: str, arguments: dict[str, Any]) -> str:
        """A call of the vertical's own server (a failure as a JSON envelope, like its answers)."""
        server = self.vertical.server
        url = self.setup.server_url(server.key, server.url)
        output = self.call_server(url, self.setup.swiggy_token, server.key, tool, arguments)
        text = output.envelope_text()  # the JSON envelope, also when the text was a summary
        if output.is_error and not _is_envelope(text):
            return json.dumps({"success": False, "error": {"message": output.text}})
        return text


def _is_envelope(text: str) -> bool:
    try:
        payload = json.loads(text)
    except ValueError:
        return False
    return isinstance(payload, dict) and "success" in payload
