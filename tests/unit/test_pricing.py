"""The model price table and the session cost estimate."""

from __future__ import annotations

import pytest

from swiggy_core.constants import KNOWN_MODELS
from swiggy_core.models import Usage
from swiggy_core.pricing import (
    INR_PER_USD,
    MODEL_PRICES,
    estimate_cost,
    format_inr,
    format_usd,
    price_for,
)


def test_every_known_model_has_a_price_with_cache_rates() -> None:
    assert set(MODEL_PRICES) == set(KNOWN_MODELS)
    for price in MODEL_PRICES.values():
        assert price.output > price.input > price.cache_read > 0
        assert price.cache_write == pytest.approx(price.input * 1.25)
        assert price.cache_read == pytest.approx(price.input * 0.1)


def test_the_estimate_adds_each_kind_of_token_at_its_own_rate() -> None:
    usage = Usage(
        input_tokens=1_000_000,
        output_tokens=200_000,
        cache_creation_input_tokens=400_000,
        cache_read_input_tokens=2_000_000,
    )
    cost = estimate_cost(usage, "claude-haiku-4-5")
    assert cost is not None
    # $1 input + $1 output (0.2 M × $5) + $0.50 cache writes + $0.20 cache reads
    assert cost.usd == pytest.approx(2.70)
    assert cost.inr == pytest.approx(2.70 * INR_PER_USD)


def test_bigger_models_cost_more_for_the_same_tokens() -> None:
    usage = Usage(input_tokens=10_000, output_tokens=1_000)
    haiku, sonnet, opus = (
        estimate_cost(usage, model)
        for model in ("claude-haiku-5-5", "claude-sonnet-5-5", "claude-opus-5-5")
    )
    assert haiku and sonnet and opus and haiku.usd < sonnet.usd < opus.usd


def test_no_tokens_cost_nothing_and_an_unknown_model_has_no_estimate() -> None:
    nothing = estimate_cost(Usage(), "claude-sonnet-5-5")
    assert nothing is not None and nothing.usd == 0 and nothing.inr == 0
    assert estimate_cost(Usage(input_tokens=5), "some-local-model") is None
    assert price_for("claude-haiku-4-5-20251001") == MODEL_PRICES["claude-haiku-4-5"]
    assert price_for("claude-haiku-4-50") is None


def test_amounts_read_as_money() -> None:
    assert format_usd(0.01234) == "$0.0123"
    assert format_usd(12.5) == "$12.50"
    assert format_inr(0.5432) == "₹0.54"
    assert format_inr(1234.5) == "₹1,234.50"
