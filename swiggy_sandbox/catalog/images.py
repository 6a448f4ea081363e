"""Small generated SVG placeholders for catalog items, served at /img/{kind}/{id}.svg."""

from __future__ import annotations

import hashlib
import textwrap
from xml.sax.saxutils import escape

from swiggy_sandbox.catalog.loader import Catalog

IMAGE_KINDS = ("product", "restaurant", "dish", "dineout")
_PALETTE = ("#fc8019", "#60b246", "#3d9be9", "#e23744", "#8e44ad", "#f4b400", "#16a085", "#d35400")
_SIZE = 160


def _label(catalog: Catalog, kind: str, item_id: str) -> str | None:
    if kind == "product":
        product = catalog.product(item_id)
        return product.display_name if product else None
    if kind == "restaurant":
        restaurant = catalog.restaurant(item_id)
        return restaurant.name if restaurant else None
    if kind == "dish":
        found = catalog.dish(item_id)
        return found[1].name if found else None
    if kind == "dineout":
        venue = catalog.venue(item_id)
        return venue.name if venue else None
    return None


def render_svg(catalog: Catalog, kind: str, item_id: str) -> str | None:
    """An SVG tile with the item's name on a colour picked from its id; None if unknown."""
    label = _label(catalog, kind, item_id)
    if label is None:
        return None
    colour = _PALETTE[int(hashlib.sha1(item_id.encode()).hexdigest()[:4], 16) % len(_PALETTE)]
    lines = textwrap.wrap(label, 16)[:4]
    first_y = _SIZE / 2 - (len(lines) - 1) * 9
    text = "".join(
        f'<text x="50%" y="{first_y + i * 18:.0f}" text-anchor="middle" '
        f'font-family="sans-serif" font-size="14" fill="#fff">{escape(line)}</text>'
        for i, line in enumerate(lines)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_SIZE}" height="{_SIZE}" '
        f'viewBox="0 0 {_SIZE} {_SIZE}" role="img" aria-label="{escape(label)}">'
        f'<rect width="100%" height="100%" rx="16" fill="{colour}"/>{text}</svg>'
    )
