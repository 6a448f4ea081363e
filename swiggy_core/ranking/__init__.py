"""Search results ranked by what was asked: words, kind, pack size, diet, budget, quantity.

`read_wants(query, request)` reads a request into a typed `Wants`; `rank(items, wants)`
puts the cards that fit first (best first, one group per thing asked for) and sets aside
the rest with the reasons; `fit_cards` applies both to a reply's parsed search cards.
The words it knows (Indian names, synonyms, kinds of product, diets) live in
`lexicon.toml`, not in code.
"""

from swiggy_core.ranking.amounts import Amount, pack_amount
from swiggy_core.ranking.cards import fit_card, fit_cards, search_query
from swiggy_core.ranking.rank import Group, Ranked, rank
from swiggy_core.ranking.wants import Thing, Wants, read_wants

__all__ = [
    "Amount",
    "Group",
    "Ranked",
    "Thing",
    "Wants",
    "fit_card",
    "fit_cards",
    "pack_amount",
    "rank",
    "read_wants",
    "search_query",
]
