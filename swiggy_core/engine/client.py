"""Build the Anthropic client the engines use (the SDK's own retries switched off).

At DEBUG the SDK logs each request's options, the connector's bearer tokens included;
building a client therefore installs the log redaction (idempotent), even without app.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from swiggy_core.constants import CONNECT_TIMEOUT_SECONDS, STREAM_TIMEOUT_SECONDS
from swiggy_core.logsafe import install_redaction

if TYPE_CHECKING:  # the SDK (3,000 modules) loads with the first client, not with a page
    import anthropic


def make_client(
    api_key: str, base_url: str | None = None, *, timeout: float = STREAM_TIMEOUT_SECONDS
) -> anthropic.Anthropic:
    """An SDK client with max_retries=0: our RetryPolicy decides what to resend."""
    import anthropic
    import httpx2

    install_redaction()
    return anthropic.Anthropic(
        api_key=api_key,
        base_url=base_url,
        max_retries=0,
        timeout=httpx2.Timeout(timeout, connect=CONNECT_TIMEOUT_SECONDS),
    )
