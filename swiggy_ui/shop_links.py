"""Each shop's page as `home.shop_page` made it, for modules a shop page itself imports.

The chat list's search opens a chat on another shop's page, and the shop page draws that
list: importing `home` there would close an import cycle, so the pages are looked up here.
"""

from __future__ import annotations

from streamlit.navigation.page import StreamlitPage

_pages: dict[str, StreamlitPage] = {}


def remember_shop_page(vertical_id: str, page: StreamlitPage) -> None:
    _pages[vertical_id] = page


def shop_page_for(vertical_id: str) -> StreamlitPage:
    """The page app.py's navigation holds for this shop (made before any page runs)."""
    return _pages[vertical_id]
