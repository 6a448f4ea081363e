"""Golden snapshot: `parse_tool_result` gives exactly the recorded cards for every fixture.

Each fixture payload is parsed in every result form, for every vertical, and in seeded
variations (keys dropped, values nulled or re-typed, data re-encoded as JSON text), so the
fallback routes are pinned as well as the documented ones. The snapshot holds a digest of
each result's JSON dump; `python tests/unit/test_parsers_golden.py --write` rewrites it
(only after a reviewed, intended change of the cards).
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from swiggy_core.parsers import parse_tool_result

FIXTURES = Path(__file__).parents[1] / "fixtures" / "payloads"
SNAPSHOT = Path(__file__).parents[1] / "fixtures" / "parsers_golden.json"
VERTICALS = ("food", "style", "foodorder", "dining", "unknown")
SERVER_PREFIXES = ("instamart_", "food_", "dineout_")
SUMMARY = "Here is what Swiggy returned.\n1. Something — detail | ₹10 (ID: 1)"
MUTATIONS_PER_PAYLOAD = 20
SEED = 13
# Summaries as the connector's text form delivers them (parsed from prose alone).
SUMMARIES = {
    "search_products": """Found 3 products for 'milk':
1. Amul Taaza Toned Fresh Milk — Amul | 500 ml | ₹27 (MRP ₹29) (ID: SPN-88121, SKU: SKU-5501)
2. Epigamia Greek Yogurt - Blueberry — 90 g | ₹52.50 (ID: SPN-44010, SKU: SKU-9011)
3. Nandini Toned Milk - 500 ml | ₹24
Prices include taxes.""",
    "search_restaurants_dineout": """Found 2 restaurants for 'asian' near Indiranagar:
1. The Fatty Bao — Asian, Sushi | [object Object]★ | ₹1,800 for two | Indiranagar (ID: 656137)
2. Toscano — Italian | 4.2★ | ₹2,500 for two | UB City (ID: 700212)""",
    "search_restaurants": """\
1. Meghana Foods — Biryani, Andhra | 4.5★ | 32 min | ₹500 for two (ID: 23678)
2. Empire Restaurant — North Indian | 4.1★ | 48 min | ₹450 for two | Closed (ID: 51234)""",
    "search_menu": """Dishes for 'biryani':
1. Chicken Dum Biryani — Non-veg | ₹349 | restaurantId: 23678 (ID: 118830551)
2. Paneer Biryani — Veg | ₹269 | Out of stock (ID: 118830601, Item: 118830601)""",
    "get_available_slots": """\
Slots at The Fatty Bao for 2 guests (exact ids in the structured result):
Tue, 24 Nov (2026-11-24):
1. 7:00 PM — Dinner | 4 left | Free table reservation (ID: 7399441900, Item: 656137-1371)
2. 7:30 PM — Dinner | 0 left | Free table reservation (ID: 7399441930, Item: 656137-1371)
Wed, 25 Nov (2026-11-25):
3. 1:00 PM — Lunch | 6 left | Free table reservation (ID: 7399541300, Item: 656137-1371)""",
    "get_addresses": """Your saved addresses:
1. Home — Flat 402, Prestige Lakeside, Whitefield (ID: d1f2a3)
2. Work — WeWork Galaxy, Residency Road (ID: e7c9b1)""",
    "book_table": "Booking confirmed! Booking ID: BK-1001 for 2 guests at 7:30 PM.",
    "place_food_order": "Order placed. Order ID: 178340001, paying ₹1,121.35 by cash.",
}
Case = tuple[str, str, Any, str, dict[str, Any] | None, bool]  # key, tool, content, ...


def _payloads() -> Iterator[tuple[str, str, dict[str, Any] | None, Any]]:
    """(name, tool, tool input, result envelope) for every fixture payload."""
    for path in sorted(FIXTURES.glob("*.json")):
        data = json.loads(path.read_text())
        if path.stem.startswith("documented_"):
            for name, case in data.items():
                yield f"{path.stem}/{name}", case["tool"], case["input"], case["result"]
        elif "tool" in data and "result" in data:
            yield path.stem, data["tool"], data.get("input"), data["result"]
        else:
            tool = path.stem
            for prefix in SERVER_PREFIXES:
                tool = tool.removeprefix(prefix)
            yield path.stem, tool, None, data


def _forms(envelope: Any) -> Iterator[tuple[str, Any]]:
    """One result in each form Swiggy, the MCP SDK or our engines may deliver it."""
    text = json.dumps(envelope)
    data = envelope.get("data") if isinstance(envelope, dict) else None
    yield "text-block", [{"type": "text", "text": text}]
    yield "string", text
    yield "decoded", envelope
    yield "result-block", {"type": "mcp_tool_result", "content": [{"type": "text", "text": text}]}
    yield (
        "structured-envelope",
        {
            "content": [{"type": "text", "text": SUMMARY}],
            "structured_content": envelope,
        },
    )
    if data is not None:
        data_text = json.dumps(data)
        yield (
            "structured-data",
            {
                "content": [{"type": "text", "text": SUMMARY}],
                "structuredContent": data,
            },
        )
        yield "two-blocks", [{"type": "text", "text": SUMMARY}, {"type": "text", "text": data_text}]
        yield (
            "envelope-and-copy",
            [
                {"type": "text", "text": text},
                {"type": "text", "text": data_text},
            ],
        )
        yield "joined-text", SUMMARY + "\n" + data_text


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every key/index path in a decoded payload, in document order."""
    if isinstance(value, dict):
        for key, child in value.items():
            yield (*prefix, key)
            yield from _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield (*prefix, index)
            yield from _paths(child, (*prefix, index))


def _mutate(envelope: Any, rng: random.Random) -> Any:
    """A copy with one seeded change at a random place in the payload."""
    mutated = copy.deepcopy(envelope)
    paths = list(_paths(mutated))
    if not paths:
        return mutated
    path = rng.choice(paths)
    parent = mutated
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    value = parent[last]
    change = rng.randrange(6)
    if change == 0 and isinstance(parent, dict):
        del parent[last]
    elif change == 1:
        parent[last] = None
    elif change == 2 and isinstance(value, dict | list):
        parent[last] = json.dumps(value)  # data re-encoded as JSON text
    elif change == 3 and isinstance(value, int | float) and not isinstance(value, bool):
        parent[last] = f"₹{value:,}"
    elif change == 4 and isinstance(value, list) and value:
        parent[last] = value[:1]
    else:
        parent[last] = {"result": value}
    return mutated


def golden_cases() -> Iterator[Case]:
    """Every (key, tool, content, vertical, tool input, is_error) the snapshot pins."""
    rng = random.Random(SEED)
    for name, tool, tool_input, envelope in _payloads():
        for form, content in _forms(envelope):
            for vertical in VERTICALS:
                yield f"{name}|{form}|{vertical}", tool, content, vertical, tool_input, False
        for vertical in VERTICALS[:4]:
            text = [{"type": "text", "text": json.dumps(envelope)}]
            yield f"{name}|no-input|{vertical}", tool, text, vertical, None, False
            yield f"{name}|is-error|{vertical}", tool, text, vertical, tool_input, True
            yield f"{name}|other-tool|{vertical}", "mystery_tool", text, vertical, None, False
        for index in range(MUTATIONS_PER_PAYLOAD):
            mutated = _mutate(envelope, rng)
            vertical = VERTICALS[index % 4]
            text = [{"type": "text", "text": json.dumps(mutated)}]
            yield f"{name}|mutation-{index}|{vertical}", tool, text, vertical, tool_input, False
    for tool, summary in SUMMARIES.items():
        for vertical in VERTICALS[:4]:
            yield f"summary/{tool}|text|{vertical}", tool, summary, vertical, None, False


def digest(tool: str, content: Any, vertical: str, tool_input: Any, is_error: bool) -> str:
    """A short digest of the parsed result's full JSON dump."""
    result = parse_tool_result(tool, content, vertical, tool_input, is_error=is_error)
    dumped = json.dumps(result.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(dumped.encode()).hexdigest()[:20]


def current_digests() -> dict[str, str]:
    """The digest of every golden case with the parsers as they are now."""
    digests: dict[str, str] = {}
    for key, tool, content, vertical, tool_input, is_error in golden_cases():
        assert key not in digests, key
        digests[key] = digest(tool, content, vertical, tool_input, is_error)
    return digests


def test_every_fixture_parses_to_the_recorded_cards() -> None:
    expected = json.loads(SNAPSHOT.read_text())
    actual = current_digests()
    assert actual.keys() == expected.keys()
    changed = sorted(key for key in expected if actual[key] != expected[key])
    assert not changed, f"{len(changed)} results changed, e.g. {changed[:10]}"


def test_golden_cases_cover_every_fixture_and_form() -> None:
    keys = list(current_digests())
    assert len(keys) > 2_000
    assert {key.split("|")[1] for key in keys} >= {"two-blocks", "envelope-and-copy", "decoded"}


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    SNAPSHOT.write_text(json.dumps(current_digests(), indent=0, sort_keys=True) + "\n")
