"""Card images, fetched by the browser and never by this server.

The server only writes a tag naming an allowed URL (`displayable_image_url`: Swiggy's image
hosts over https, or the sandbox's own origin when the page passes it). Nothing is
downloaded or decoded here, so a slow, broken or hostile image cannot delay or crash the
page. The image is a CSS background over a neutral tile: while it loads, or if it never
does, the tile is all that shows (no broken-image icon).

`st.image(url)` is not used: for a string it runs `os.path.isfile` on it and, for one that
is not an http(s)/data URL, opens it as a local file or hands it to the media manager.
"""

from __future__ import annotations

from html import escape

import streamlit as st

from swiggy_core.parsers.images import displayable_image_url

PLACEHOLDER_CLASS = "swiggy-card-image"
# A compact picture: a fixed height, the whole image shown (never cropped or stretched to
# the card's width), so the name, price and button stay the bigger part of a card.
IMAGE_HEIGHT_PX = 96
ICON_TILE_PX = 44
_IMAGE_STYLE = (
    f"width:100%;height:{IMAGE_HEIGHT_PX}px;border-radius:0.5rem;"
    "background-size:contain;"
    "background-repeat:no-repeat;background-position:center;"
)
# No picture the browser may load: a small neutral tile with the category's icon.
_ICON_STYLE = (
    f"width:{ICON_TILE_PX}px;height:{ICON_TILE_PX}px;border-radius:0.5rem;"
    "background-color:rgba(128,128,128,0.12);display:flex;align-items:center;"
    "justify-content:center;margin-bottom:0.25rem;"
)
# Material Symbols (the font Streamlit ships for its `:material/…:` icons), by ligature
# name: an emoji would be a missing-glyph box in a browser without an emoji font.
_SYMBOL_STYLE = "font-family:'Material Symbols Rounded';font-size:1.4rem;line-height:1;opacity:0.7;"
CATEGORY_ICONS = {
    "grocery": "shopping_cart",
    "beauty": "spa",
    "dish": "ramen_dining",
    "restaurant": "restaurant",
}


def image_tile_html(url: str | None, category: str = "grocery") -> str:
    """The tile for an already-checked URL (None: the category icon on a neutral tile)."""
    if url is None:
        icon = CATEGORY_ICONS.get(category, CATEGORY_ICONS["grocery"])
        return (
            f'<div class="{PLACEHOLDER_CLASS}" role="presentation" '
            f'style="{escape(_ICON_STYLE)}"><span aria-hidden="true" '
            f'style="{escape(_SYMBOL_STYLE)}">{icon}</span></div>'
        )
    # `url` has no quote, backslash, bracket or whitespace (safe_image_url refuses them),
    # so it cannot leave the CSS string; the attribute is escaped as a whole.
    style = _IMAGE_STYLE + f'background-image:url("{url}");'
    return f'<div class="{PLACEHOLDER_CLASS}" role="presentation" style="{escape(style)}"></div>'


def card_image(
    url: str | None, sandbox_origin: str | None = None, category: str = "grocery"
) -> None:
    """The card's image: compact, or the category icon when it may not be shown.

    Nothing when the item has no image at all. `sandbox_origin` is the running sandbox's
    `http://127.0.0.1:<port>` (or None): its own images are allowed, no other loopback
    address is. `category` picks the icon (see CATEGORY_ICONS).
    """
    if not url:
        return
    tile = image_tile_html(displayable_image_url(url, sandbox_origin), category)
    st.markdown(tile, unsafe_allow_html=True)
