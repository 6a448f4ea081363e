"""No object that holds a key, a token or a database password shows it in repr or str, and
`swiggy_core.logsafe` masks them in every log record, whichever logger makes it."""

from __future__ import annotations

import functools
import io
import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest

from swiggy_core import logsafe
from swiggy_core.approval.steps import SessionSteps
from swiggy_core.engine import TurnSetup, make_client
from swiggy_core.engine.local_tools import LocalTools
from swiggy_core.hooks import NO_HOOKS, CallScope
from swiggy_core.logsafe import (
    install_redaction,
    mask_url_password,
    redact,
    register_secret,
    uninstall_redaction,
)
from swiggy_core.logsafe.records import WITHHELD
from swiggy_core.mcp import McpManager
from swiggy_core.mcp.connection import Connection
from swiggy_core.mcp.transports import endpoint_for
from swiggy_core.settings import load_settings
from swiggy_core.store import ChatStore
from swiggy_core.turn.session import ChatSession
from swiggy_core.verticals import get_vertical
from swiggy_sandbox.connector.toolsets import ServerSpec, Toolset, servers
from swiggy_sandbox.emulator.script import RecordedRequest
from swiggy_sandbox.runtime import SandboxServices
from swiggy_sandbox.servers import TokenStore

KEY = "sk-ant-api03-SECRETKEYabcdefghijklmnopqrstuvwxyz0123456789-AAAA"
TOKEN = "sbx_SECRETTOKENabcdefghijklmnop"
DB_PASSWORD = "Pg-Secret-Passw0rd"
DB_URL = f"postgresql+psycopg://swiggy:{DB_PASSWORD}@db.internal:5432/chats"
URL = "http://127.0.0.1:8765/im"
# Never issued nor registered here: redact() masks it by its shape alone (registered
# secrets are replaced whole, before the shapes, so their marker is a bare ***).
SHAPED = "sbx_SHAPEDtokenABCDEFGHIJKLMNOP"
SECRETS = (KEY, TOKEN, DB_PASSWORD, SHAPED)


def shows_no_secret(text: str) -> bool:
    return not any(secret in text for secret in SECRETS)


def setup() -> TurnSetup:
    return TurnSetup(vertical_id="food", model="claude-haiku-4-5", swiggy_token=TOKEN)


# --- reprs ---------------------------------------------------------------------------------


def test_settings_mask_the_key_the_token_and_the_database_password() -> None:
    secrets = {"ANTHROPIC_API_KEY": KEY, "SWIGGY_TOKEN": TOKEN, "SWIGGY_DATABASE_URL": DB_URL}
    settings = load_settings(secrets, {})
    for text in (repr(settings), str(settings), f"{settings}", f"{settings!r}"):
        assert shows_no_secret(text), text
        assert "postgresql+psycopg://swiggy:***@db.internal:5432/chats" in text
    assert settings.database_url == DB_URL  # the value itself is untouched


def test_a_turn_setup_masks_the_token() -> None:
    assert shows_no_secret(repr(setup())) and shows_no_secret(str(setup()))


def test_the_local_engines_tool_set_masks_the_token() -> None:
    vertical = get_vertical("food")
    server, policy = vertical.server, vertical.tool_policy
    scope = CallScope("person-1", "food")
    tools = LocalTools(McpManager(), URL, TOKEN, server.key, server.name, policy, NO_HOOKS, scope)
    assert shows_no_secret(repr(tools)) and shows_no_secret(str(tools))
    assert tools.token == TOKEN


def test_the_mcp_manager_and_its_connections_mask_the_token() -> None:
    manager = McpManager()
    endpoint = endpoint_for(f"http://user:{DB_PASSWORD}@127.0.0.1:8765/im", TOKEN)
    connection = Connection(endpoint, 5.0)
    manager._pool.connections[("user", URL, "digest")] = connection  # type: ignore[index]
    texts = (repr(manager), str(manager), repr(connection), str(connection), repr(endpoint))
    for text in texts:
        assert shows_no_secret(text), text


def test_a_chat_session_and_its_steps_mask_the_key_and_the_token(tmp_path) -> None:
    store = ChatStore(f"sqlite:///{tmp_path / 'chats.db'}")
    try:
        session = ChatSession(
            store=store,
            user_id="person-1",
            vertical_id="food",
            # A client factory that holds the key, as the app's (a bound method) does.
            client=functools.partial(make_client, KEY, "http://127.0.0.1:1"),
            setup=setup(),
            manager=McpManager(),
        )
        steps = SessionSteps(
            store=store,
            user_id="person-1",
            vertical=get_vertical("food"),
            setup=setup(),
            manager=McpManager(),
            expires_at=lambda: datetime.now(UTC),
        )
        for text in (repr(session), str(session), repr(steps), str(steps), repr(session._steps())):
            assert shows_no_secret(text), text
    finally:
        store.close()


def test_the_sandbox_masks_its_tokens_and_the_requests_it_records() -> None:
    spec = ServerSpec(name="swiggy-instamart", url=URL, token=TOKEN)
    toolset = Toolset(server=spec)
    body = {
        "model": "claude-haiku-4-5",
        "mcp_servers": [{"type": "url", "url": URL, "name": "im", "authorization_token": TOKEN}],
    }
    request = RecordedRequest(
        method="POST",
        path="/v1/messages",
        headers={"x-api-key": KEY, "authorization": f"Bearer {TOKEN}"},
        body=body,
    )
    tokens = TokenStore()
    issued = tokens.issue("person-1", TOKEN)
    services = SandboxServices(
        SimpleNamespace(base_url="http://127.0.0.1:1", store=tokens),  # type: ignore[arg-type]
        SimpleNamespace(base_url="http://127.0.0.1:2"),  # type: ignore[arg-type]
    )
    services._tokens["person-1"] = issued
    for thing in (spec, toolset, servers(body), request, tokens, services):
        assert shows_no_secret(repr(thing)) and shows_no_secret(str(thing)), repr(thing)
    assert request.api_key == KEY and spec.token == TOKEN  # still usable


# --- redact --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "secret", "kept"),
    [
        (f"Request options: {{'x-api-key': '{KEY}'}}", KEY, "'x-api-key': '***'"),
        (f"{{'authorization_token': '{TOKEN}'}}", TOKEN, "'authorization_token': '***'"),
        (f'{{"authorization_token": "{TOKEN}"}}', TOKEN, '"authorization_token": "***"'),
        (f'{{\\"authorization_token\\": \\"{TOKEN}\\"}}', TOKEN, '\\"***\\"'),
        (f'{{"authorization": "Token x{TOKEN}"}}', TOKEN, '"authorization": "***"'),
        ("Authorization: Bearer abc.DEF-123_456", "abc.DEF-123_456", "Bearer ***"),
        ("x-api-key: key-in-an-odd-shape", "key-in-an-odd-shape", "x-api-key: ***"),
        ("(b'x-api-key', b'key-in-bytes-123')", "key-in-bytes-123", "b'***'"),
        (f"key {KEY} in prose", KEY, "sk-ant-***"),
        (f"token {SHAPED}.", SHAPED, "sbx_***"),
        ("demo sandbox-demo-token", "sandbox-demo-token", "demo ***"),
        (DB_URL, DB_PASSWORD, "swiggy:***@db.internal"),
        ("GET /mcp?token=qwerty12345&x=1", "qwerty12345", "token=***&x=1"),
    ],
)
def test_redact_masks_every_known_shape(text: str, secret: str, kept: str) -> None:
    masked = redact(text)
    assert secret not in masked and kept in masked
    assert redact(masked) == masked  # masking twice changes nothing


@pytest.mark.parametrize(
    "text",
    [
        'HTTP Request: POST http://127.0.0.1:8765/im "HTTP/1.1 200 OK"',
        'WWW-Authenticate: Bearer realm="swiggy-sandbox", error="invalid_token"',
        "max_tokens=800 'input_tokens': 12 the token was refused (401)",
        "sqlite:///chats.db https://api.anthropic.com/v1/messages",
    ],
)
def test_redact_leaves_ordinary_text_alone(text: str) -> None:
    assert redact(text) == text


def test_mask_url_password() -> None:
    assert mask_url_password("postgresql://user:pw@host/db") == "postgresql://user:***@host/db"
    assert mask_url_password("sqlite:///chats.db") == "sqlite:///chats.db"
    assert mask_url_password("postgresql://h/db?password=pw&x=1") == (
        "postgresql://h/db?password=***&x=1"
    )


# --- the logging filter --------------------------------------------------------------------


@pytest.fixture
def redaction() -> Iterator[None]:
    install_redaction()
    try:
        yield
    finally:
        uninstall_redaction()


@pytest.fixture
def root_buffer() -> Iterator[io.StringIO]:
    """A handler on the root logger, as an app's logging setup adds one, at DEBUG."""
    buffer = io.StringIO()
    handler = logging.StreamHandler(buffer)
    handler.setFormatter(logging.Formatter("%(name)s %(message)s"))
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield buffer
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def test_records_of_child_loggers_are_masked_at_every_level(redaction, root_buffer) -> None:
    for name in ("anthropic._base_client", "httpx2", "httpcore2.http11", "mcp.client.session"):
        logger = logging.getLogger(name)
        logger.setLevel(logging.DEBUG)
        for level in (logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR):
            logger.log(level, "options: %s", {"headers": {"x-api-key": KEY}, "token": TOKEN})
            logger.log(level, f"Authorization: Bearer {TOKEN}")  # no args
        logger.setLevel(logging.NOTSET)
    logs = root_buffer.getvalue()
    assert logs.count("x-api-key': '***'") == 16 and logs.count("Bearer ***") == 16
    assert shows_no_secret(logs)


def test_a_handler_added_later_sees_masked_records_too(redaction) -> None:
    buffer = io.StringIO()
    late = logging.StreamHandler(buffer)
    logger = logging.getLogger("streamlit.late")
    logger.addHandler(late)
    logger.propagate = False
    logger.setLevel(logging.DEBUG)
    try:
        logger.debug("key=%s", KEY)
    finally:
        logger.removeHandler(late)
        logger.propagate = True
        logger.setLevel(logging.NOTSET)
    assert "key=sk-ant-***" in buffer.getvalue() and shows_no_secret(buffer.getvalue())


def test_existing_handlers_filter_records_made_without_the_factory(root_buffer) -> None:
    install_redaction()
    try:
        record = logging.LogRecord("x", logging.INFO, __file__, 1, "t %s", (SHAPED,), None)
        logging.getLogger().handle(record)  # a record made by hand: only the filter sees it
    finally:
        uninstall_redaction()
    assert "t sbx_***" in root_buffer.getvalue()


def test_exception_text_and_stack_are_masked(redaction, root_buffer) -> None:
    logger = logging.getLogger("swiggy_core.test")
    try:
        raise RuntimeError(f"refused {SHAPED} with {KEY}")
    except RuntimeError:
        logger.exception("call failed for %s", SHAPED, stack_info=True)
    logs = root_buffer.getvalue()
    assert "RuntimeError: refused sbx_*** with sk-ant-***" in logs
    assert "call failed for sbx_***" in logs and shows_no_secret(logs)


def test_registered_secrets_of_any_shape_are_masked(redaction, root_buffer) -> None:
    odd = "odd$shape!secret%value"
    register_secret(odd)
    register_secret("https://api.anthropic.com")  # a URL without a password is no secret
    logging.getLogger("anything").warning("we got %r from %s", odd, "https://api.anthropic.com")
    logs = root_buffer.getvalue()
    assert odd not in logs and "we got '***' from https://api.anthropic.com" in logs


def test_install_reads_secrets_from_the_environment_and_a_mapping(monkeypatch) -> None:
    from_env = "env-key-in-an-odd-shape"
    from_secrets = "toml-token-in-an-odd-shape"
    monkeypatch.setenv("ANTHROPIC_API_KEY", from_env)

    class Secrets(dict[str, Any]):
        pass

    install_redaction(Secrets(SWIGGY_TOKEN=from_secrets))
    try:
        assert redact(f"{from_env} {from_secrets}") == "*** ***"
    finally:
        uninstall_redaction()


def test_install_tolerates_secrets_that_raise(root_buffer) -> None:
    class Missing(dict[str, Any]):
        def get(self, key: str, default: Any = None) -> Any:
            raise FileNotFoundError("no secrets.toml")  # what st.secrets does

    install_redaction(Missing())
    try:
        logging.getLogger("x").warning("t %s", SHAPED)
    finally:
        uninstall_redaction()
    assert "t sbx_***" in root_buffer.getvalue()


def test_args_are_masked_one_by_one_when_enough(redaction) -> None:
    """uvicorn's access formatter unpacks record.args: keep them a tuple where possible."""
    logger = logging.getLogger("uvicorn.access.test")
    seen: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = seen.append  # type: ignore[method-assign]
    logger.addHandler(handler)
    try:
        logger.warning('%s - "%s %s" %d', "127.0.0.1", "GET", f"/im?token={SHAPED}", 200)
        logger.warning("Authorization: Bearer %s", "abcdefghijkl")
    finally:
        logger.removeHandler(handler)
    access, header = seen
    assert access.args == ("127.0.0.1", "GET", "/im?token=***", 200)
    assert access.getMessage() == '127.0.0.1 - "GET /im?token=***" 200'
    # The arguments alone look harmless: only the whole message shows the credential.
    assert header.args is None and header.getMessage() == "Authorization: Bearer ***"


def test_the_filter_never_raises(redaction, root_buffer) -> None:
    class Hostile:
        def __str__(self) -> str:
            raise RuntimeError("no str")

        def __repr__(self) -> str:
            raise RuntimeError("no repr")

    logger = logging.getLogger("hostile")
    logger.warning("%s %s", "too few")  # wrong argument count
    logger.warning("%s", Hostile())
    logger.warning(Hostile())
    logs = root_buffer.getvalue()
    assert "too few" in logs and logs.count(WITHHELD) == 2


def test_install_is_idempotent_and_uninstall_restores() -> None:
    before = logging.getLogRecordFactory()
    handler = logging.NullHandler()
    logging.getLogger().addHandler(handler)
    try:
        install_redaction()
        wrapped = logging.getLogRecordFactory()
        install_redaction()
        install_redaction()
        assert logging.getLogRecordFactory() is wrapped is not before
        assert handler.filters.count(logsafe.FILTER) == 1
        uninstall_redaction()
        assert logging.getLogRecordFactory() is before
        assert logsafe.FILTER not in handler.filters
    finally:
        uninstall_redaction()
        logging.getLogger().removeHandler(handler)


def test_a_factory_wrapped_over_ours_is_wrapped_again_without_a_loop(root_buffer) -> None:
    """Libraries (tracing, Streamlit plugins) wrap the factory too; reruns install again."""
    original = logging.getLogRecordFactory()
    install_redaction()
    ours = logging.getLogRecordFactory()

    def foreign(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = ours(*args, **kwargs)
        record.traced = True
        return record

    logging.setLogRecordFactory(foreign)
    try:
        install_redaction()  # the next rerun
        install_redaction()
        logging.getLogger("x").warning("k=%s", KEY)  # would recurse forever if it looped
    finally:
        uninstall_redaction()
        logging.setLogRecordFactory(original)
    assert "k=sk-ant-***" in root_buffer.getvalue() and shows_no_secret(root_buffer.getvalue())


def test_extra_fields_are_masked_by_the_filter() -> None:
    buffer = io.StringIO()
    handler = logging.StreamHandler(buffer)
    handler.setFormatter(logging.Formatter("%(message)s %(auth)s"))
    logger = logging.getLogger("extra.test")
    logger.addHandler(handler)
    logger.propagate = False
    install_redaction()  # filters the handler that exists now
    try:
        logger.warning("call", extra={"auth": f"Bearer {SHAPED}"})
    finally:
        uninstall_redaction()
        logger.removeHandler(handler)
        logger.propagate = True
    assert buffer.getvalue() == "call Bearer ***\n"
