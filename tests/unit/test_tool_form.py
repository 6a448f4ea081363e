"""The tool bench's form: a form for every sandbox tool's input schema, filled and sent back
as arguments that fit the schema; bad values refused with E-1020 naming their field."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import jsonschema
import pytest

from swiggy_core.errors import ErrorCode
from swiggy_core.mcp import McpManager, MemoryServer
from swiggy_core.mcp.tool_form import (
    FormField,
    ToolForm,
    ToolFormError,
    arguments_of,
    initial_values,
    tool_form,
    values_of,
)
from swiggy_sandbox.servers import build_server
from swiggy_sandbox.servers.registry import SERVER_KEYS
from swiggy_sandbox.shop import Shop


@pytest.fixture(scope="module")
def sandbox_tools() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """Every tool every sandbox server lists, as the manager lists it: (server, tool)."""
    manager, shop = McpManager(), Shop()
    try:
        yield [
            (key, tool)
            for key in SERVER_KEYS
            for tool in manager.list_tools(MemoryServer(key, build_server(key, shop)))
        ]
    finally:
        manager.close()
        shop.close()


def _sample(schema: Mapping[str, Any], defs: Mapping[str, Any]) -> Any:
    """A value that fits `schema` (the test's own reading of JSON Schema, not the app's)."""
    if "$ref" in schema:
        return _sample(defs[str(schema["$ref"]).rsplit("/", 1)[-1]], defs)
    if "anyOf" in schema:
        return _sample(next(s for s in schema["anyOf"] if s.get("type") != "null"), defs)
    if "enum" in schema:
        return schema["enum"][-1]
    kind = schema.get("type")
    if kind == "object":
        props = schema.get("properties", {})
        return {name: _sample(props[name], defs) for name in schema.get("required", [])}
    if kind == "array":
        return [_sample(schema.get("items", {"type": "string"}), defs)]
    return {"string": "abc", "integer": 3, "number": 12.5, "boolean": True}.get(str(kind), "x")


def _typed(field: FormField, value: Any) -> Any:
    """What a person types in the field's widget to mean `value`."""
    if field.kind in ("enum", "boolean"):
        return value
    if field.kind == "list":
        return "\n".join(str(item) for item in value)
    if field.kind == "json":
        return json.dumps(value)
    return str(value)


def _filled(form: ToolForm, *, every: bool) -> dict[str, Any]:
    defs = form.schema.get("$defs", {})
    props = form.schema.get("properties", {})
    return {
        f.name: _typed(f, _sample(props[f.name], defs)) for f in form.fields if every or f.required
    }


def test_every_sandbox_tool_gets_a_form_that_round_trips(sandbox_tools) -> None:
    assert len(sandbox_tools) > 40
    kinds: set[str] = set()
    for server, tool in sandbox_tools:
        schema = tool["input_schema"]
        form = tool_form(tool["name"], schema)
        assert [f.name for f in form.fields] == list(schema.get("properties", {})), tool["name"]
        assert {f.name for f in form.fields if f.required} == set(schema.get("required", []))
        kinds |= {f.kind for f in form.fields}
        for every in (False, True):
            arguments = arguments_of(form, _filled(form, every=every))
            jsonschema.validate(arguments, schema)  # fits, by the library's own reading
            again = arguments_of(form, values_of(form, arguments))
            assert again == arguments, f"{server}/{tool['name']}"
        # The defaults alone, with what is required filled, also fit.
        start = {**initial_values(form), **_filled(form, every=False)}
        jsonschema.validate(arguments_of(form, start), schema)
    # The sandbox's schemas exercise every kind of field the bench draws but a plain list.
    assert {"string", "number", "integer", "boolean", "enum", "json"} <= kinds


def test_a_default_fills_its_field_and_a_nullable_field_is_optional(sandbox_tools) -> None:
    listed = {(server, tool["name"]): tool for server, tool in sandbox_tools}
    orders = tool_form("get_orders", listed[("instamart", "get_orders")]["input_schema"])
    assert initial_values(orders) == {"count": "10", "orderType": "DASH", "activeOnly": False}
    slots = listed[("food", "search_restaurants")]["input_schema"]
    collection = next(f for f in tool_form("x", slots).fields if f.name == "collection")
    assert collection.kind == "enum" and not collection.required
    assert "EATRIGHT" in collection.choices


LIST_SCHEMA = {
    "type": "object",
    "properties": {
        "ids": {"type": "array", "items": {"type": "integer"}, "description": "Item ids."},
        "size": {"type": "integer", "minimum": 1, "maximum": 5},
        "ratio": {"type": "number"},
        "mode": {"enum": ["fast", "slow"]},
        "flag": {"type": "boolean"},
        "extra": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
    },
    "required": ["ids", "mode"],
}


def test_a_list_of_scalars_is_one_item_a_line() -> None:
    form = tool_form("t", LIST_SCHEMA)
    ids = form.fields[0]
    assert (ids.kind, ids.item_kind, ids.help) == ("list", "integer", "Item ids.")
    values = {"ids": "4\n\n 7 \n", "mode": "slow", "ratio": "2.5", "flag": False}
    arguments = arguments_of(form, values)
    assert arguments == {"ids": [4, 7], "mode": "slow", "ratio": 2.5, "flag": False}
    assert values_of(form, arguments)["ids"] == "4\n7"


@pytest.mark.parametrize(
    ("values", "field", "says"),
    [
        ({"mode": "fast"}, "ids", "fill this in"),
        ({"ids": "1\ntwo", "mode": "fast"}, "ids", "'two' is not a whole number"),
        ({"ids": "1", "mode": "medium"}, "mode", "choose one of"),
        ({"ids": "1", "mode": "fast", "size": "9"}, "size", "9 is greater than the maximum"),
        ({"ids": "1", "mode": "fast", "size": "1.5"}, "size", "not a whole number"),
        ({"ids": "1", "mode": "fast", "ratio": "nan"}, "ratio", "not a finite number"),
        ({"ids": "1", "mode": "fast", "flag": "maybe"}, "flag", "neither true nor false"),
        ({"ids": "1", "mode": "fast", "extra": "{nope"}, "extra", "not valid JSON"),
        ({"ids": "1", "mode": "fast", "extra": "{}"}, "extra", "'a' is a required property"),
    ],
)
def test_a_bad_value_is_refused_with_its_code_and_field(values, field, says) -> None:
    with pytest.raises(ToolFormError) as refused:
        arguments_of(tool_form("t", LIST_SCHEMA), values)
    assert refused.value.code == ErrorCode.TOOL_FORM_INVALID == "E-1020"
    assert refused.value.field == field
    assert says in refused.value.message and refused.value.message.startswith(field)


UNREADABLE = [
    {"type": "frobnicate"},
    {"$ref": "#/$defs/Missing"},
    {"type": "string", "pattern": "("},
]


@pytest.mark.parametrize("prop", UNREADABLE)
def test_a_schema_the_validator_cannot_read_leaves_the_check_to_the_server(prop) -> None:
    form = tool_form("odd", {"type": "object", "properties": {"a": prop}})
    assert arguments_of(form, {"a": '"x"'}) in ({"a": "x"}, {"a": '"x"'})
