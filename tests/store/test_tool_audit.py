"""The audit of every tool call in the store: migration 5, redaction, queries, CSV.

Each test runs on an SQLite file and on a real PostgreSQL (tests/store/conftest.py).
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import create_engine, inspect, text
from test_store_migrations import _make_old_database

from swiggy_core.logsafe import register_secret
from swiggy_core.store import ChatStore
from swiggy_core.store.tool_audit import ToolCallEntry, tool_calls_csv, world_of

AT = datetime(2026, 11, 20, 7, 30, tzinfo=UTC)


def entry(**changes: object) -> ToolCallEntry:
    fields: dict[str, object] = {
        "at": AT,
        "user_id": "u-alice@sandbox",
        "world": "sandbox",
        "vertical_id": "food",
        "conversation_id": "c-1",
        "server": "instamart",
        "tool": "search_products",
        "arguments": {"query": "milk", "addressId": "addr_home"},
        "outcome": "ok",
        "duration_ms": 41.6,
        "error_code": None,
    }
    fields.update(changes)
    return ToolCallEntry(**fields)  # type: ignore[arg-type]


@pytest.mark.empty_database
def test_migration_5_adds_the_table_and_its_index_to_an_old_database(database_url, open_store):
    _make_old_database(database_url)
    store = open_store()
    inspector = inspect(store.engine)
    columns = {column["name"] for column in inspector.get_columns("tool_calls")}
    assert columns == {
        "id", "at", "user_id", "world", "vertical_id", "conversation_id", "server", "tool",
        "arguments", "outcome", "duration_ms", "error_code",
    }  # fmt: skip
    (index,) = [
        i for i in inspector.get_indexes("tool_calls") if i["name"] == "ix_tool_calls_user_id"
    ]
    assert index["column_names"] == ["user_id", "id"]
    with store.engine.connect() as conn:
        versions = conn.execute(text("SELECT version FROM schema_version ORDER BY 1")).scalars()
        assert 5 in list(versions)
    # The old rows are untouched and the new table works at once.
    assert store.audit_entries("alice") == [("confirm", {"n": 1})]
    store.record_tool_call(entry())
    assert [e.tool for e in store.tool_calls("u-alice@sandbox")] == ["search_products"]


def test_an_entry_reads_back_whole_and_newest_first(store: ChatStore):
    store.record_tool_call(entry())
    store.record_tool_call(
        entry(
            at=AT + timedelta(seconds=5),
            tool="update_cart",
            arguments={"items": [{"spinId": "s1", "quantity": 2}]},
            outcome="error",
            duration_ms=120.0,
            error_code="E-3107",
        )
    )
    newest, oldest = store.tool_calls("u-alice@sandbox")
    assert oldest == entry()
    assert (newest.tool, newest.outcome, newest.error_code) == ("update_cart", "error", "E-3107")
    assert newest.arguments == {"items": [{"spinId": "s1", "quantity": 2}]}
    assert newest.at == AT + timedelta(seconds=5) and newest.at.tzinfo is not None


def test_filters_limit_and_people_are_kept_apart(store: ChatStore):
    for second, (server, tool, outcome) in enumerate(
        [
            ("instamart", "search_products", "ok"),
            ("instamart", "update_cart", "denied"),
            ("food", "search_restaurants", "ok"),
            ("food", "search_restaurants", "error"),
        ]
    ):
        at = AT + timedelta(minutes=second)
        store.record_tool_call(entry(at=at, server=server, tool=tool, outcome=outcome))
    store.record_tool_call(entry(user_id="u-bob@sandbox", tool="get_cart"))

    def tools(**filters: object) -> list[str]:
        found = store.tool_calls("u-alice@sandbox", **filters)  # type: ignore[arg-type]
        return [f"{e.server}/{e.tool}/{e.outcome}" for e in found]

    assert len(tools()) == 4
    assert tools(server="food") == ["food/search_restaurants/error", "food/search_restaurants/ok"]
    assert tools(tool="update_cart") == ["instamart/update_cart/denied"]
    assert tools(outcome="denied") == ["instamart/update_cart/denied"]
    assert tools(since=AT + timedelta(minutes=2)) == [
        "food/search_restaurants/error",
        "food/search_restaurants/ok",
    ]
    assert tools(limit=1) == ["food/search_restaurants/error"]
    assert [e.tool for e in store.tool_calls("u-bob@sandbox")] == ["get_cart"]
    assert store.tool_calls("u-nobody@sandbox") == []


def test_credentials_in_arguments_never_reach_the_table(store: ChatStore, database_url: str):
    token = "sbx-audit-secret-token-4417"
    register_secret(token)
    arguments = {
        "query": f"milk {token}",
        "headers": {"Authorization": "Bearer abc.def.ghi"},
        "api_key": "sk-ant-api03-very-secret",
        "note": "Bearer xyz123 and sk-ant-admin-zzz",
    }
    store.record_tool_call(entry(arguments=arguments))
    (stored,) = store.tool_calls("u-alice@sandbox")
    assert stored.arguments["query"].startswith("milk ")
    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            raw = conn.execute(text("SELECT arguments FROM tool_calls")).scalar_one()
    finally:
        engine.dispose()
    for secret in (token, "abc.def.ghi", "sk-ant-api03", "xyz123", "sk-ant-admin"):
        assert secret not in raw


def test_csv_export_has_a_header_and_every_entry(store: ChatStore):
    store.record_tool_call(entry())
    store.record_tool_call(
        entry(tool="update_cart", outcome="denied", error_code="E-3207", duration_ms=0.0)
    )
    exported = tool_calls_csv(store.tool_calls("u-alice@sandbox"))
    rows = list(csv.DictReader(io.StringIO(exported)))
    assert [row["tool"] for row in rows] == ["update_cart", "search_products"]
    denied, ok = rows
    assert (denied["outcome"], denied["error_code"], denied["duration_ms"]) == (
        "denied",
        "E-3207",
        "0",
    )
    assert ok == {
        "at": "2026-11-20T07:30:00+00:00",
        "world": "sandbox",
        "page": "food",
        "conversation": "c-1",
        "server": "instamart",
        "tool": "search_products",
        "outcome": "ok",
        "duration_ms": "42",
        "error_code": "",
        "arguments": '{"addressId": "addr_home", "query": "milk"}',
    }


def test_csv_cells_never_start_a_spreadsheet_formula():
    exported = tool_calls_csv([entry(tool="=HYPERLINK(1)", conversation_id="@cmd")])
    (row,) = list(csv.DictReader(io.StringIO(exported)))
    assert row["tool"] == "'=HYPERLINK(1)" and row["conversation"] == "'@cmd"


def test_csv_cells_behind_spaces_or_a_line_break_never_start_a_formula_either():
    # A spreadsheet skips leading spaces before a formula; a line break opens a new line.
    exported = tool_calls_csv([entry(tool="  =HYPERLINK(1)", conversation_id="\n=cmd")])
    (row,) = list(csv.DictReader(io.StringIO(exported)))
    assert row["tool"] == "'  =HYPERLINK(1)" and row["conversation"] == "'\n=cmd"


def test_the_world_is_read_from_the_store_user_id():
    assert world_of("u-1a2b@sandbox") == "sandbox"
    assert world_of("b-xyz@swiggy") == "swiggy"
    assert world_of("alice") == world_of("me@example.com") == ""
