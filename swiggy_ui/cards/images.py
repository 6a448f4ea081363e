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
_TILE_STYLE = (
    "width:100%;aspect-ratio:1/1;border-radius:0.5rem;"
    "background-color:rgba(128,128,128,0.12);background-size:cover;background-position:center;"
)


def image_tile_html(url: str | None) -> str:
    """The tile for an already-checked URL (None: the neutral tile alone)."""
    style = _TILE_STYLE
    if url is not None:
        # `url` has no quote, backslash, bracket or whitespace (safe_image_url refuses
        # them), so it cannot leave the CSS string; the attribute is escaped as a whole.
        style += f'background-image:url("{url}");'
    return f'<div class="{PLACEHOLDER_CLASS}" role="presentation" style="{escape(style)}"></div>'


def card_image(url: str | None, sandbox_origin: str | None = None) -> None:
    """The card's image tile; nothing when the item has no image at all.

    `sandbox_origin` is the running sandbox's `http://127.0.0.1:<port>` (or None): its own
    images are allowed, no other loopback address is.
    """
    if not url:
        return
    st.markdown(image_tile_html(displayable_image_url(url, sandbox_origin)), unsafe_allow_html=True)
