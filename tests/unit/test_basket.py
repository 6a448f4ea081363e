"""A basket review: best match and two alternatives per line, unmatched lines, one merged write."""

from __future__ import annotations

from swiggy_core.basket import basket_row, cart_arguments, default_choices
from swiggy_core.basket_list import read_list
from swiggy_core.basket_records import BasketChoice, BasketPick, BasketReview
from swiggy_core.models import MessageMeta
from swiggy_core.parsers import CartLine, ProductItem
from swiggy_core.parsers.catalog_results import ProductVariation


def _product(name: str, spin: str, price: float = 50.0, **more: object) -> ProductItem:
    return ProductItem(name=name, spin_id=spin, sku_id=f"sku-{spin}", price=price, **more)


MILKS = [
    _product("Amul Taaza Toned Milk", "m1", 28, quantity_description="500 ml"),
    _product("Nandini Milk", "m2", 26, in_stock=False),
    _product("Heritage Milk", "m3", 30),
    _product("Mother Dairy Milk", "m4", 32),
    _product("Akshayakalpa Milk", "m5", 45),
]


def test_best_match_and_two_alternatives_in_stock_only() -> None:
    (wanted,) = read_list("milk")
    row = basket_row(wanted, MILKS)
    assert row.best is not None and row.best.spin_id == "m1"
    assert [pick.spin_id for pick in row.alternatives] == ["m3", "m4"]
    assert row.best.price == 28 and row.best.pack == "500 ml"


def test_the_pack_of_the_size_asked_is_chosen() -> None:
    packs = [
        ProductVariation(spin_id="t-half", quantity_description="500 ml", price=28),
        ProductVariation(spin_id="t-two", quantity_description="2 L", price=110),
    ]
    (wanted,) = read_list("2 litre milk")
    row = basket_row(wanted, [_product("Amul Taaza", "t-half", 28, variations=packs)])
    assert row.best is not None and (row.best.spin_id, row.best.price) == ("t-two", 110)


def test_nothing_in_stock_is_unmatched() -> None:
    (wanted,) = read_list("something for dal tadka")
    row = basket_row(wanted, [_product("Toor Dal", "d1", in_stock=False)])
    assert row.best is None and row.choices == []
    review = BasketReview(rows=[row, basket_row(read_list("milk")[0], MILKS)])
    assert [r.wanted.name for r in review.unmatched] == ["dal tadka"]
    assert [r.wanted.name for r in review.matched] == ["milk"]


def test_the_write_merges_the_current_cart_and_adds_up_the_same_pack() -> None:
    review = BasketReview(rows=[basket_row(w, MILKS) for w in read_list("3 x milk")])
    current = [
        CartLine(name="Amul Taaza Toned Milk", spin_id="m1", sku_id="sku-m1", quantity=1),
        CartLine(name="Bread", spin_id="b1", sku_id="sku-b1", quantity=2),
    ]
    arguments = cart_arguments("addr-1", current, default_choices(review))
    assert arguments == {
        "selectedAddressId": "addr-1",
        "items": [
            {"spinId": "m1", "skuId": "sku-m1", "quantity": 4},
            {"spinId": "b1", "skuId": "sku-b1", "quantity": 2},
        ],
    }


def test_a_chosen_alternative_and_quantity_zero_and_the_cap() -> None:
    capped = BasketPick(name="Capped Milk", spin_id="c1", sku_id="sku-c1", max_quantity=2)
    other = BasketPick(name="Other Milk", spin_id="o1")
    choices = [
        BasketChoice(pick=capped, quantity=5),  # capped at 2
        BasketChoice(pick=other, quantity=0),  # left out
    ]
    items = cart_arguments("a", [], choices)["items"]
    assert items == [{"spinId": "c1", "skuId": "sku-c1", "quantity": 2}]


def test_the_review_is_kept_with_its_message_as_typed_records() -> None:
    review = BasketReview(rows=[basket_row(w, MILKS) for w in read_list("milk\ndal\neggs")])
    meta = MessageMeta(basket=review)
    again = MessageMeta.model_validate_json(meta.model_dump_json())
    assert again.basket == review


def test_an_exported_chat_shows_the_review_in_your_words_not_the_models() -> None:
    from datetime import UTC, datetime

    from swiggy_core.actions import typed_message
    from swiggy_core.basket_reply import BASKET_REVIEW_FOR_MODEL, review_message
    from swiggy_core.export import build_export, to_markdown
    from swiggy_core.store.records import ConversationInfo, StoredMessage

    milk, dal = read_list("2 x milk\ndal")
    review = BasketReview(rows=[basket_row(milk, MILKS), basket_row(dal, [])])
    when = datetime(2026, 11, 20, 8, 0, tzinfo=UTC)
    info = ConversationInfo("c1", "alice@sandbox", "food", "milk, dal", when, when)
    chat = [typed_message("2 x milk\ndal"), review_message(review, "turn-1")]
    stored = [StoredMessage(seq, message, when) for seq, message in enumerate(chat)]

    text = to_markdown(build_export(info, stored, "NutriCart"))

    assert BASKET_REVIEW_FOR_MODEL[:30] not in text
    assert "- 2 x milk: 2 × Amul Taaza Toned Milk (500 ml) · ₹28" in text
    assert "- dal: no match in stock" in text
