import math

import pytest

from swiggy_core.formatting import MAX_RUPEES, PRICE_UNKNOWN, discount_percent, price_known, rupees


@pytest.mark.parametrize(
    ("amount", "text"),
    [
        (0, "₹0"),
        (99.5, "₹99.50"),
        (1234, "₹1,234"),
        (123456, "₹1,23,456"),
        (MAX_RUPEES, "₹10,00,000"),
        (19.999, "₹20"),
        (None, "—"),
    ],
)
def test_rupees(amount, text):
    assert rupees(amount) == text


@pytest.mark.parametrize(
    "amount",
    [-40, -0.01, math.nan, math.inf, -math.inf, MAX_RUPEES + 1, 12345678.9, 10**400, 1e308],
)
def test_negative_non_finite_or_absurd_amounts_read_price_unknown(amount):
    assert rupees(amount) == PRICE_UNKNOWN
    assert not price_known(amount)


def test_a_discount_line_may_be_negative_but_never_absurd():
    assert rupees(-40, allow_negative=True) == "-₹40"
    assert rupees(-99.5, allow_negative=True) == "-₹99.50"
    assert rupees(-(MAX_RUPEES + 1), allow_negative=True) == PRICE_UNKNOWN
    assert rupees(math.nan, allow_negative=True) == PRICE_UNKNOWN


def test_wrong_types_never_raise():
    for value in (True, "12", [], {}):
        assert rupees(value) == PRICE_UNKNOWN  # type: ignore[arg-type]
        assert not price_known(value)  # type: ignore[arg-type]


def test_discount_percent():
    assert discount_percent(80, 100) == 20
    assert discount_percent(100, 100) is None
    assert discount_percent(None, 100) is None
    assert discount_percent(50, 0) is None


@pytest.mark.parametrize(
    ("price", "mrp"),
    [
        (math.nan, 100),
        (80, math.nan),
        (80, math.inf),
        (-20, 100),
        (80, 5e9),
        (80, -100),
    ],
)
def test_discount_percent_of_insane_prices_is_none_and_never_raises(price, mrp):
    assert discount_percent(price, mrp) is None
