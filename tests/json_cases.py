"""Hypothesis cases for the properties of shrinking a tool result: a JSON value dumped
compact or indented, a size limit and a search query."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

# Many examples of deep values: slow to generate, and no deadline on a loaded machine.
MANY_JSON_EXAMPLES = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


ANY_KEY = st.text(max_size=12)


@dataclass(frozen=True)
class JsonCase:
    value: Any  # what was dumped
    text: str  # `value` as JSON, compact or indented
    limit: int
    query: str


def json_values(max_leaves: int, keys: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
    return st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(),
        lambda children: (
            st.lists(children, max_size=8) | st.dictionaries(keys, children, max_size=8)
        ),
        max_leaves=max_leaves,
    )


@st.composite
def json_cases(
    draw: st.DrawFn,
    *,
    max_leaves: int,
    max_limit: int,
    keys: st.SearchStrategy[str] = ANY_KEY,
) -> JsonCase:
    value = draw(json_values(max_leaves, keys))
    text = json.dumps(value, indent=draw(st.sampled_from([None, 2])), ensure_ascii=False)
    limit = draw(st.integers(min_value=0, max_value=max_limit))
    return JsonCase(value, text, limit, draw(st.text(max_size=20)))
