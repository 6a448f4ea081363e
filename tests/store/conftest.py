"""Store fixtures: every store test runs on an SQLite file and on a real PostgreSQL.

A test's PostgreSQL database is a copy of one the store has already migrated (made once
per session), unless the test is marked `empty_database`: it builds an older schema itself
and watches the store migrate it. Migrating afresh for each test cost about as much as
the rest of the test together.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import psycopg
import pytest
from closing_factory import closing_factory
from storehelpers import libpq_url, sqlalchemy_url

from swiggy_core.store import ChatStore


@pytest.fixture(scope="session")
def migrated_template(postgres_url: str) -> Iterator[str]:
    """The name of a database the store has migrated: what each test's database copies."""
    name = f"store_template_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(libpq_url(postgres_url), autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    ChatStore(sqlalchemy_url(postgres_url, name)).close()  # a copy needs no one connected
    try:
        yield name
    finally:
        with psycopg.connect(libpq_url(postgres_url), autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def postgres_database(request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh PostgreSQL database for one test, dropped afterwards: migrated by the
    store already, or empty for a test marked `empty_database`."""
    server_url: str = request.getfixturevalue("postgres_url")
    name = f"store_{uuid.uuid4().hex[:12]}"
    copied = ""
    if request.node.get_closest_marker("empty_database") is None:
        copied = f" TEMPLATE {request.getfixturevalue('migrated_template')}"
    with psycopg.connect(libpq_url(server_url), autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}{copied}")
    try:
        yield sqlalchemy_url(server_url, name)
    finally:
        with psycopg.connect(libpq_url(server_url), autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def sqlite_file(tmp_path: Path) -> Path:
    return tmp_path / "chats.db"


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, sqlite_file: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{sqlite_file}"
    url: str = request.getfixturevalue("postgres_database")
    return url


@pytest.fixture
def open_store(database_url: str) -> Iterator[Callable[..., ChatStore]]:
    """Opens ChatStores on this test's database (each its own engine, like another tab
    or process) and closes them all at the end."""
    with closing_factory(partial(ChatStore, database_url)) as open_one:
        yield open_one


@pytest.fixture
def store(open_store: Callable[..., ChatStore]) -> ChatStore:
    return open_store()
