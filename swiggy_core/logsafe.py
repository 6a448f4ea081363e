"""Keep keys and tokens out of every log line, whoever logs it.

`install_redaction()` (idempotent) makes every `logging.LogRecord` redacted when it is
created, whichever logger creates it (the SDKs' included: anthropic, httpx2, httpcore, mcp,
uvicorn, Streamlit), by wrapping the process's record factory; it also puts a
`RedactingFilter` on the handlers that exist (the root logger's first), for records made
some other way. The factory is what catches records of child loggers that propagate to
root (a filter on the root *logger* never sees them) and handlers added later (pytest's
caplog, Streamlit's own).

What is redacted: Anthropic keys (`sk-ant-…`), `Bearer <token>`, `x-api-key` values,
`authorization`/`authorization_token`/`api_key`/`token`/`password`… values in JSON, dict
reprs, headers and query strings, sandbox tokens (`sbx_…`, `sandbox-demo-token`), passwords
in URLs (`postgresql://user:***@host/db`), and every string passed to `register_secret`
(the live key and token values, so even unusual formats are caught).

The core's own entry points (`McpManager`, `ChatStore`, `make_client`) call
`install_redaction()`, so a script or worker that uses the core without app.py is covered.
A test that must see what an SDK logs unmasked holds it off with `redaction_held_off()`.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

MASK = "***"
# Registered values shorter than this are ignored: redacting every "demo" would wreck logs.
MIN_SECRET_LENGTH = 6
# Environment variables (and Streamlit secrets) whose values are secrets.
SECRET_SETTING_NAMES = (
    "ANTHROPIC_API_KEY",
    "SWIGGY_TOKEN",
    "SWIGGY_SANDBOX_TOKEN",
    "SWIGGY_TOKEN_KEY",
)
URL_SETTING_NAMES = ("SWIGGY_DATABASE_URL", "ANTHROPIC_BASE_URL")
_MARK = "_swiggy_redacted"
_FACTORY_MARK = "_swiggy_redacting"
_PREVIOUS = "_swiggy_previous"
_WITHHELD = "[log message withheld: it could not be checked for secrets]"

# Names whose value is a credential wherever it appears as `name: value` or `name=value`.
_KEY_NAMES = (
    r"authorization_token|authorization|proxy-authorization|x-api-key|api[_-]?key|"
    r"access_token|refresh_token|id_token|client_secret|token|secret|password|passwd"
)
_KEY = rf"(?<![\w-])(?:{_KEY_NAMES})(?![\w-])"
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # `Bearer <token>` (not a WWW-Authenticate challenge's parameters); `Authorization: <scheme> …`.
    (re.compile(r"(?i)\b(bearer\s+)(?![\w-]+=\")[A-Za-z0-9._~+/-]{8,}=*"), rf"\1{MASK}"),
    (
        re.compile(r"(?i)(authorization[\"']?\s*[:=,]\s*b?[\"']?[a-z]+\s+)[^\s\"',;)}\]]+"),
        rf"\1{MASK}",
    ),
    # `"key": "value"`, `'key': 'value'`, `key='value'`, `(b'key', b'value')`, `\"key\": \"v\"`.
    (
        re.compile(rf"(?i)({_KEY}(?:\\?[\"'])?\s*[:=,]\s*b?)(\\?[\"'])(?:(?!\2).)*\2"),
        rf"\1\2{MASK}\2",
    ),
    # Unquoted `key: value` / `key=value` (headers, query strings, kwargs-like text).
    (
        re.compile(
            rf"(?i)({_KEY}\s*[:=]\s*)"
            r"(?![\s\"'*]|bearer\s|basic\s|(?:none|null|true|false)\b)[^\s\"'&,;)}\]]+"
        ),
        rf"\1{MASK}",
    ),
    # Anthropic keys and sandbox tokens, anywhere.
    (re.compile(r"sk-ant-[A-Za-z0-9_-]+"), f"sk-ant-{MASK}"),
    (re.compile(r"(?<![\w-])sbx_[A-Za-z0-9_-]+"), f"sbx_{MASK}"),
    (re.compile(r"sandbox-demo-token"), MASK),
    # user:password@ in any URL.
    (
        re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://[^\s:/@?#]*:)[^\s/?#]+(@)"),
        rf"\1{MASK}\2",
    ),
)

_lock = threading.Lock()
_secrets: set[str] = set()
_secret_pattern: re.Pattern[str] | None = None
_version = 0  # bumped when a secret is registered: records checked before are re-checked
_enabled = False
_held_off = False  # `redaction_held_off`: install_redaction only registers secrets
_filtered_handlers: list[logging.Handler] = []


class RedactingFilter(logging.Filter):
    """Redacts the record in place; never drops one and never raises."""

    def filter(self, record: logging.LogRecord) -> bool:
        redact_record(record)
        return True


FILTER = RedactingFilter()
_STANDARD_FIELDS = frozenset(vars(logging.makeLogRecord({}))) | {"message", "asctime", _MARK}


def redact(text: str) -> str:
    """`text` with every known secret shape and every registered secret masked."""
    pattern = _secret_pattern
    if pattern is not None:
        text = pattern.sub(MASK, text)
    for regex, replacement in _PATTERNS:
        text = regex.sub(replacement, text)
    return text


def mask_url_password(url: str) -> str:
    """`scheme://user:***@host/db`: the password of a URL (user info or query) masked."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return redact(url)
    if password is not None:
        userinfo, _, hostport = parts.netloc.rpartition("@")
        user = userinfo.split(":", 1)[0]
        url = parts._replace(netloc=f"{user}:{MASK}@{hostport}").geturl()
    return re.sub(r"(?i)([?&](?:password|passwd|pwd)=)[^&#]*", rf"\1{MASK}", url)


def register_secret(value: str | None) -> None:
    """Mask this exact string (and a URL's password) in every later log record."""
    global _secret_pattern, _version
    if not value or not isinstance(value, str):
        return
    found = {value}
    if "://" in value:  # a URL: only its password is secret
        try:
            password = urlsplit(value).password
        except ValueError:
            password = None
        found = {password} if password else set()
    found = {item for item in found if len(item) >= MIN_SECRET_LENGTH}
    with _lock:
        if found <= _secrets:
            return
        _secrets.update(found)
        ordered = sorted(_secrets, key=len, reverse=True)
        _secret_pattern = re.compile("|".join(re.escape(item) for item in ordered))
        _version += 1


def register_secrets_from(*sources: Mapping[str, Any] | None) -> None:
    """Register the secret settings found in mappings such as `os.environ`, `st.secrets`."""
    for source in sources:
        if source is None:
            continue
        for name in SECRET_SETTING_NAMES + URL_SETTING_NAMES:
            for key in (name, name.lower()):
                try:
                    value = source.get(key)
                except Exception:  # Streamlit raises when there is no secrets.toml
                    return
                if isinstance(value, str):
                    register_secret(value.strip())


def install_redaction(secrets: Mapping[str, Any] | None = None) -> None:
    """Redact every log record from now on (safe to call on every Streamlit rerun).

    Registers the secret settings found in the environment and in `secrets` (e.g.
    `st.secrets`), wraps the record factory once, and filters every existing handler.
    """
    global _enabled
    register_secrets_from(os.environ, secrets)
    with _lock:
        if _held_off:
            return
        _enabled = True
        current = logging.getLogRecordFactory()
        if not getattr(current, _FACTORY_MARK, False):
            # First call, or someone wrapped or replaced ours since: wrap what is current.
            # Each wrapper keeps its own predecessor, so wrapping again never loops.
            logging.setLogRecordFactory(_wrap(current))
        for handler in _existing_handlers():
            if FILTER not in handler.filters:
                handler.addFilter(FILTER)
                _filtered_handlers.append(handler)


def uninstall_redaction() -> None:
    """Undo `install_redaction` (tests): the previous factory back, no filters.

    A wrapper someone else has wrapped since cannot be taken out; it stops redacting.
    """
    global _enabled
    with _lock:
        _enabled = False
        current = logging.getLogRecordFactory()
        if getattr(current, _FACTORY_MARK, False):
            logging.setLogRecordFactory(getattr(current, _PREVIOUS))
        for handler in _filtered_handlers:
            handler.removeFilter(FILTER)
        _filtered_handlers.clear()


@contextmanager
def redaction_held_off() -> Iterator[None]:
    """Nothing is redacted inside, whoever calls `install_redaction` (tests that prove a
    log capture sees the secrets an SDK logs; never for the app)."""
    global _held_off
    uninstall_redaction()
    with _lock:
        _held_off = True
    try:
        yield
    finally:
        with _lock:
            _held_off = False


def redaction_installed() -> bool:
    return _enabled


def redact_record(record: logging.LogRecord) -> None:
    """Mask secrets in the message, its arguments, the exception, the stack and `extra`."""
    _redact_extras(record)
    mark = (id(record.msg), id(record.args), _version)
    if getattr(record, _MARK, None) == mark:
        return  # checked at creation and unchanged since
    try:
        _redact_message(record)
    except Exception:
        record.msg, record.args = _WITHHELD, None
    try:
        _redact_exception(record)
    except Exception:
        record.exc_info, record.exc_text = None, _WITHHELD
    try:
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
    except Exception:
        record.stack_info = None
    setattr(record, _MARK, (id(record.msg), id(record.args), _version))


def _wrap(previous: Callable[..., logging.LogRecord]) -> Callable[..., logging.LogRecord]:
    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        if _enabled:
            redact_record(record)
        return record

    setattr(factory, _FACTORY_MARK, True)
    setattr(factory, _PREVIOUS, previous)
    return factory


def _redact_message(record: logging.LogRecord) -> None:
    try:
        message = record.getMessage()
    except Exception:
        # The caller's arguments don't fit its format: keep what can be shown, masked,
        # so logging's own error report cannot print a secret either.
        record.msg, record.args = redact(f"{record.msg!s} (arguments: {record.args!r})"), None
        return
    clean = redact(message)
    if clean == message:
        return
    if isinstance(record.msg, str) and redact(record.msg) == record.msg and record.args:
        # Mask the arguments one by one when that is enough: formatters that read
        # `record.args` (uvicorn's access log) keep working.
        masked = _mask_args(record.args)
        if masked is not None:
            try:
                again = record.msg % masked
            except Exception:
                again = None
            if again is not None and redact(again) == again:
                record.args = masked
                return
    record.msg, record.args = clean, None


def _mask_args(args: Any) -> Any:
    if isinstance(args, tuple):
        return tuple(_mask_arg(arg) for arg in args)
    if isinstance(args, Mapping):
        return {key: _mask_arg(value) for key, value in args.items()}
    return None


def _mask_arg(arg: Any) -> Any:
    if isinstance(arg, int | float | bool) or arg is None:
        return arg
    text = str(arg)
    clean = redact(text)
    return arg if clean == text else clean


def _redact_extras(record: logging.LogRecord) -> None:
    """String fields passed as `extra=` (set after the factory ran: the filter sees them)."""
    try:
        for name, value in list(vars(record).items()):
            if name not in _STANDARD_FIELDS and isinstance(value, str):
                clean = redact(value)
                if clean != value:
                    setattr(record, name, clean)
    except Exception:
        pass


def _redact_exception(record: logging.LogRecord) -> None:
    if record.exc_text:
        record.exc_text = redact(record.exc_text)
    if not record.exc_info or record.exc_info[0] is None:
        return
    text = "".join(traceback.format_exception(*record.exc_info)).rstrip("\n")
    clean = redact(text)
    if clean != text:
        # The formatted text replaces the exception: formatters print `exc_text` as is.
        record.exc_text, record.exc_info = clean, None


def _existing_handlers() -> Iterable[logging.Handler]:
    seen: list[logging.Handler] = list(logging.getLogger().handlers)
    for logger in list(logging.Logger.manager.loggerDict.values()):
        if isinstance(logger, logging.Logger):
            seen.extend(handler for handler in logger.handlers if handler not in seen)
    return seen


__all__ = [
    "FILTER",
    "MASK",
    "RedactingFilter",
    "install_redaction",
    "mask_url_password",
    "redact",
    "redact_record",
    "redaction_held_off",
    "redaction_installed",
    "register_secret",
    "register_secrets_from",
    "uninstall_redaction",
]
