"""The reads behind a basket review, run by the app itself (no model turn): one search per
wanted line, a few at a time, each through the caller's `Reader` (the audited path the
app's own calls take, with the same hooks and rate budget as the model's)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Final

from swiggy_core.basket import basket_row
from swiggy_core.basket_list import WantedLine
from swiggy_core.basket_records import BasketReview, BasketRow, ListSource
from swiggy_core.errors import McpServerError
from swiggy_core.parsers import ProductItem, ProductsResult, parse_tool_result
from swiggy_core.reorder_reads import SEARCH_TOOL
from swiggy_core.saved_addresses import Reader
from swiggy_core.verticals import Vertical

# Searches at once: enough to hide each one's wait, few enough for the shop's rate limit.
SEARCHES_AT_ONCE: Final = 4


def review_list(
    read: Reader, vertical: Vertical, wanted: list[WantedLine], address_id: str, source: ListSource
) -> BasketReview:
    """Each wanted line searched and matched, in the list's order. A line whose search
    fails is unmatched; when every search fails the failure is raised (McpServerError)."""

    def search(line: WantedLine) -> list[ProductItem] | McpServerError:
        try:
            raw = read(SEARCH_TOOL, {"addressId": address_id, "query": line.query})
        except McpServerError as error:
            return error
        parsed = parse_tool_result(SEARCH_TOOL, raw, vertical.id)
        return list(parsed.items) if isinstance(parsed, ProductsResult) else []

    with ThreadPoolExecutor(max_workers=SEARCHES_AT_ONCE) as pool:
        found = list(pool.map(search, wanted))
    failures = [result for result in found if isinstance(result, McpServerError)]
    if failures and len(failures) == len(found):
        raise failures[0]
    rows: list[BasketRow] = [
        basket_row(line, [] if isinstance(result, McpServerError) else result)
        for line, result in zip(wanted, found, strict=True)
    ]
    return BasketReview(rows=rows, source=source, address_id=address_id or None)
