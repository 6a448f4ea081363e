"""`python -m swiggy_sandbox serve` and `... mcp <server> --stdio` as a person runs them."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import anyio
import httpx2
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from swiggy_core.mcp import call_tool
from swiggy_sandbox.servers import DEMO_TOKEN

ROOT = Path(__file__).resolve().parents[2]
URL_RE = re.compile(r"(http://127\.0\.0\.1:\d+\S*)")


def _read_until_ready(process: subprocess.Popen[str]) -> list[str]:
    lines: list[str] = []
    assert process.stdout is not None
    for line in process.stdout:
        lines.append(line.rstrip())
        if line.startswith("Ready."):
            return lines
    raise AssertionError(f"serve ended before it was ready: {lines}")


def test_serve_prints_urls_that_work_and_stops_on_sigterm():
    process = subprocess.Popen(
        [sys.executable, "-m", "swiggy_sandbox", "serve"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        lines = _read_until_ready(process)
        urls = [URL_RE.search(line).group(1) for line in lines if URL_RE.search(line)]
        assert len(urls) == 5  # the emulator, three MCP servers, the authorization server
        emulator, *servers, auth = urls
        origin = auth.removesuffix("/auth")  # Swiggy's layout: metadata at the host root
        metadata = httpx2.get(f"{origin}/.well-known/oauth-authorization-server", timeout=5)
        assert metadata.json()["issuer"] == auth
        models = httpx2.get(f"{emulator}/v1/models", headers={"x-api-key": "k"}, timeout=5)
        assert models.status_code == 200 and models.json()["data"]
        assert [url.rsplit("/", 1)[1] for url in servers] == ["im", "food", "dineout"]
        result = call_tool(servers[0], DEMO_TOKEN, "get_addresses", {})
        assert json.loads(result.text)["success"] is True
        process.send_signal(signal.SIGTERM)
        output, _ = process.communicate(timeout=20)
        assert process.returncode == 0
        assert "Stopped." in output
    finally:
        if process.poll() is None:
            process.kill()


def test_stdio_server_answers_a_real_mcp_client():
    async def scenario() -> list[str]:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "swiggy_sandbox", "mcp", "dineout", "--stdio"],
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            cwd=str(ROOT),
        )
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            tools = await session.list_tools()
            result = await session.call_tool("get_saved_locations", {})
            assert json.loads(result.content[0].text)["success"] is True
            return [tool.name for tool in tools.tools]

    names = anyio.run(scenario)
    assert {"search_restaurants_dineout", "get_available_slots", "book_table"} <= set(names)
