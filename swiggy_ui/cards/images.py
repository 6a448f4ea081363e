"""Card images: loopback sandbox images are fetched here so any browser can show them."""

from __future__ import annotations

from urllib.parse import urlparse

import httpx2
import streamlit as st

_LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


@st.cache_data(show_spinner=False, max_entries=2000)
def _fetch_loopback_image(url: str) -> str | bytes | None:
    # The sandbox listens on the server's loopback, which a remote browser cannot reach.
    try:
        response = httpx2.get(url, timeout=2.0)
    except httpx2.HTTPError:
        return None
    if response.status_code != 200:
        return None
    if "svg" in response.headers.get("content-type", ""):
        return response.text
    return response.content


def card_image(url: str | None, alt: str) -> None:
    """Show an image if there is a safe one; nothing (not a broken icon) otherwise."""
    if not url:
        return
    parsed = urlparse(url)
    if parsed.hostname in _LOOPBACK:
        image = _fetch_loopback_image(url)
        if image is not None:
            st.image(image, width="stretch")
        return
    if parsed.scheme == "https":
        st.image(url, width="stretch")
