"""Pack sizes as comparable amounts: "1 kg" = 1000 g, "2 x 200 ml" = 400 ml, "a dozen" = 12."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Unit = Literal["g", "ml", "pcs"]

# Each unit word as (how many base units, which base unit).
UNITS: dict[str, tuple[float, Unit]] = {
    **dict.fromkeys(("kg", "kgs", "kilo", "kilos", "kilogram", "kilograms"), (1000.0, "g")),
    **dict.fromkeys(("g", "gm", "gms", "gram", "grams", "gr"), (1.0, "g")),
    **dict.fromkeys(("l", "ltr", "ltrs", "litre", "litres", "liter", "liters"), (1000.0, "ml")),
    **dict.fromkeys(("ml", "mls"), (1.0, "ml")),
    **dict.fromkeys(("pc", "pcs", "piece", "pieces", "nos"), (1.0, "pcs")),
    "dozen": (12.0, "pcs"),
}
_UNIT_WORDS = "|".join(sorted(UNITS, key=len, reverse=True))
_PACK_RE = re.compile(
    rf"(?:(\d+)\s*[x×]\s*)?(\d+(?:\.\d+)?)\s*({_UNIT_WORDS})(?![a-z])", re.IGNORECASE
)
_PACK_OF_RE = re.compile(r"pack\s+of\s+(\d+)", re.IGNORECASE)
# Two amounts this close are the same pack ("1 L" and "1000 ml", "500 g" and "0.5 kg").
_SAME_PACK = 0.05


@dataclass(frozen=True, slots=True)
class Amount:
    """How much one pack holds, in grams, millilitres or pieces."""

    value: float
    unit: Unit

    @classmethod
    def of(cls, number: float, unit_word: str) -> Amount | None:
        """An amount from a number and a unit word ("1.5", "kg"), None for other words."""
        known = UNITS.get(unit_word.lower())
        if known is None:
            return None
        scale, unit = known
        return cls(number * scale, unit)

    def larger_than(self, other: Amount) -> bool:
        """More than `other` of the same unit (grams never compare with millilitres)."""
        return self.unit == other.unit and self.value > other.value * (1 + _SAME_PACK)

    def same_as(self, other: Amount) -> bool:
        """The same pack size, give or take rounding."""
        if self.unit != other.unit or other.value <= 0:
            return False
        return abs(self.value - other.value) <= other.value * _SAME_PACK


def pack_amount(description: str | None) -> Amount | None:
    """What a pack description holds: "500 ml", "4 x 70 g" (= 280 g), "Pack of 6"."""
    if not description:
        return None
    match = _PACK_RE.search(description)
    if match is not None:
        count = int(match.group(1)) if match.group(1) else 1
        amount = Amount.of(float(match.group(2)), match.group(3))
        return Amount(amount.value * count, amount.unit) if amount else None
    pack_of = _PACK_OF_RE.search(description)
    return Amount(float(pack_of.group(1)), "pcs") if pack_of else None
