"""The Vertical record: one shopping experience (prompt, server, UI hints, tool policy)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType

from swiggy_core.constants import MCP_SERVERS, McpServerSpec
from swiggy_core.verticals.policy import ToolPolicy
from swiggy_core.verticals.profile import PromptProfile

DEFAULT_LOADING_LABEL = "Working on it…"


@dataclass(frozen=True, slots=True)
class Vertical:
    """A vertical as pages, the request builder and the approval gate see it."""

    id: str
    display_name: str
    tagline: str
    icon: str
    server_key: str
    profile: PromptProfile
    starter_prompts: tuple[str, ...]
    # Tool-name regex → label, tried in order (case-insensitive search).
    loading_labels: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    default_loading_label: str = DEFAULT_LOADING_LABEL
    tool_policy: ToolPolicy = field(default_factory=ToolPolicy)

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
