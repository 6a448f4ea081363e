"""A summary-only tool result (prose, no JSON) as the data the planner reads.

Through the connector a result in the summary form may arrive as its text alone. Its
numbered lines still carry names, prices and `(ID: …)` references: they become records in
the documented shapes (products with variations, restaurants, dishes, cart lines,
addresses), so the planner can offer and act on them. What the text does not carry (slot
ids, for one) stays unknown.
"""

from __future__ import annotations

import re
from typing import Any

from swiggy_core.parsers.summary import SummaryLine, read_summary

Record = dict[str, Any]
_QUANTITY_RE = re.compile(r"^qty (\d+)$")


def summary_data(tool: str, text: str) -> Record:
    """`{"summary": text, <list key>: [records]}` from the text's numbered lines."""
    lines = [line for line in read_summary(text) if line.record_id]
    data: Record = {"summary": text}
    name = tool.lower()
    if "address" in name or "location" in name:
        key = "locations" if "location" in name else "addresses"
        data[key] = [_address(line) for line in lines]
    elif "cart" in name:
        data["items"] = [_cart_line(line) for line in lines]
    elif "product" in name or "go_to" in name:
        data["products"] = _products(lines)
    elif "menu" in name:
        data["items"] = [_dish(line) for line in lines]
    elif "restaurant" in name:
        data["restaurants"] = [_restaurant(line) for line in lines]
    return data


def _products(lines: list[SummaryLine]) -> list[Record]:
    """Consecutive lines of one name are the packs of one product."""
    products: list[Record] = []
    for line in lines:
        pack = {
            "spinId": line.record_id,
            "skuId": line.ids.get("SKU"),
            "quantityDescription": line.details[0] if line.details else "",
            "price": {"offerPrice": line.price, "mrp": line.price},
            "isInStockAndAvailable": "out of stock" not in line.details,
        }
        if products and products[-1]["displayName"] == line.name:
            products[-1]["variations"].append(pack)
        else:
            products.append({"displayName": line.name, "variations": [pack]})
    return products


def _restaurant(line: SummaryLine) -> Record:
    cuisines = line.details[0].split(", ") if line.details else []
    return {"id": line.record_id, "name": line.name, "cuisines": cuisines}


def _dish(line: SummaryLine) -> Record:
    return {
        "id": line.record_id,
        "menu_item_id": line.record_id,
        "name": line.name,
        "price": line.price,
        "isVeg": "veg" in line.details,
        "restaurant_id": line.ids.get("Restaurant"),
    }


def _cart_line(line: SummaryLine) -> Record:
    quantity = next((int(m.group(1)) for d in line.details if (m := _QUANTITY_RE.match(d))), 1)
    key = "spinId" if "SKU" in line.ids else "menu_item_id"
    return {key: line.record_id, "skuId": line.ids.get("SKU"), "name": line.name,
            "itemName": line.name, "quantity": quantity}  # fmt: skip


def _address(line: SummaryLine) -> Record:
    return {
        "id": line.record_id,
        "addressTag": line.name,
        "label": line.name,
        "addressLine": line.details[0] if line.details else "",
    }
