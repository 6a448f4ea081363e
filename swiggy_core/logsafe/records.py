"""Masking one log record: its message and arguments, exception, stack and `extra` fields."""

from __future__ import annotations

import logging
import traceback
from collections.abc import Mapping
from typing import Any

from swiggy_core.logsafe.masking import redact, secrets_version

_MARK = "_swiggy_redacted"
WITHHELD = "[log message withheld: it could not be checked for secrets]"
_STANDARD_FIELDS = frozenset(vars(logging.makeLogRecord({}))) | {"message", "asctime", _MARK}


def redact_record(record: logging.LogRecord) -> None:
    """Mask secrets in the message, its arguments, the exception, the stack and `extra`."""
    _redact_extras(record)
    mark = (id(record.msg), id(record.args), secrets_version())
    if getattr(record, _MARK, None) == mark:
        return  # checked at creation and unchanged since
    try:
        _redact_message(record)
    except Exception:
        record.msg, record.args = WITHHELD, None
    try:
        _redact_exception(record)
    except Exception:
        record.exc_info, record.exc_text = None, WITHHELD
    try:
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
    except Exception:
        record.stack_info = None
    setattr(record, _MARK, (id(record.msg), id(record.args), secrets_version()))


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
