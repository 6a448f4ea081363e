"""Tool descriptions built once per process, not once per sandbox.

Registering a tool makes the MCP SDK build a pydantic model of the function's arguments
and its JSON schema (about 0.2 s of CPU for the three servers). The sandbox registers the
same functions, defined inside its server factories, each time it starts: every test that
gets a fresh shop, and every app start. A function defined by the same code, with the
same defaults and registered the same way, gets the same description, so the first one
built serves as a template and later ones only swap in their own function.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from mcp.server.mcpserver.tools import Tool

_templates: dict[Hashable, Tool] = {}


def template_key(fn: Callable[..., Any], options: tuple[Any, ...]) -> Hashable | None:
    """What the description depends on, or None when it cannot be compared safely."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return None
    key = (code, fn.__defaults__, repr(fn.__kwdefaults__), repr(options))
    try:
        hash(key)
    except TypeError:  # a default that is a list or a dict
        return None
    return key


def from_template(key: Hashable | None, fn: Callable[..., Any]) -> Tool | None:
    """A copy of the template for `key` that calls `fn`, if one was built."""
    template = _templates.get(key) if key is not None else None
    return None if template is None else template.model_copy(update={"fn": fn})


def keep_template(key: Hashable | None, tool: Tool | None) -> None:
    if key is not None and tool is not None:
        _templates[key] = tool
