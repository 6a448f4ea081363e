"""Redaction put into `logging`: the record factory wrapped, a filter on every handler."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from swiggy_core.logsafe.masking import register_secrets_from
from swiggy_core.logsafe.records import redact_record

_FACTORY_MARK = "_swiggy_redacting"
_PREVIOUS = "_swiggy_previous"
_lock = threading.Lock()
_enabled = False
_held_off = False  # `redaction_held_off`: install_redaction only registers secrets
_filtered_handlers: list[logging.Handler] = []


class RedactingFilter(logging.Filter):
    """Redacts the record in place; never drops one and never raises."""

    def filter(self, record: logging.LogRecord) -> bool:
        redact_record(record)
        return True


FILTER = RedactingFilter()


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


def _wrap(previous: Callable[..., logging.LogRecord]) -> Callable[..., logging.LogRecord]:
    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        if _enabled:
            redact_record(record)
        return record

    setattr(factory, _FACTORY_MARK, True)
    setattr(factory, _PREVIOUS, previous)
    return factory


def _existing_handlers() -> Iterable[logging.Handler]:
    seen: list[logging.Handler] = list(logging.getLogger().handlers)
    for logger in list(logging.Logger.manager.loggerDict.values()):
        if isinstance(logger, logging.Logger):
            seen.extend(handler for handler in logger.handlers if handler not in seen)
    return seen
