import pytest

from swiggy_core.formatting import discount_percent, rupees


@pytest.mark.parametrize(
    ("amount", "text"),
    [
        (0, "₹0"),
        (99.5, "₹99.50"),
        (1234, "₹1,234"),
        (123456, "₹1,23,456"),
        (12345678.9, "₹1,23,45,678.90"),
        (-40, "-₹40"),
        (19.999, "₹20"),
        (None, "—"),
    ],
)
def test_rupees(amount, text):
    assert rupees(amount) == text


def test_discount_percent():
    assert discount_percent(80, 100) == 20
    assert discount_percent(100, 100) is None
    assert discount_percent(None, 100) is None
    assert discount_percent(50, 0) is None
