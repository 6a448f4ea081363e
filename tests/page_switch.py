"""AppTest that opens a page by its URL path too, as a browser's address bar does.

The shop pages are callables generated from the vertical catalog, and AppTest's own
switch_page finds pages by script file only. `st.navigation` names every page by the hash
of its URL path (`st.Page._script_hash`), so that hash is what a run is asked for.
"""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest
from streamlit.util import calc_hash


class PagesAppTest(AppTest):
    """An AppTest whose switch_page takes a page file or a page's URL path ("nutricart")."""

    def switch_page(self, page_path: str) -> AppTest:
        if page_path.endswith(".py"):
            return super().switch_page(page_path)
        page_hash = calc_hash(page_path.strip("/"))
        registered = self._registered_pages  # empty before the first run: nothing to check
        if registered and page_hash not in registered:
            known = sorted(str(info.get("url_pathname")) for info in registered.values())
            raise ValueError(f"No page at /{page_path}; the app's pages are {known}.")
        self._page_hash = page_hash
        return self


def app_test(script: str | Path, timeout: float) -> PagesAppTest:
    """A fresh browser session of the app at `script`."""
    return PagesAppTest(script, default_timeout=timeout)
