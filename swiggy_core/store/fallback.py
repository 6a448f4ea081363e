"""Open the chat store, or a temporary one when the default file cannot be written.

The default database is `swiggy_assistant.db` in the working directory, which hosted
platforms often mount read-only. Rather than leave the person with no chat at all, the app
then keeps its chats in an SQLite file in the system's temporary directory (one stable name,
so every session of the process shares it) and says, on every page, that they will not
survive a restart (E-4106). A database the operator chose is never replaced: its fault
reaches the page as a coded stop, like any other.
"""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path
from typing import Final

from swiggy_core.errors import ErrorCode
from swiggy_core.store.chat_store import ChatStore
from swiggy_core.store.database import sqlite_file
from swiggy_core.store.faults import StoreError

logger = logging.getLogger(__name__)

TEMPORARY_DATABASE_NAME: Final = "swiggy_assistant_temporary.db"
TEMPORARY_STORE_MESSAGE: Final = (
    "Your chats are saved only until this app restarts: its folder cannot be written, so a "
    "temporary database holds them. To keep them, whoever runs the app can set "
    "SWIGGY_DATABASE_URL to a database that lasts (PostgreSQL on a hosted platform)."
)
# The faults that mean "this file cannot be created or written", not "the data is broken".
_UNWRITABLE: Final = frozenset({ErrorCode.STORE_MISSING, ErrorCode.STORE_READ_ONLY})


def temporary_database_url() -> str:
    """The SQLite URL of the shared temporary database."""
    return f"sqlite:///{Path(tempfile.gettempdir()) / TEMPORARY_DATABASE_NAME}"


def open_chat_store(database_url: str, *, is_default: bool) -> tuple[ChatStore, bool]:
    """The store for `database_url` and whether it is the temporary stand-in.

    Only for the default URL (`is_default`) is a file that cannot be created or written
    replaced; any other fault, and every fault of a URL someone chose, raises StoreError.
    """
    file = sqlite_file(database_url) if is_default else None
    if file is None:
        return ChatStore(database_url), False
    if _cannot_write(file):
        return _temporary(None), True
    try:
        return ChatStore(database_url), False
    except StoreError as error:
        if error.code not in _UNWRITABLE:
            raise
        return _temporary(error), True


def _cannot_write(file: Path) -> bool:
    """True when SQLite could not write `file` or the journal beside it.

    Tried for real rather than asked of `os.access`: its answer for root ignores the mode
    bits that SQLite will meet, and a folder that opens (reads) may still take no new file.
    """
    try:
        with tempfile.TemporaryFile(dir=file.parent):
            pass
        if file.exists():
            with open(file, "ab"):  # appends nothing: only checks that writing is allowed
                pass
    except OSError:
        return True
    return False


def _temporary(cause: StoreError | None) -> ChatStore:
    url = temporary_database_url()
    logger.warning(
        "[%s] The default chat database cannot be written%s; chats are kept in %s until "
        "the app restarts.",
        ErrorCode.STORE_TEMPORARY,
        f" ({cause.code})" if cause is not None else "",
        url,
    )
    try:
        return ChatStore(url)
    except StoreError:
        if cause is not None:
            raise cause from None  # the person should hear about the database they use
        raise
