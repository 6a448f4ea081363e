"""Images and files a tool returned: pictures drawn from their bytes, files to download.

The bytes come from the stored result (`CardContext.parts`, pointed at by each item's
`data_ref`); the server never fetches anything for these cards. A file whose bytes were
not kept (a link, or one over the size cap) is named, with its type and size.
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from swiggy_core.parsers import MediaItem, MediaResult
from swiggy_core.tool_content import decoded, size_text
from swiggy_ui.cards.context import CardContext
from swiggy_ui.cards.grid import card_grid
from swiggy_ui.safe_text import plain

CAPTION_LINES = 4


def render_media(result: MediaResult, ctx: CardContext) -> None:
    """The result's text (a few lines), then its images and files in a grid."""
    lines = [plain(line) for line in result.text.splitlines() if line.strip()]
    if lines:
        st.caption("  \n".join(lines[:CAPTION_LINES]))

    def card(item: MediaItem, key: str) -> None:
        data = media_bytes(item, ctx)
        if item.kind == "image" and data is not None:
            st.image(data, width="stretch")
            st.caption(plain(item.name))  # markdown-safe, unlike an image's own caption
            return
        _file(item, data, key)

    card_grid(result.items, card, key=f"{ctx.key}-media")


def media_bytes(item: MediaItem, ctx: CardContext) -> bytes | None:
    """The item's bytes from its stored part; None when none were kept or they are gone."""
    if item.data_ref is None or not 0 <= item.data_ref < len(ctx.parts):
        return None
    part = ctx.parts[item.data_ref]
    if isinstance(part, Mapping):
        source = part.get("source")
        data = source.get("data") if isinstance(source, Mapping) else part.get("data")
    else:
        source = getattr(part, "source", None)
        data = getattr(source, "data", None) if source is not None else getattr(part, "data", None)
    return decoded(data if isinstance(data, str) else None)


def _file(item: MediaItem, data: bytes | None, key: str) -> None:
    st.markdown(f":material/description: **{plain(item.name) or 'File'}**")
    facts = [plain(item.mime_type or "unknown type")]
    if item.size is not None:
        facts.append(size_text(item.size))
    st.caption(" · ".join(facts))
    if data is not None:
        st.download_button(
            "Download",
            data=data,
            file_name=item.name or "file",
            mime=item.mime_type or "application/octet-stream",
            key=f"{key}-download",
            on_click="ignore",  # a download needs no rerun
            icon=":material/download:",
        )
    elif item.uri:
        st.caption(f"A link, not opened here: {plain(item.uri)}")
    else:
        st.caption("Too large to keep here.")
