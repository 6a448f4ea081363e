"""A tool's JSON input schema as typed form fields, and a filled form back as arguments.

The tool bench draws one widget per field; what the person typed comes back here to be
converted (text to numbers, lines to lists, JSON text to objects) and validated against the
whole schema, so a bad value is named with its field and a code (E-1020), never sent.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from swiggy_core.errors import ErrorCode, UsageError

ScalarKind = Literal["string", "number", "integer", "boolean"]
# "list": an array of scalars, one item a line; "json": anything else, typed as JSON text.
FieldKind = Literal["string", "number", "integer", "boolean", "enum", "list", "json"]
SCALAR_KINDS: Final[tuple[ScalarKind, ...]] = ("string", "number", "integer", "boolean")
_TRUE_WORDS: Final = frozenset({"true", "yes", "on", "1"})
_FALSE_WORDS: Final = frozenset({"false", "no", "off", "0"})
logger = logging.getLogger(__name__)


class ToolFormError(UsageError):
    """A value of the form that cannot be sent; `field` names it (None: the whole form)."""

    code = ErrorCode.TOOL_FORM_INVALID

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True, slots=True)
class FormField:
    """One argument of a tool as a widget: its kind, help, default and choices."""

    name: str
    kind: FieldKind
    required: bool
    help: str = ""
    default: Any = None  # the schema's default (None: none, or null)
    choices: tuple[Any, ...] = ()  # an enum's values
    item_kind: ScalarKind | None = None  # a list's items


@dataclass(frozen=True, slots=True)
class ToolForm:
    """Every field of one tool's input schema, in the schema's order."""

    tool: str
    fields: tuple[FormField, ...]
    schema: Mapping[str, Any]


def tool_form(tool: str, schema: Mapping[str, Any]) -> ToolForm:
    """The form of a tool whose input schema is `schema` (an object schema)."""
    properties = schema.get("properties")
    required = schema.get("required")
    needed = set(required) if isinstance(required, list) else set()
    fields = tuple(
        form_field(str(name), prop, str(name) in needed)
        for name, prop in (properties.items() if isinstance(properties, dict) else ())
        if isinstance(prop, dict)
    )
    return ToolForm(tool=tool, fields=fields, schema=dict(schema))


def form_field(name: str, prop: Mapping[str, Any], required: bool) -> FormField:
    """One property of the schema as a field (a nullable `X` reads as an optional `X`)."""
    shape = _without_null(prop)
    kind, choices, item_kind = _kind_of(shape)
    return FormField(
        name=name,
        kind=kind,
        required=required,
        help=str(prop.get("description") or shape.get("description") or ""),
        default=prop.get("default"),
        choices=choices,
        item_kind=item_kind,
    )


def _without_null(prop: Mapping[str, Any]) -> Mapping[str, Any]:
    """`anyOf: [X, {type: null}]` as X; any other schema as it is."""
    options = prop.get("anyOf")
    if isinstance(options, list):
        kept = [o for o in options if isinstance(o, dict) and o.get("type") != "null"]
        if len(kept) == 1:
            return dict(kept[0])
    types = prop.get("type")
    if isinstance(types, list):
        kept_types = [t for t in types if t != "null"]
        if len(kept_types) == 1:
            return {**prop, "type": kept_types[0]}
    return prop


def _kind_of(shape: Mapping[str, Any]) -> tuple[FieldKind, tuple[Any, ...], ScalarKind | None]:
    enum = shape.get("enum")
    if isinstance(enum, list) and enum:
        return "enum", tuple(enum), None
    kind = shape.get("type")
    if kind in SCALAR_KINDS:
        return kind, (), None
    items = shape.get("items")
    if kind == "array" and isinstance(items, dict) and items.get("type") in SCALAR_KINDS:
        return "list", (), items["type"]
    return "json", (), None


# -- values (what the widgets hold) and arguments (what is sent) --------------------------
def initial_values(form: ToolForm) -> dict[str, Any]:
    """What each widget shows first: the schema's default, else nothing."""
    defaults = {f.name: f.default for f in form.fields if f.default is not None}
    return values_of(form, defaults)


def values_of(form: ToolForm, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The widget values that give back `arguments` (to fill the form from an earlier run)."""
    return {f.name: _widget_value(f, arguments.get(f.name)) for f in form.fields}


def _widget_value(field: FormField, value: Any) -> Any:
    if value is None:
        return False if field.kind == "boolean" and field.required else None
    if field.kind in ("enum", "boolean"):
        return value
    if field.kind == "list" and isinstance(value, list):
        return "\n".join(_scalar_text(item) for item in value)
    if field.kind == "json":
        return json.dumps(value, ensure_ascii=False, indent=2)
    return _scalar_text(value)


def _scalar_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def arguments_of(form: ToolForm, values: Mapping[str, Any]) -> dict[str, Any]:
    """The call's arguments from the widget values: converted, then checked against the
    schema. Raises ToolFormError (E-1020) naming the first field that is wrong."""
    arguments: dict[str, Any] = {}
    for field in form.fields:
        raw = values.get(field.name)
        if _blank(raw):
            if field.required:
                raise ToolFormError(f"{field.name}: fill this in.", field=field.name)
            continue
        arguments[field.name] = _converted(field, raw)
    _check(form, arguments)
    return arguments


def _blank(raw: Any) -> bool:
    return raw is None or (isinstance(raw, str) and not raw.strip())


def _converted(field: FormField, raw: Any) -> Any:
    if field.kind == "enum":
        if raw not in field.choices:
            raise ToolFormError(f"{field.name}: choose one of the listed values.", field=field.name)
        return raw
    if field.kind == "list":
        lines = raw if isinstance(raw, list) else str(raw).splitlines()
        kind = field.item_kind or "string"
        return [_scalar(field, kind, item) for item in lines if not _blank(item)]
    if field.kind == "json":
        return _json_value(field, raw)
    return _scalar(field, field.kind, raw)


def _scalar(field: FormField, kind: FieldKind, raw: Any) -> Any:
    if kind == "string":
        return raw if isinstance(raw, str) else str(raw)
    if kind == "boolean":
        return _boolean(field, raw)
    text = str(raw).strip()
    try:
        number = int(text) if kind == "integer" or _looks_whole(text) else float(text)
    except ValueError:
        noun = "a whole number" if kind == "integer" else "a number"
        raise ToolFormError(f"{field.name}: {text!r} is not {noun}.", field=field.name) from None
    if isinstance(number, float) and not math.isfinite(number):
        raise ToolFormError(f"{field.name}: {text!r} is not a finite number.", field=field.name)
    return number


def _looks_whole(text: str) -> bool:
    return text.lstrip("+-").isdigit()


def _boolean(field: FormField, raw: Any) -> bool:
    if isinstance(raw, bool):
        return raw
    word = str(raw).strip().lower()
    if word in _TRUE_WORDS or word in _FALSE_WORDS:
        return word in _TRUE_WORDS
    raise ToolFormError(f"{field.name}: {raw!r} is neither true nor false.", field=field.name)


def _json_value(field: FormField, raw: Any) -> Any:
    if not isinstance(raw, str):
        return raw
    try:
        return json.loads(raw)
    except ValueError as problem:
        raise ToolFormError(
            f"{field.name}: this is not valid JSON ({problem}).", field=field.name
        ) from None


def _check(form: ToolForm, arguments: dict[str, Any]) -> None:
    """Every rule of the schema (types, ranges, lengths, nested objects), first error named."""
    validator = Draft202012Validator(dict(form.schema))
    try:
        found = list(validator.iter_errors(arguments))
    except Exception:  # a schema this validator cannot read: the server checks its own input
        logger.warning("input schema of %s not checked: unreadable", form.tool[:80])
        return
    errors = sorted(found, key=lambda e: list(map(str, e.path)))
    if not errors:
        return
    error = errors[0]
    name = _field_of(error)
    where = f"{name}: " if name else ""
    raise ToolFormError(f"{where}{error.message}", field=name)


def _field_of(error: ValidationError) -> str | None:
    if error.path:
        return str(error.path[0])
    if error.validator == "required" and isinstance(error.instance, dict):
        missing = [n for n in error.validator_value if n not in error.instance]
        return str(missing[0]) if missing else None
    return None
