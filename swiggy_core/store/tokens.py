"""Remembered Swiggy tokens: one encrypted blob per (user, backend), never plaintext."""

from __future__ import annotations

from sqlalchemy import delete, select

from swiggy_core.store.database import Database, upsert
from swiggy_core.store.schema import remembered_tokens, utc_now


def save_token(db: Database, user_id: str, backend: str, ciphertext: str) -> None:
    """Keep (or replace) the encrypted token of `user_id` for `backend`."""
    row = {
        "user_id": user_id,
        "backend": backend,
        "ciphertext": ciphertext,
        "updated_at": utc_now(),
    }
    keys = [remembered_tokens.c.user_id, remembered_tokens.c.backend]
    with db.write() as conn:
        conn.execute(upsert(db.dialect, remembered_tokens, row, keys, ["ciphertext", "updated_at"]))


def load_token(db: Database, user_id: str, backend: str) -> str | None:
    """The encrypted token of `user_id` for `backend`, or None."""
    query = select(remembered_tokens.c.ciphertext).where(
        remembered_tokens.c.user_id == user_id, remembered_tokens.c.backend == backend
    )
    with db.read() as conn:
        value = conn.execute(query).scalar_one_or_none()
    return None if value is None else str(value)


def forget_token(db: Database, user_id: str, backend: str) -> None:
    """Remove the remembered token of `user_id` for `backend` (nothing if there is none)."""
    with db.write() as conn:
        conn.execute(
            delete(remembered_tokens).where(
                remembered_tokens.c.user_id == user_id, remembered_tokens.c.backend == backend
            )
        )
