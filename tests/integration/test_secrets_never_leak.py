"""No key or token leaves the process in a log line, a stored row or an error text.

A whole order (search → add → ask for checkout → confirm → order placed) runs through the
real SDK against the emulator, in both engines, with every logger at DEBUG (anthropic,
httpx2, httpcore, mcp, uvicorn, ours) writing into one buffer. Then the buffer, every row
of every table of the SQLite file, the audit entries and the texts of the errors a wrong
key or token causes are searched for the Anthropic key and the Swiggy tokens.

Without the redaction installed the same run must show the secrets in the logs: that
proves the capture sees what is logged, so the clean run means something. The anthropic SDK
logs the connector's `authorization_token` itself ("Request options"); on the local path no
SDK logs a credential today, so a probe logs the request headers the way an HTTP library's
debug log does (and an exception carrying the key), from child loggers, mid-flow.
"""

from __future__ import annotations

import contextlib
import functools
import io
import logging
import re
import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path

import anthropic
import pytest
from session_peers import (
    ADDRESS,
    MODEL,
    Shop,
    asked_to_place,
    echo,
    finish,
    new_session,
    tool_call,
)

from swiggy_core.actions import typed_message
from swiggy_core.engine import (
    StreamFailed,
    classify_api_error,
    classify_mcp_tool_error,
    make_client,
)
from swiggy_core.logsafe import (
    install_redaction,
    redaction_held_off,
    redaction_installed,
    uninstall_redaction,
)
from swiggy_core.mcp import McpCallError, McpManager
from swiggy_core.mcp import call_tool as onboarding_call_tool
from swiggy_core.store import ChatStore
from swiggy_sandbox.connector import Finish
from swiggy_sandbox.servers import SandboxHttpServer

ENGINES = ["connector", "local"]
KEY = f"sk-ant-api03-SECRETKEY{uuid.uuid4().hex}-AA"
BAD_KEY = f"sk-ant-invalid-SECRETKEY{uuid.uuid4().hex}"  # the emulator answers 401
# A wrong token in no known shape: only its registration by the app's MCP client masks it.
WRONG_TOKEN = f"wrong-SECRET-token-{uuid.uuid4().hex}"
USER = "person-1"
DEBUG_LOGGERS = (
    "",
    "anthropic",
    "httpx",
    "httpx2",
    "httpcore",
    "httpcore2",
    "mcp",
    "uvicorn",
    "uvicorn.error",
    "uvicorn.access",
    "swiggy_core",
    "swiggy_sandbox",
)
# uvicorn's loggers do not propagate to root: the buffer listens to them directly.
NON_PROPAGATING = ("uvicorn", "uvicorn.access")
TABLES = {"messages", "audit", "approvals", "preferences", "conversations"}


@pytest.fixture
def debug_log() -> Iterator[io.StringIO]:
    """Everything logged at DEBUG by any logger, formatted, with tracebacks."""
    buffer = io.StringIO()
    handler = logging.StreamHandler(buffer)
    handler.setLevel(logging.DEBUG)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s %(message)s"))
    levels = {name: logging.getLogger(name).level for name in DEBUG_LOGGERS}
    listeners = [logging.getLogger(), *map(logging.getLogger, NON_PROPAGATING)]
    for logger in listeners:
        logger.addHandler(handler)
    for name in DEBUG_LOGGERS:
        logging.getLogger(name).setLevel(logging.DEBUG)
    try:
        yield buffer
    finally:
        for logger in listeners:
            logger.removeHandler(handler)
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)
        uninstall_redaction()


@pytest.fixture
def exits() -> Iterator[contextlib.ExitStack]:
    """Contexts a test enters part-way, left at its end."""
    with contextlib.ExitStack() as stack:
        yield stack


@pytest.mark.parametrize("redacted", [True, False], ids=["redacted", "unredacted"])
@pytest.mark.parametrize("engine", ENGINES)
def test_a_full_order_at_debug_leaks_no_key_and_no_token(
    engine: str,
    redacted: bool,
    emu,
    store: ChatStore,
    shop: Shop,
    shop_server: SandboxHttpServer,
    app_mcp: McpManager,
    db_url: str,
    debug_log: io.StringIO,
    exits: contextlib.ExitStack,
) -> None:
    if redacted:
        install_redaction()
    else:  # the store, the manager and each client would install it again
        exits.enter_context(redaction_held_off())
    assert redaction_installed() is redacted
    session = new_session(store, shop, emu.base_url, engine=engine, user_id=USER)
    session.client = functools.partial(make_client, KEY, emu.base_url)
    before = shop.orders()

    # Search, add, ask for checkout, confirm: one order placed.
    line = shop.milk_line(quantity=2)
    emu.brain.enqueue(
        tool_call(engine, "search_products", {"addressId": ADDRESS, "query": "milk"}),
        tool_call(engine, "update_cart", {"selectedAddressId": ADDRESS, "items": [line]}),
        Finish("Two packs of milk are in your cart."),
    )
    finish(session.send(typed_message("add two packs of milk")))
    _probe(shop.token)
    approval = asked_to_place(session, emu)
    assert approval.tool == "checkout"
    emu.brain.enqueue(echo)
    finish(session.confirm(approval.id))
    assert shop.orders() == before + 1
    assert any(m.meta.cards for m in session.history()), "the order card was stored"

    # The failing variants: a revoked token in a whole turn, a wrong token, a wrong key.
    revoked = shop_server.store.issue(f"revoked-{uuid.uuid4().hex[:8]}")
    shop_server.store.revoke(revoked)
    refused = new_session(
        store, Shop(shop_server, app_mcp, revoked), emu.base_url, engine=engine, user_id=USER
    )
    refused.client = functools.partial(make_client, KEY, emu.base_url)
    if engine == "connector":
        emu.brain.enqueue(tool_call(engine, "get_cart", {}), echo)
    failed_events = finish(refused.send(typed_message("what is in my cart?")))
    emu.brain.clear()
    error_texts = [repr(failed_events), repr(refused.history())]
    if engine == "local":
        assert any(isinstance(event, StreamFailed) for event in failed_events)
    for call in (
        lambda: app_mcp.call_tool(shop_server.url_for("instamart"), WRONG_TOKEN, "get_cart", {}),
        lambda: onboarding_call_tool(shop_server.url_for("instamart"), WRONG_TOKEN, "get_cart", {}),
    ):
        with pytest.raises(McpCallError) as refusal:
            call()
        error_texts += [str(refusal.value), repr(refusal.value), refusal.value.message]
        error_texts.append(repr(classify_mcp_tool_error(str(refusal.value))))
    with pytest.raises(anthropic.AuthenticationError) as bad_key:
        make_client(BAD_KEY, emu.base_url).messages.create(
            model=MODEL, max_tokens=16, messages=[{"role": "user", "content": "hi"}]
        )
    error_texts += [
        str(bad_key.value),
        repr(bad_key.value),
        repr(classify_api_error(bad_key.value)),
    ]
    # The whole session objects too (their repr is what a debugger or a crash shows).
    error_texts += [repr(session), repr(refused), repr(app_mcp), repr(shop_server.store)]

    secrets = {"key": KEY, "bad key": BAD_KEY, "token": shop.token, "revoked": revoked}
    secrets["wrong token"] = WRONG_TOKEN

    logs = debug_log.getvalue()
    # The capture really sees the SDKs at DEBUG (else a clean result would mean nothing).
    assert "Request options" in logs, "anthropic's DEBUG log is captured"
    assert "HTTP Request: POST" in logs, "httpx2's log is captured"
    assert " mcp." in logs, "the MCP SDK's log is captured"
    leaked = sorted(name for name, value in secrets.items() if value in logs)
    if redacted:
        assert not leaked, f"{leaked} in the DEBUG logs:\n" + _lines_with(logs, secrets)
        assert "Bearer ***" in logs and "'x-api-key': '***'" in logs  # the probe, masked
        assert "ValueError: refused sk-ant-***" in logs  # its traceback, masked
        if engine == "connector":
            # What anthropic logged (the request body as a Python repr), masked.
            assert re.search(r"authorization_token\W{1,8}\*\*\*", logs)
    else:
        assert {"key", "token"} <= set(leaked), "unredacted, the probe's secrets are logged"
        sdk_lines = [line for line in logs.splitlines() if "Request options" in line]
        if engine == "connector":  # the SDK's own leak: the token in the request body
            assert any(shop.token in line for line in sdk_lines)

    rows = _every_row(db_url)
    assert set(rows) >= TABLES, f"tables: {sorted(rows)}"
    assert rows["messages"] and rows["audit"] and rows["approvals"]
    raw = _raw_database_bytes(db_url)
    audit = store.audit_entries(USER)
    assert "spend_call" in [action for action, _ in audit]
    for name, value in secrets.items():
        for table, dump in rows.items():
            assert value not in dump, f"the {name} is stored in table {table}"
        assert value.encode() not in raw, f"the {name} is in the database file"
        assert value not in repr(audit), f"the {name} is in the audit entries"
        for text in error_texts:
            assert value not in text, f"the {name} is in an error text: {text[:300]}"


def _probe(token: str) -> None:
    """Log credentials as an HTTP library's DEBUG output would, and an exception with one."""
    headers = {"authorization": f"Bearer {token}", "x-api-key": KEY}
    logging.getLogger("httpx2.probe").debug("request headers: %r", headers)
    logging.getLogger("mcp.client.probe").debug("Authorization: Bearer %s", token)
    try:
        raise ValueError(f"refused {KEY} for {token}")
    except ValueError:
        logging.getLogger("anthropic.probe").exception("call failed")


def _every_row(db_url: str) -> dict[str, str]:
    """Table name → repr of every row, read straight from the file with sqlite3."""
    path = db_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as conn:
        names = [
            row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
        ]
        return {name: repr(conn.execute(f'SELECT * FROM "{name}"').fetchall()) for name in names}


def _raw_database_bytes(db_url: str) -> bytes:
    """The database file and its journal files, byte for byte (free pages included)."""
    path = Path(db_url.removeprefix("sqlite:///"))
    return b"".join(p.read_bytes() for p in sorted(path.parent.glob(path.name + "*")))


def _lines_with(logs: str, secrets: dict[str, str]) -> str:
    return "\n".join(
        line[:400] for line in logs.splitlines() if any(s in line for s in secrets.values())
    )
