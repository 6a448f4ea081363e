"""The typed records of a basket review (kept with the chat message that shows it)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from swiggy_core.basket_list import WantedLine

ListSource = Literal["typed", "file", "photo"]


class BasketPick(BaseModel):
    """One pack the person can put in the cart for a wanted line."""

    model_config = ConfigDict(frozen=True)

    name: str
    spin_id: str
    sku_id: str | None = None
    pack: str | None = None  # "1 L", "6 pieces"
    price: float | None = None
    max_quantity: int | None = None


class BasketRow(BaseModel):
    """A wanted line, its best match and the alternatives (no match: `best` is None)."""

    model_config = ConfigDict(frozen=True)

    wanted: WantedLine
    best: BasketPick | None = None
    alternatives: list[BasketPick] = Field(default_factory=list)

    @property
    def choices(self) -> list[BasketPick]:
        """The best match first, then the alternatives."""
        return [self.best, *self.alternatives] if self.best else []


class BasketReview(BaseModel):
    """The whole list, row by row, before anything is added."""

    model_config = ConfigDict(frozen=True)

    rows: list[BasketRow]
    source: ListSource = "typed"
    # Where the searches delivered to: the cart write goes to the same address.
    address_id: str | None = None

    @property
    def matched(self) -> list[BasketRow]:
        return [row for row in self.rows if row.best is not None]

    @property
    def unmatched(self) -> list[BasketRow]:
        return [row for row in self.rows if row.best is None]


class BasketChoice(BaseModel):
    """What the person settled on for one row: the pack and how many."""

    model_config = ConfigDict(frozen=True)

    pick: BasketPick
    quantity: int
