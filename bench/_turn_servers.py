"""The other side of bench/turn.py, in a process of its own: its CPU is not the app's.

Runs the sandbox MCP servers and the Messages API emulator (with its emulated MCP
connector) on loopback, prints one JSON line with their URLs, and serves until its stdin
closes. The model of every turn searches NutriCart's products through the connector, then
asks the app to approve a checkout of the cart (the client tool `request_confirmation`),
as the sandbox planner does; told that a request was refused, it ends the turn.

    python bench/_turn_servers.py
"""

from __future__ import annotations

import json
import logging
import sys
from itertools import count

from swiggy_core.constants import APPROVAL_TOOL_NAME, MCP_SERVERS
from swiggy_core.mcp import call_tool
from swiggy_sandbox.connector import (
    CallClientTool,
    CallTool,
    Finish,
    FunctionAgentBrain,
    Step,
    TurnContext,
)
from swiggy_sandbox.emulator import EmulatorServer
from swiggy_sandbox.servers import DEMO_TOKEN, SandboxHttpServer
from swiggy_sandbox.servers.ratelimit import RateLimits

QUERIES = ("milk", "eggs", "bread", "oats", "paneer", "banana")
SERVER_NAME = MCP_SERVERS["instamart"].name
# The bench calls far more often than a person: the shop's own limits stay out of the way.
UNLIMITED = RateLimits(requests=1_000_000, writes=1_000_000)


def search_then_checkout(address_id: str) -> FunctionAgentBrain:
    """A brain that searches (one connector call), then asks to check out the cart."""
    queries = count()

    def step(ctx: TurnContext) -> Step:
        if _answered_request(ctx):
            return Finish("I couldn't go ahead with the order.")
        if not ctx.outcomes:
            query = QUERIES[next(queries) % len(QUERIES)]
            arguments = {"addressId": address_id, "query": query}
            return CallTool(SERVER_NAME, "search_products", arguments, say_before="Looking…")
        checkout = {"tool": "checkout", "arguments": {"addressId": address_id}}
        return CallClientTool(APPROVAL_TOOL_NAME, checkout, say_before="Here is your cart.")

    return FunctionAgentBrain(step)


def _answered_request(ctx: TurnContext) -> bool:
    """The newest message is only the app's answer to an approval request (a refusal)."""
    content = ctx.messages[-1]["content"] if ctx.messages else ""
    blocks = [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []
    return bool(blocks) and all(b.get("type") == "tool_result" for b in blocks)


def main() -> None:
    logging.getLogger("uvicorn").setLevel(logging.ERROR)
    with SandboxHttpServer(limits=UNLIMITED) as sandbox:
        url = sandbox.url_for("instamart")
        addresses = json.loads(call_tool(url, DEMO_TOKEN, "get_addresses", {}).text)
        address_id = addresses["data"]["addresses"][0]["id"]
        with EmulatorServer(search_then_checkout(address_id)) as emulator:
            urls = {key: sandbox.url_for(key) for key in MCP_SERVERS}
            print(json.dumps({"servers": urls, "emulator": emulator.base_url}), flush=True)
            sys.stdin.read()  # until the bench closes the pipe (or ends)


if __name__ == "__main__":
    main()
