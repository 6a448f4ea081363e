"""What a card needs besides its data: a unique key and the vertical it belongs to."""

from __future__ import annotations

from dataclasses import dataclass

from swiggy_core.verticals import Vertical


@dataclass(frozen=True, slots=True)
class CardContext:
    key: str
    vertical: Vertical
