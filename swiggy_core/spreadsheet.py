"""Cells of the app's CSV exports that a spreadsheet shows rather than runs."""

from __future__ import annotations

from typing import Final

# A spreadsheet runs a cell starting with one of these as a formula (after any spaces).
_FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r", "\n")


def spreadsheet_cell(value: str) -> str:
    """The text as a cell a spreadsheet shows rather than runs: a leading quote before
    anything that would start a formula."""
    return "'" + value if value.lstrip(" ").startswith(_FORMULA_STARTS) else value
