"""Verticals: prompt profiles and their compiler, shared rules, the catalog, tool policy."""

from swiggy_core.verticals.catalog import (
    VERTICALS,
    build_system_prompt,
    find_vertical,
    get_vertical,
    register_vertical,
    unregister_vertical,
)
from swiggy_core.verticals.policy import DEFAULT_MONEY_TOOLS, ToolPolicy
from swiggy_core.verticals.profile import PromptProfile, compile_prompt_profile
from swiggy_core.verticals.rules import COD_RULE, SHARED_RULES, RuleSection
from swiggy_core.verticals.vertical import Vertical

__all__ = [
    "COD_RULE",
    "DEFAULT_MONEY_TOOLS",
    "SHARED_RULES",
    "VERTICALS",
    "PromptProfile",
    "RuleSection",
    "ToolPolicy",
    "Vertical",
    "build_system_prompt",
    "compile_prompt_profile",
    "find_vertical",
    "get_vertical",
    "register_vertical",
    "unregister_vertical",
]
