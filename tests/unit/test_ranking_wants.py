"""Reading a request: what is asked for, its kind, pack size, diet, budget and quantity."""

from __future__ import annotations

import pytest

from swiggy_core.ranking import Amount, pack_amount, read_wants
from swiggy_core.ranking.lexicon import lexicon


def _words(text: str) -> list[tuple[str, ...]]:
    return [thing.words for thing in read_wants(text).things]


@pytest.mark.parametrize(
    ("said", "words"),
    [
        ("dahi", ("curd",)),
        ("Cottage cheese", ("paneer",)),
        ("lady's finger", ("bhindi",)),
        ("okra", ("bhindi",)),
        ("wheat flour", ("atta",)),
        ("aloo", ("potato",)),
        ("moisturizer", ("moisturiser",)),
        ("please find me some eggs", ("egg",)),
        ("high protein snacks", ("high", "protein", "snack")),
    ],
)
def test_indian_names_and_spellings_read_as_one_word(said: str, words: tuple[str, ...]) -> None:
    assert _words(said) == [words]


def test_several_things_are_read_in_order_with_their_own_words() -> None:
    wants = read_wants("milk, eggs and bread")
    assert [thing.said for thing in wants.things] == ["milk", "eggs", "bread"]
    assert _words("shampoo & conditioner") == [("shampoo",), ("conditioner",)]
    assert _words("chips + cold drink") == [("chip",), ("soft", "drink")]


def test_the_head_noun_is_last_and_a_kind_is_known_by_its_own_word() -> None:
    (thing,) = read_wants("high protein snacks").things
    assert thing.head == "snack"
    assert thing.category is not None and thing.category.name == "snacks"
    assert thing.max_pack == Amount(500, "g")
    (potato,) = read_wants("sweet potato").things
    assert potato.category is None, "a sweet potato is not a dessert"
    (cereal,) = read_wants("something for breakfast").things
    assert cereal.category is not None and cereal.category.name == "breakfast"


def test_what_a_thing_is_for_weighs_less_than_the_thing() -> None:
    (thing,) = read_wants("face wash for oily skin").things
    assert thing.words == ("face", "wash") and thing.qualifiers == ("oily", "skin")


@pytest.mark.parametrize(
    ("said", "budget"),
    [
        ("snacks under 200", 200),
        ("snacks under ₹200", 200),
        ("below Rs. 150 please", 150),
        ("chips less than 99 rupees", 99),
        ("within 1,500", 1500),
        ("moisturiser under 2k", 2000),
        ("snacks under two hundred", 200),
        ("₹300 budget", 300),
        ("500 or less", 500),
        ("max 80", 80),
    ],
)
def test_budgets_in_figures_and_words(said: str, budget: float) -> None:
    wants = read_wants(said)
    assert wants.budget == budget
    assert not any(word.isdigit() for word in wants.words), "the budget is no product word"


def test_a_time_or_a_distance_is_no_budget() -> None:
    assert read_wants("delivered in under 20 minutes").budget is None
    assert read_wants("restaurants under 3 km").budget is None


@pytest.mark.parametrize(
    ("said", "diet"),
    [
        ("veg momos", "veg"),
        ("Pure veg thali", "veg"),
        ("vegetarian snacks", "veg"),
        ("jain snacks", "jain"),
        ("no onion no garlic curry", "jain"),
        ("eggetarian protein", "egg"),
        ("vegan protein", "vegan"),
        ("eggless cake", "eggless"),
        ("non-veg starters", "nonveg"),
        ("non veg biryani", "nonveg"),
    ],
)
def test_diets(said: str, diet: str) -> None:
    wants = read_wants(said)
    assert wants.diet is not None and wants.diet.name == diet
    assert "veg" not in wants.words


def test_pack_sizes_and_quantities() -> None:
    (atta,) = read_wants("1 kg atta").things
    assert atta.size == Amount(1000, "g") and atta.words == ("atta",)
    (eggs,) = read_wants("a dozen eggs").things
    assert eggs.size == Amount(12, "pcs")
    (six,) = read_wants("6 eggs").things
    assert six.size == Amount(6, "pcs"), "eggs are sold by the piece"
    assert read_wants("6 eggs").quantity is None
    assert read_wants("2 packets of chips").quantity == 2
    assert read_wants("3 milk").quantity == 3
    assert read_wants("chips x4").quantity == 4
    (paneer,) = read_wants("half kg paneer").things
    assert paneer.size == Amount(500, "g")


def test_a_party_says_for_how_many_and_is_no_product_word() -> None:
    wants = read_wants("chinese food for two under 600")
    assert (wants.party, wants.budget, wants.words) == (2, 600, ("chinese",))
    assert read_wants("dinner for 4 people").party == 4
    assert read_wants("snacks for my dad").party is None


def test_what_the_person_wants_less_of() -> None:
    wants = read_wants("low sugar snacks")
    assert wants.avoid == ("sugar",) and wants.words == ("snack",)
    assert read_wants("sugar free biscuits").avoid == ("sugar",)


def test_the_query_says_what_and_the_request_adds_conditions() -> None:
    wants = read_wants("momos", "veg momos under ₹200 x2")
    assert wants.words == ("momo",)
    assert wants.diet is not None and wants.diet.name == "veg"
    assert (wants.budget, wants.quantity) == (200, 2)
    assert read_wants(None, "dahi").words == ("curd",)
    assert read_wants("", None).empty and read_wants(None, "please").empty


@pytest.mark.parametrize(
    ("description", "amount"),
    [
        ("500 ml", Amount(500, "ml")),
        ("1 L", Amount(1000, "ml")),
        ("1.5 kg", Amount(1500, "g")),
        ("4 x 70 g", Amount(280, "g")),
        ("6 x 60 ml", Amount(360, "ml")),
        ("12 pcs", Amount(12, "pcs")),
        ("Pack of 6", Amount(6, "pcs")),
        ("assorted", None),
        (None, None),
    ],
)
def test_pack_descriptions(description: str | None, amount: Amount | None) -> None:
    assert pack_amount(description) == amount


def test_the_lexicon_is_data_every_entry_in_the_form_it_is_compared_in() -> None:
    vocab = lexicon()
    assert {category.name for category in vocab.categories} >= {"snacks", "drinks", "dairy"}
    assert {diet.name for diet in vocab.diets} >= {"veg", "jain", "egg", "vegan"}
    for category in vocab.categories:
        for entry in (*category.asked, *category.items):
            assert entry == entry.lower().strip() and "  " not in entry, entry
    assert vocab.words("Dahi, Bhindi and Cottage Cheese") == ["curd", "bhindi", "and", "paneer"]
