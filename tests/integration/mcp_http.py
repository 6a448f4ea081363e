"""MCP over Streamable HTTP for the sandbox tests: a raw `initialize` request and a
session of the real MCP client, both with an optional bearer token."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


def initialize_request(client_name: str) -> dict[str, Any]:
    """The JSON-RPC `initialize` a client sends first, naming itself `client_name`."""
    return {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": client_name, "version": "0"},
        },
    }


@asynccontextmanager
async def mcp_session(url: str, token: str | None) -> AsyncIterator[ClientSession]:
    """An initialized session of the real MCP client; no token sends no Authorization."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with (
        httpx2.AsyncClient(headers=headers) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session
