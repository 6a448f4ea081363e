"""The core masks keys and tokens in logs by itself: a script with no app.py is covered.

A fresh interpreter logs everything at DEBUG to a file, opens the sandbox shop and the
Messages emulator, builds an `McpManager` and a client with `make_client` (nothing else
installs the redaction), calls a tool with a known token and sends one request that carries
the token to the connector. Neither the token nor the key may reach the file. The same
script with the redaction taken out again must log both, or the capture proves nothing.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pytest

# Neither is in a shape the patterns know: only the core's own registration masks them.
TOKEN = f"swiggy-SECRET-token-{uuid.uuid4().hex}"
KEY = f"key-SECRET-{uuid.uuid4().hex}"
SCRIPT_TIMEOUT_SECONDS = 180

SCRIPT = textwrap.dedent(
    """
    import logging, sys

    log_file, mode, token, key = sys.argv[1:5]
    logging.basicConfig(filename=log_file, level=logging.DEBUG,
                        format="%(levelname)s %(name)s %(message)s")

    from swiggy_core.constants import BETAS, DEFAULT_MODEL
    from swiggy_core.engine import make_client
    from swiggy_core.logsafe import redaction_installed, uninstall_redaction
    from swiggy_core.mcp import McpManager
    from swiggy_sandbox.connector import Finish, ScriptedAgentBrain
    from swiggy_sandbox.emulator import EmulatorServer
    from swiggy_sandbox.servers import SandboxHttpServer

    assert not redaction_installed()
    with SandboxHttpServer() as shop, EmulatorServer(ScriptedAgentBrain()) as emulator:
        shop.store.issue("script-user", token)
        url = shop.url_for("instamart")
        manager = McpManager()
        client = make_client(key, emulator.base_url)
        if mode == "uninstalled":
            uninstall_redaction()
        manager.call_tool(url, token, "get_addresses", {}, user="script-user")
        # What an HTTP library's debug log prints about a request: its headers, key included.
        logging.getLogger("probe").debug("request headers: %s", dict(client.auth_headers))
        emulator.brain.enqueue(Finish("Hello."))
        client.beta.messages.create(
            model=DEFAULT_MODEL,
            max_tokens=64,
            betas=list(BETAS),
            messages=[{"role": "user", "content": "hi"}],
            mcp_servers=[{"type": "url", "url": url, "name": "swiggy-instamart",
                          "authorization_token": token}],
            tools=[{"type": "mcp_toolset", "mcp_server_name": "swiggy-instamart"}],
        )
        client.close()
        manager.close()
    print("script done")
    """
)


def _run(tmp_path: Path, mode: str) -> str:
    log = tmp_path / f"{mode}.log"
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(log), mode, TOKEN, KEY],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=SCRIPT_TIMEOUT_SECONDS,
    )
    assert done.returncode == 0 and "script done" in done.stdout, done.stderr[-3000:]
    return log.read_text(errors="replace")


@pytest.mark.parametrize("mode", ["installed by the core", "uninstalled"])
def test_a_script_without_app_py_logs_no_token_and_no_key(tmp_path: Path, mode: str) -> None:
    logged = _run(tmp_path, mode)
    assert "get_addresses" in logged and "/v1/messages" in logged  # both calls were logged
    leaked = {name for name, secret in (("token", TOKEN), ("key", KEY)) if secret in logged}
    if mode == "uninstalled":
        assert leaked == {"token", "key"}, "unmasked, the capture must see both"
    else:
        assert leaked == set()
