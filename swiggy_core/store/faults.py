"""Database faults become one coded `StoreError` with a message a person can act on.

The driver's own text never reaches the message: it can hold SQL, values or, for a
server, parts of the connection address. A database that is not there (a deleted SQLite
file, a dropped PostgreSQL database) is "missing" (E-4104); a server that does not answer
(refused, wrong host, connect timeout, shutting down) is "unreachable" (E-4105): the first
needs the setting or the data fixed, the second usually only the server started.
"""

from __future__ import annotations

import re
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from sqlalchemy import exc

from swiggy_core.errors import DEFAULT_MESSAGES, ErrorCode, StorageError

# SQLite primary result codes (the low byte of the extended code).
_SQLITE_CODES: Final[dict[int, ErrorCode]] = {
    5: ErrorCode.STORE_BUSY,  # SQLITE_BUSY
    6: ErrorCode.STORE_BUSY,  # SQLITE_LOCKED
    8: ErrorCode.STORE_READ_ONLY,  # SQLITE_READONLY
    14: ErrorCode.STORE_MISSING,  # SQLITE_CANTOPEN
}
# PostgreSQL SQLSTATE values and classes.
_SQLSTATES: Final[dict[str, ErrorCode]] = {
    "25006": ErrorCode.STORE_READ_ONLY,  # read_only_sql_transaction
    "40001": ErrorCode.STORE_BUSY,  # serialization_failure
    "40P01": ErrorCode.STORE_BUSY,  # deadlock_detected
    "55P03": ErrorCode.STORE_BUSY,  # lock_not_available (lock_timeout)
    "57014": ErrorCode.STORE_BUSY,  # query_canceled (statement_timeout)
    "53300": ErrorCode.STORE_BUSY,  # too_many_connections
    "3D000": ErrorCode.STORE_MISSING,  # invalid_catalog_name: no such database
    "57P01": ErrorCode.STORE_UNREACHABLE,  # admin_shutdown
    "57P02": ErrorCode.STORE_UNREACHABLE,  # crash_shutdown
    "57P03": ErrorCode.STORE_UNREACHABLE,  # cannot_connect_now (starting up)
}
# psycopg gives a refusal the server sends while connecting (no such database, wrong
# password) no SQLSTATE; libpq words it "… failed: SEVERITY:  text" (two spaces). A server
# that answered is reachable: the database or the login is what is wrong.
_SERVER_ANSWERED_RE: Final = re.compile(r"failed: [^\s:]+:  ")
_SQLSTATE_CLASSES: Final[dict[str, ErrorCode]] = {
    "08": ErrorCode.STORE_UNREACHABLE,  # connection exceptions
    "28": ErrorCode.STORE_MISSING,  # invalid authorization
}


def _psycopg_errors() -> tuple[tuple[type[Exception], ...], tuple[type[Exception], ...]]:
    """psycopg's (base, operational) errors once a PostgreSQL URL has loaded the driver.

    The driver loads only for a PostgreSQL URL (SQLite needs nothing extra), and none of
    its errors can exist before it has loaded, so this never imports it.
    """
    psycopg = sys.modules.get("psycopg")
    if psycopg is None:
        return (), ()
    return (psycopg.Error,), (psycopg.OperationalError,)


def _database_errors() -> tuple[type[Exception], ...]:
    return (exc.SQLAlchemyError, sqlite3.Error, *_psycopg_errors()[0])


class StoreError(StorageError):
    """The chat database failed; `code` says how (E-41xx)."""

    code = ErrorCode.STORE_FAILED


def store_error(code: ErrorCode, message: str | None = None) -> StoreError:
    return StoreError(message or DEFAULT_MESSAGES[code], code=code)


def classify(error: BaseException) -> ErrorCode:
    """Which E-41xx code a database exception deserves."""
    if isinstance(error, exc.TimeoutError):  # no pooled connection came free in time
        return ErrorCode.STORE_BUSY
    cause = error.orig if isinstance(error, exc.DBAPIError) and error.orig else error
    if isinstance(cause, sqlite3.Error):
        extended = getattr(cause, "sqlite_errorcode", None)
        if isinstance(extended, int):
            return _SQLITE_CODES.get(extended & 0xFF, ErrorCode.STORE_FAILED)
        return ErrorCode.STORE_FAILED
    sqlstate = getattr(cause, "sqlstate", None)
    if isinstance(sqlstate, str):
        if sqlstate in _SQLSTATES:
            return _SQLSTATES[sqlstate]
        return _SQLSTATE_CLASSES.get(sqlstate[:2], ErrorCode.STORE_FAILED)
    if isinstance(error, exc.OperationalError) or isinstance(cause, _psycopg_errors()[1]):
        # No SQLSTATE (SQLite's were handled above): refused, unknown host, timed out.
        if _SERVER_ANSWERED_RE.search(str(cause)):
            return ErrorCode.STORE_MISSING
        return ErrorCode.STORE_UNREACHABLE
    return ErrorCode.STORE_FAILED


def is_conflict(error: StoreError) -> bool:
    """True when the database refused a row because another writer got there first."""
    return isinstance(error.__cause__, exc.IntegrityError)


@contextmanager
def translated_faults() -> Iterator[None]:
    """Turn any database exception raised inside the block into a StoreError."""
    try:
        yield
    except StoreError:
        raise
    except Exception as error:
        if not isinstance(error, _database_errors()):
            raise
        raise store_error(classify(error)) from error
