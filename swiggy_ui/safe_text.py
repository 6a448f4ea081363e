"""Untrusted text made safe for Streamlit's markdown (DESIGN.md, "What the page may show").

The rules live in `swiggy_core.safe_markdown`, so the chat export (core, no Streamlit) and
the page neutralise text the same way; pages import them from here.
"""

from __future__ import annotations

from swiggy_core.safe_markdown import (
    LOOKALIKE_COLON,
    inline_code,
    markdown_text,
    plain,
    safe_link_url,
)

__all__ = ["LOOKALIKE_COLON", "inline_code", "markdown_text", "plain", "safe_link_url"]
