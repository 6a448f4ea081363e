"""A cold start: the app's own navigation from the first page, and no SDK loaded for it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from uihelpers import new_app, open_page

ROOT = Path(__file__).resolve().parents[2]


def test_there_is_no_pages_folder_for_streamlit_to_list_or_run_directly():
    # Streamlit lists a `pages/` folder's file names before st.navigation runs and runs
    # those files without app.py; the page scripts live in app_pages/ instead.
    assert not (ROOT / "pages").exists()
    assert (ROOT / "app_pages" / "home.py").exists()


def test_a_shop_page_runs_through_app_py_with_its_navigation():
    at = open_page(new_app(), "nutricart")
    assert not at.exception
    assert [title.value for title in at.title] == ["NutriCart"]


def test_the_first_page_loads_neither_anthropic_nor_mcp():
    probe = (
        "import sys, swiggy_ui.home, swiggy_ui.runtime, swiggy_ui.state\n"
        "print(sorted(m for m in ('anthropic', 'mcp') if m in sys.modules))"
    )
    shown = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert shown.stdout.strip() == "[]"
