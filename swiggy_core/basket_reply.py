"""The app's own reply to a shopping list: the stored message that carries its basket review.

The person sees the review card (drawn from `meta.basket`); the model, in later turns,
reads the text block, which says what the review showed and that nothing is in the cart
until the person presses Add all.
"""

from __future__ import annotations

from typing import Final

from swiggy_core.basket_records import BasketReview, BasketRow
from swiggy_core.errors import SwiggyAssistantError
from swiggy_core.formatting import rupees
from swiggy_core.models import ChatMessage, ErrorInfo, MessageMeta, TextBlock

BASKET_REVIEW_FOR_MODEL: Final = (
    "The app matched the person's shopping list to this shop's products and showed them a "
    "basket review (one row per line: the best match, two alternatives, the quantity). "
    "Nothing is in the cart yet: the person adds the rows with the review's Add all "
    "button, which writes the cart once. Rows as shown:\n{rows}"
)


def error_of(error: SwiggyAssistantError) -> ErrorInfo:
    """A coded failure of the list's reads, as the chat shows it (with Retry)."""
    return ErrorInfo(code=error.code.value, category="tool", message=error.message, retryable=True)


def review_message(review: BasketReview, turn_id: str) -> ChatMessage:
    """The stored reply holding `review` (its card), with the same facts for the model."""
    rows = "\n".join(_row_for_model(row) for row in review.rows)
    text = BASKET_REVIEW_FOR_MODEL.format(rows=rows)
    meta = MessageMeta(basket=review, turn_id=turn_id)
    return ChatMessage(role="assistant", content=[TextBlock(text=text)], meta=meta)


def failed_message(info: ErrorInfo, turn_id: str) -> ChatMessage:
    """The stored reply when the list could not be matched: the coded failure (Retry asks
    the model instead)."""
    meta = MessageMeta(error=info, excluded=True, turn_id=turn_id)
    return ChatMessage(role="assistant", content=[], meta=meta)


def review_for_person(review: BasketReview) -> str:
    """The review as words for you (an exported chat shows this, not the model's text)."""
    lines = [f"Your list, matched ({len(review.rows)} lines):"]
    for row in review.rows:
        wanted = f"- {row.wanted.text}: "
        if row.best is None:
            lines.append(f"{wanted}no match in stock")
            continue
        price = f" · {rupees(row.best.price)}" if row.best.price is not None else ""
        pack = f" ({row.best.pack})" if row.best.pack else ""
        lines.append(f"{wanted}{row.wanted.quantity} × {row.best.name}{pack}{price}")
    return "\n".join(lines)


def _row_for_model(row: BasketRow) -> str:
    wanted = f"{row.wanted.quantity} × {row.wanted.query}"
    if row.best is None:
        return f"- {wanted}: no match in stock"
    others = "; ".join(pick.name for pick in row.alternatives) or "none"
    best = f"{row.best.name} ({row.best.pack or 'pack'}), spinId {row.best.spin_id}"
    return f"- {wanted}: {best}; alternatives: {others}"
