"""The Vertical record: one shopping experience (prompt, server, UI hints, tool policy)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Literal

from swiggy_core.constants import MCP_SERVERS, McpServerSpec
from swiggy_core.verticals.policy import ToolPolicy
from swiggy_core.verticals.profile import PromptProfile

DEFAULT_LOADING_LABEL = "Working on it…"

# What a search lists first: products (Instamart), dishes and the restaurants that deliver
# them (Swiggy Food: the payload decides which), or restaurants to book a table at.
SearchLists = Literal["products", "dishes", "restaurants"]
# What a price is for: one item (Food's plain numbers may be paise), or a table for two
# (Dineout's cost for two, always rupees).
PriceUnit = Literal["item", "table_for_two"]
# Which stand-in picture a product card shows when the browser can't load the real one.
ProductLook = Literal["grocery", "beauty"]

# What an empty search suggests trying next, unless the vertical says otherwise.
PRODUCT_SEARCH_TIPS = (
    "a shorter, more general name (\u201cprotein bar\u201d rather than a brand)",
    "another spelling",
    "one item at a time",
)


@dataclass(frozen=True, slots=True)
class Vertical:
    """A vertical as pages, the request builder and the approval gate see it."""

    id: str
    display_name: str
    # The page's URL path (/nutricart): bookmarks and tests open pages by it.
    slug: str
    tagline: str
    icon: str
    server_key: str
    profile: PromptProfile
    starter_prompts: tuple[str, ...]
    # Tool-name regex → label, tried in order (case-insensitive search).
    loading_labels: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    default_loading_label: str = DEFAULT_LOADING_LABEL
    tool_policy: ToolPolicy = field(default_factory=ToolPolicy)
    # How results read and show: the facts the parsers, summary and cards branch on.
    search_lists: SearchLists = "products"
    price_unit: PriceUnit = "item"
    product_look: ProductLook = "grocery"
    # Restaurant cards offer free slots (not a menu) and show no delivery time.
    books_tables: bool = False
    # The chat is about one restaurant at a time (its menu or its tables): the session
    # summary names it so the model keeps to it.
    tracks_restaurant: bool = False
    # Session-summary slots: how many people the request is for (a party, or servings),
    # and the vertical's own slot readers by name (conversation/_slots.py holds them).
    people_slot: str = "servings"
    slot_names: tuple[str, ...] = ()
    empty_search_tips: tuple[str, ...] = PRODUCT_SEARCH_TIPS

    def __post_init__(self) -> None:
        if self.server_key not in MCP_SERVERS:
            raise ValueError(f"unknown MCP server key {self.server_key!r} for {self.id!r}")
        # A read-only view so a shared catalog entry can't be edited by one page.
        object.__setattr__(self, "loading_labels", MappingProxyType(dict(self.loading_labels)))

    def __hash__(self) -> int:  # the generated hash would fail on the mapping field
        return hash(self.id)

    @property
    def server(self) -> McpServerSpec:
        """The MCP server this vertical's tools come from."""
        return MCP_SERVERS[self.server_key]

    def loading_label(self, tool_name: str | None) -> str:
        """The status label to show while `tool_name` runs."""
        if tool_name:
            for pattern, label in self.loading_labels.items():
                if _compiled(pattern).search(tool_name):
                    return label
        return self.default_loading_label


@lru_cache(maxsize=128)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)
