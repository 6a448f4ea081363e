"""What a card needs besides its data: a unique key, its vertical, the sandbox's origin."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from swiggy_core.parsers import CartResult
from swiggy_core.verticals import Vertical


@dataclass(frozen=True, slots=True)
class CardContext:
    key: str
    vertical: Vertical
    # The running sandbox's own `http://127.0.0.1:<port>`, whose images cards may show;
    # None when there is no sandbox (then only Swiggy's https image hosts are allowed).
    image_origin: str | None = None
    # False for an older cart, slot picker or confirmation: shown read-only (greyed, no
    # buttons), so nothing ever acts on numbers that are no longer true.
    live: bool = True
    # The cart as it was before this card's result (for a compact "cart updated" line).
    previous_cart: CartResult | None = None
    # The time the person asked for ("8 pm"), for a slot picker whose tool input had none
    # (Swiggy's get_available_slots takes only a date): that time and its neighbours
    # stand out.
    requested_time: str | None = None
    # The content parts of the card's tool result: a media card's bytes are read from here.
    parts: Sequence[object] = ()
