"""How well one card answers one thing asked for, and what rules it out.

A score is the share of the thing's weighted words the card matches (0–1): the head noun
counts most ("snack" in "high protein snacks"), a card of the asked kind matches a kind's
word ("Trail Mix" is a snack), and whole-name similarity only breaks ties. Words match
exactly after normalising, or by rapidfuzz's edit-distance ratio for typing slips.
What rules a card out (over budget, another diet, a pack too big for the kind, another
kind of product) is a separate verdict: it sets the card aside, never hides it.
"""

from __future__ import annotations

from dataclasses import dataclass

from rapidfuzz import fuzz, process

from swiggy_core.formatting import rupees
from swiggy_core.ranking.facts import Facts
from swiggy_core.ranking.lexicon import lexicon
from swiggy_core.ranking.wants import Thing, Wants

HEAD_WEIGHT = 3.0  # the head noun says what the thing is
WORD_WEIGHT = 1.0  # the other words of the thing ("high", "protein")
PURPOSE_WEIGHT = 0.5  # what it is for ("oily skin")
ITEM_HEAD_WEIGHT = 0.5  # the card is that thing itself, not something that holds it
SIZE_WEIGHT = 1.0  # it comes in the pack size asked for
SIMILARITY_WEIGHT = 0.25  # whole-name likeness: a tie-breaker between equal matches
AVOID_PENALTY = 0.5  # names what the person wants less of ("sugar" for "low sugar")
FUZZY_CREDIT = 0.8  # a slip-matched word counts a little less than an exact one
# One slip in a five-letter word ("biscut", "chiken") passes; "salt" ≠ "salted" does not.
FUZZY_CUTOFF = 85.0
FUZZY_MIN_LENGTH = 4  # short words are too easily one letter from another word

OTHER_KIND = "other kinds of product"
BIGGER_PACKS = "bigger packs"
NOT_LISTED = "not what you listed"


@dataclass(frozen=True, slots=True)
class Fit:
    """A card's score for its best thing and why it is set aside (None: it fits)."""

    score: float
    thing: int  # index of the thing it answers best
    matched: bool  # some word of that thing (or its kind) is in the card
    set_aside: str | None


def fit(facts: Facts, wants: Wants, *, several: bool) -> Fit:
    """The card's best thing, its score there, and the first rule it breaks."""
    scores = [thing_score(facts, thing, wants.avoid) for thing in wants.things]
    if not scores:
        return Fit(0.0, 0, False, _breaks(facts, wants))
    best = max(range(len(scores)), key=lambda index: scores[index][0])  # first on ties
    score, matched = scores[best]
    reason = _breaks(facts, wants) or _misfit(facts, wants.things[best])
    if reason is None and several and not matched:
        reason = NOT_LISTED
    return Fit(score, best, matched, reason)


def thing_score(facts: Facts, thing: Thing, avoid: tuple[str, ...] = ()) -> tuple[float, bool]:
    """How well a card answers one thing (0–1), and whether any of its words matched."""
    total = got = 0.0
    matched = False
    for word in thing.words[:-1]:
        credit = word_credit(word, facts)
        total, got, matched = total + WORD_WEIGHT, got + WORD_WEIGHT * credit, matched or credit > 0
    if thing.head is not None:
        credit = word_credit(thing.head, facts)
        if thing.category is not None and thing.category.name in facts.kinds:
            credit = 1.0
        total, got, matched = total + HEAD_WEIGHT, got + HEAD_WEIGHT * credit, matched or credit > 0
    if facts.head is not None and thing.head is not None:
        total += ITEM_HEAD_WEIGHT
        got += ITEM_HEAD_WEIGHT if facts.head == thing.head else 0.0
    for word in thing.qualifiers:
        total, got = total + PURPOSE_WEIGHT, got + PURPOSE_WEIGHT * word_credit(word, facts)
    if thing.size is not None:
        total += SIZE_WEIGHT
        got += SIZE_WEIGHT if any(pack.same_as(thing.size) for pack in facts.packs) else 0.0
    total += SIMILARITY_WEIGHT
    got += SIMILARITY_WEIGHT * fuzz.token_set_ratio(" ".join(thing.words), facts.name) / 100
    return got / total - _avoided(facts, avoid), matched


def word_credit(word: str, facts: Facts) -> float:
    """The weight of the field a word is in: exact first, else a near spelling."""
    weight = facts.words.get(word)
    if weight is not None:
        return weight
    if len(word) < FUZZY_MIN_LENGTH or not facts.words:
        return 0.0
    found = process.extractOne(
        word, facts.words.keys(), scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF
    )
    return facts.words[found[0]] * FUZZY_CREDIT if found else 0.0


def _avoided(facts: Facts, avoid: tuple[str, ...]) -> float:
    """A penalty for naming what is unwanted, unless the name says it is free of it."""
    if not avoid:
        return 0.0
    vocab = lexicon()
    if any(word in facts.words for word in (*vocab.avoid_before, *vocab.avoid_after)):
        return 0.0  # "Sugar Free", "No Added Sugar": exactly what was asked for
    return AVOID_PENALTY * sum(1 for word in avoid if word in facts.words)


def _breaks(facts: Facts, wants: Wants) -> str | None:
    """A rule of the whole request the card breaks: the budget or the diet."""
    budget, price = wants.budget, facts.price
    if budget is not None and price is not None and price * (wants.quantity or 1) > budget:
        return f"over {rupees(budget)}"
    if wants.diet is not None and _diet_groups(facts) & wants.diet.avoids:
        return wants.diet.set_aside
    return None


def _diet_groups(facts: Facts) -> frozenset[str]:
    """Food groups, with the shop's non-veg mark read as meat unless the name says egg."""
    if facts.marked_veg is False and not facts.groups & {"meat", "egg"}:
        return facts.groups | {"meat"}
    return facts.groups


def _misfit(facts: Facts, thing: Thing) -> str | None:
    """A card of another kind than asked for, or only in packs too big for the kind."""
    if thing.category is not None and facts.kinds and thing.category.name not in facts.kinds:
        return OTHER_KIND
    limit = thing.max_pack
    if limit is not None and facts.packs and all(p.larger_than(limit) for p in facts.packs):
        return BIGGER_PACKS
    return None
