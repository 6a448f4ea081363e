"""What a session's tokens cost, estimated from one table of list prices.

Prices are US dollars per million tokens for each model in `constants.KNOWN_MODELS`:
input, output, prompt-cache writes (5-minute cache, 1.25× input) and cache reads (0.1×
input). Rupees use one fixed exchange rate. It is an estimate for the person's
information, never a bill: the provider's invoice is what counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from swiggy_core.models import Usage

TOKENS_PER_PRICE_UNIT: Final = 1_000_000
INR_PER_USD: Final = 88.0


@dataclass(frozen=True, slots=True)
class ModelPrice:
    """USD per million tokens."""

    input: float
    output: float
    cache_write: float
    cache_read: float


def _family(input_price: float, output_price: float) -> ModelPrice:
    return ModelPrice(
        input=input_price,
        output=output_price,
        cache_write=input_price * 1.25,
        cache_read=input_price * 0.1,
    )


HAIKU: Final = _family(1.0, 5.0)
SONNET: Final = _family(3.0, 15.0)
OPUS: Final = _family(5.0, 25.0)

MODEL_PRICES: Final[dict[str, ModelPrice]] = {
    "claude-haiku-4-5": HAIKU,
    "claude-haiku-5-5": HAIKU,
    "claude-sonnet-5-5": SONNET,
    "claude-opus-5-5": OPUS,
}


@dataclass(frozen=True, slots=True)
class CostEstimate:
    usd: float
    inr: float


def price_for(model: str) -> ModelPrice | None:
    """The list price of `model` (a dated id such as `claude-haiku-4-5-20251001` too)."""
    if model in MODEL_PRICES:
        return MODEL_PRICES[model]
    return next((p for name, p in MODEL_PRICES.items() if model.startswith(name + "-")), None)


def estimate_cost(usage: Usage, model: str) -> CostEstimate | None:
    """The estimated cost of `usage` at `model`'s prices; None for a model with no price."""
    price = price_for(model)
    if price is None:
        return None
    usd = (
        usage.input_tokens * price.input
        + usage.output_tokens * price.output
        + usage.cache_creation_input_tokens * price.cache_write
        + usage.cache_read_input_tokens * price.cache_read
    ) / TOKENS_PER_PRICE_UNIT
    return CostEstimate(usd=usd, inr=usd * INR_PER_USD)


def format_usd(amount: float) -> str:
    """'$0.0123' below a cent's worth of detail, else '$1.23'."""
    return f"${amount:.4f}" if amount < 1 else f"${amount:,.2f}"


def format_inr(amount: float) -> str:
    """'₹0.54' (paise matter at these amounts), '₹1,234.50' above."""
    return f"₹{amount:,.2f}"
