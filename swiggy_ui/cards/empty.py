"""A search that found nothing: a friendly card with what to try next.

Swiggy answers an empty search with a success and a count of zero ("Found 0 product(s)",
`totalRestaurants: 0`), which the parsers read as a status or as key facts. Shown as such
it was a "message / query / totalResults: 0" data card; here it says so in words.
"""

from __future__ import annotations

import re

import streamlit as st

from swiggy_core.parsers import InfoResult, StatusResult
from swiggy_core.verticals import Vertical
from swiggy_ui.safe_text import plain

EMPTY_TITLE = "Nothing found"
EMPTY_ICON = ":material/search_off:"
_COUNT_KEY = re.compile(r"total|count|found|results?$", re.IGNORECASE)
_ZERO_WORDS = re.compile(r"^(found )?(0|no|zero) \w+|\bnothing found\b|\bno (results|match)", re.I)
_QUERY_KEYS = ("query", "searchQuery", "keyword", "q")


def is_empty_search(result: StatusResult | InfoResult) -> bool:
    """True for a search tool's successful answer that found nothing."""
    if "search" not in result.tool_name.lower():
        return False
    if isinstance(result, StatusResult):
        return result.success and bool(_ZERO_WORDS.search(result.message.strip()))
    counts = [value for key, value in result.fields.items() if _COUNT_KEY.search(key)]
    message = result.fields.get("message", "")
    return any(value.strip() == "0" for value in counts) or bool(_ZERO_WORDS.search(message))


def searched_for(result: StatusResult | InfoResult) -> str | None:
    """What was searched, when the answer says ("for 'zzz'" or a `query` field)."""
    if isinstance(result, InfoResult):
        for key in _QUERY_KEYS:
            if result.fields.get(key):
                return result.fields[key]
    text = result.message if isinstance(result, StatusResult) else result.fields.get("message")
    found = re.search(r"for ['\u2018\u201c\"](.{1,80}?)['\u2019\u201d\"]", text or "")
    return found.group(1) if found else None


def render_empty_search(result: StatusResult | InfoResult, vertical: Vertical) -> None:
    query = searched_for(result)
    with st.container(border=True):
        what = f" for \u201c{plain(query)}\u201d" if query else ""
        st.markdown(f"{EMPTY_ICON} **{EMPTY_TITLE}{what}**")
        st.caption("Try " + "; ".join(vertical.empty_search_tips) + ".")
        examples = vertical.starter_prompts[:2]
        if examples:
            st.caption("Or ask: " + " · ".join(f"\u201c{plain(text)}\u201d" for text in examples))
