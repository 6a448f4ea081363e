"""Build the Anthropic client the engines use (the SDK's own retries switched off)."""

from __future__ import annotations

import anthropic
import httpx2

from swiggy_core.constants import CONNECT_TIMEOUT_SECONDS, STREAM_TIMEOUT_SECONDS


def make_client(
    api_key: str, base_url: str | None = None, *, timeout: float = STREAM_TIMEOUT_SECONDS
) -> anthropic.Anthropic:
    """An SDK client with max_retries=0: our RetryPolicy decides what to resend."""
    return anthropic.Anthropic(
        api_key=api_key,
        base_url=base_url,
        max_retries=0,
        timeout=httpx2.Timeout(timeout, connect=CONNECT_TIMEOUT_SECONDS),
    )
