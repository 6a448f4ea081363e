"""A fresh, empty PostgreSQL database on the test server, dropped afterwards (importable
from every test folder: tests/ is on sys.path through its conftest)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from sqlalchemy.engine import make_url


@contextmanager
def new_database(server_url: str, prefix: str) -> Iterator[str]:
    """Yields the SQLAlchemy URL (psycopg 3) of a new database named `prefix_<random>`."""
    server = make_url(server_url)
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = server.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    try:
        yield server.set(drivername="postgresql+psycopg", database=name).render_as_string(
            hide_password=False
        )
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
