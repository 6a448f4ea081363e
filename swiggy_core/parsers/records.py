"""Bounded walks over decoded payloads: flatten categories and `card.info` nesting."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from swiggy_core.constants import PARSER_MAX_DEPTH, PARSER_MAX_ITEMS, PARSER_MAX_NODES
from swiggy_core.parsers._values import CONTAINER_TYPES

_INHERITABLE = (str, int)
_NESTED = CONTAINER_TYPES
RecordTest = Callable[[dict[str, Any]], bool]


@dataclass(slots=True)
class Found:
    """Records found by a walk, each with values inherited from its ancestors."""

    records: list[tuple[dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    truncated: bool = False


def iter_nodes(
    root: Any, budget: int = PARSER_MAX_NODES, is_leaf: RecordTest | None = None
) -> Iterator[dict[str, Any]]:
    """Every dict under `root`, depth-first in document order, within a node budget.

    Dicts passing `is_leaf` are yielded but not descended into (a product's own price
    and variation dicts say nothing new about the payload).
    """
    stack: list[tuple[Any, int]] = [(root, 0)]
    visited = 0
    while stack and visited < budget:
        node, depth = stack.pop()
        visited += 1
        if depth > PARSER_MAX_DEPTH:
            continue
        if isinstance(node, dict):
            yield node
            if is_leaf is not None and is_leaf(node):
                continue
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        depth += 1
        stack.extend([(c, depth) for c in reversed(children) if c and isinstance(c, _NESTED)])


def find_records(
    root: Any,
    is_record: RecordTest,
    *,
    inherit: dict[str, str] | None = None,
    skip_keys: frozenset[str] = frozenset(),
    limit: int = PARSER_MAX_ITEMS,
) -> Found:
    """Dicts that pass `is_record`, not descending into them; ancestors' scalars inherited.

    `inherit` maps an ancestor key (e.g. "title" of a menu category, "date" of a slot
    day) to the context name the record receives. The walk is depth- and node-bounded.
    """
    inherit = inherit or {}
    inherited_keys = frozenset(inherit)
    found = Found()
    stack: list[tuple[Any, int, dict[str, Any]]] = [(root, 0, {})]
    visited = 0
    tested: Any = None
    while stack and visited < PARSER_MAX_NODES:
        node, depth, context = stack.pop()
        visited += 1
        if depth > PARSER_MAX_DEPTH:
            continue
        if isinstance(node, list):
            depth += 1
            if depth <= PARSER_MAX_DEPTH:
                # A list of records (the usual shape) is read here, in order, with no
                # stack round trip; from its first other child on, the walk goes on.
                start, visited = _leading_records(node, is_record, found, limit, context, visited)
                if found.truncated:
                    break
                if start < len(node):
                    tested = node[start]  # not a record: not asked again when popped
                node = node[start:] if start else node
            stack.extend(
                [(c, depth, context) for c in reversed(node) if c and isinstance(c, _NESTED)]
            )
            continue
        if not isinstance(node, dict):
            continue
        if node is not tested and is_record(node):
            if len(found.records) >= limit:
                found.truncated = True
                break
            found.records.append((node, context))
            continue
        if inherit and not inherited_keys.isdisjoint(node):
            context = _inherited(node, inherit, context)
        depth += 1
        if len(node) == 1:  # a wrapper (`{"card": {...}}`): no list to build
            ((key, value),) = node.items()
            if value and isinstance(value, _NESTED) and key not in skip_keys:
                stack.append((value, depth, context))
            continue
        stack.extend(
            [
                (v, depth, context)
                for k, v in reversed(node.items())
                if v and isinstance(v, _NESTED) and k not in skip_keys
            ]
        )
    return found


def _leading_records(
    items: list[Any],
    is_record: RecordTest,
    found: Found,
    limit: int,
    context: dict[str, Any],
    visited: int,
) -> tuple[int, int]:
    """Records at the head of `items` added to `found`: (index of the first child left to
    walk, nodes visited). Counts and limits exactly as if each had been stacked."""
    records = found.records
    for index, child in enumerate(items):
        if not child or not isinstance(child, _NESTED):
            continue
        if visited >= PARSER_MAX_NODES or not isinstance(child, dict) or not is_record(child):
            return index, visited
        visited += 1
        if len(records) >= limit:
            found.truncated = True
            return len(items), visited
        records.append((child, context))
    return len(items), visited


def _inherited(
    node: dict[str, Any], inherit: dict[str, str], context: dict[str, Any]
) -> dict[str, Any]:
    if not inherit or not node.keys() & inherit.keys():
        return context
    updates = {
        name: node[key]
        for key, name in inherit.items()
        if isinstance(node.get(key), _INHERITABLE) and not isinstance(node.get(key), bool)
    }
    return {**context, **updates} if updates else context
