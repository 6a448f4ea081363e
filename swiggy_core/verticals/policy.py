"""Which tools spend money (or book something) and so stay off until confirmed."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from swiggy_core.shops import money_tools

# Not idempotent and not cancellable (SWIGGY_FACTS): always behind the approval gate,
# whatever the server lists: every shop's spending tools, then the ones it holds for good
# (`confirm_order` completes a paid UPI order; the app takes cash and free tables only), so
# they stay off from the very first request, before any tool listing is known.
DEFAULT_MONEY_TOOLS: tuple[str, ...] = money_tools()

# Word-level match so "order" hits place_order but not "reorder_hints"-style substrings;
# names are normalised to snake_case first. Plurals are left out on purpose: tools named
# with "orders"/"bookings" list history (get_orders) rather than create anything.
SPENDING_PATTERN = re.compile(
    r"(?:^|_)(?:checkout|order|reorder|book|booking|reserve|reservation|"
    r"pay|payment|purchase|buy)(?:_|$)"
)

# Read-only verbs: a tool starting with one of these only reads (get_orders, track_order).
READ_PREFIXES: tuple[str, ...] = ("get_", "track_", "list_", "search_", "fetch_")

_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_SEPARATORS = re.compile(r"[\s\-.]+")


@dataclass(frozen=True, slots=True)
class ToolPolicy:
    """Classifies tool names and builds the toolset configs that switch spenders off."""

    money_tools: tuple[str, ...] = DEFAULT_MONEY_TOOLS
    spending_pattern: re.Pattern[str] = field(default=SPENDING_PATTERN)
    read_prefixes: tuple[str, ...] = READ_PREFIXES

    def is_money_spending(self, tool_name: str) -> bool:
        """True for tools that place orders, book tables or pay."""
        if tool_name in self.money_tools:
            return True
        name = _snake(tool_name)
        if not name or name.startswith(self.read_prefixes):
            return False
        return self.spending_pattern.search(name) is not None

    def disabled_configs(self, tool_names: Iterable[str] = ()) -> dict[str, dict[str, bool]]:
        """`{name: {"enabled": False}}` for the explicit money tools and spenders among names."""
        # Deterministic order: the toolset is the start of the prompt-cache prefix.
        names = list(self.money_tools)
        names += [n for n in tool_names if n not in names and self.is_money_spending(n)]
        return {name: {"enabled": False} for name in dict.fromkeys(names)}


def _snake(tool_name: str) -> str:
    name = _CAMEL_BOUNDARY.sub("_", tool_name.strip())
    return _SEPARATORS.sub("_", name).lower()
