"""The tool bench's form: one widget per field of a tool's input schema.

Every widget is keyed by the tool, so what you typed stays when the page runs again (and
when a value is refused). Numbers are typed as text, so an optional one can be left empty.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import streamlit as st

from swiggy_core.mcp.tool_form import (
    FormField,
    ToolForm,
    ToolFormError,
    arguments_of,
    initial_values,
    values_of,
)
from swiggy_ui.banners import coded_error
from swiggy_ui.safe_text import plain

NOT_SENT: Final = "(not sent)"
_PLACEHOLDERS: Final = {
    "number": "a number",
    "integer": "a whole number",
    "list": "one item a line",
    "json": "JSON",
}


def widget_key(form_key: str, field: FormField) -> str:
    return f"{form_key}-{field.name}"


def render_form(form: ToolForm, form_key: str, *, disabled: bool) -> dict[str, Any] | None:
    """The form; the arguments once Run is pressed with values that fit the schema, else
    None (a value that does not fit is named with its code, and stays in its box)."""
    start = initial_values(form)
    with st.form(form_key, border=True):
        if not form.fields:
            st.caption("This tool takes no arguments.")
        for field in form.fields:
            key = widget_key(form_key, field)
            if key not in st.session_state:
                st.session_state[key] = start[field.name]
            _widget(field, key, disabled)
        pressed = st.form_submit_button(
            "Run", type="primary", icon=":material/play_arrow:", disabled=disabled
        )
    if not pressed:
        return None
    values = {
        field.name: st.session_state.get(widget_key(form_key, field)) for field in form.fields
    }
    try:
        return arguments_of(form, values)
    except ToolFormError as error:
        coded_error(error.message, error.code, icon=":material/edit_off:")
        return None


def fill_form(form: ToolForm, form_key: str, arguments: Mapping[str, Any]) -> None:
    """Put an earlier run's arguments back in the form (before it is drawn)."""
    values = values_of(form, arguments)
    for field in form.fields:
        st.session_state[widget_key(form_key, field)] = values[field.name]


def _widget(field: FormField, key: str, disabled: bool) -> None:
    label = f"{field.name} (required)" if field.required else field.name
    help_text = plain(field.help) or None
    if field.kind == "enum":
        options = list(field.choices) if field.required else [None, *field.choices]
        st.selectbox(label, options, key=key, help=help_text, disabled=disabled,
                     format_func=_choice_text)  # fmt: skip
    elif field.kind == "boolean" and field.required:
        st.checkbox(label, key=key, help=help_text, disabled=disabled)
    elif field.kind == "boolean":
        st.selectbox(label, [None, True, False], key=key, help=help_text, disabled=disabled,
                     format_func=_choice_text)  # fmt: skip
    elif field.kind in ("list", "json"):
        st.text_area(label, key=key, help=help_text, disabled=disabled, height=100,
                     placeholder=_PLACEHOLDERS[field.kind])  # fmt: skip
    else:
        st.text_input(label, key=key, help=help_text, disabled=disabled,
                      placeholder=_PLACEHOLDERS.get(field.kind, ""))  # fmt: skip


def _choice_text(choice: object) -> str:
    if choice is None:
        return NOT_SENT
    if isinstance(choice, bool):
        return "true" if choice else "false"
    return str(choice)
