"""How long a server asked us to wait (Retry-After), read the same way for every server.

The Messages API and Swiggy's MCP servers both answer 429 with `Retry-After`: whole
seconds or an HTTP date (RFC 9110); the Anthropic SDK also knows `retry-after-ms`. A wait
is capped, so a malformed or hostile value cannot promise the person a day-long countdown.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Final

# The longest wait we repeat to the person or keep a server blocked for.
RETRY_AFTER_CAP_SECONDS: Final = 3600.0
# A 429 that does not say how long: Swiggy's limits count requests per minute.
RATE_LIMIT_DEFAULT_WAIT_SECONDS: Final = 60.0
# "Retry after 60 s", "Retry-After: 17" in an error's text (a JSON-RPC message, a body).
RETRY_AFTER_TEXT_RE: Final = re.compile(r"retry[- ]after[^0-9]{0,12}(\d+(?:\.\d+)?)", re.I)


def capped(seconds: float) -> float:
    """`seconds` within 0 and the cap (NaN counts as nothing to wait)."""
    if math.isnan(seconds):
        return 0.0
    return min(max(0.0, seconds), RETRY_AFTER_CAP_SECONDS)


def retry_after_value(value: str | None, *, now: datetime | None = None) -> float | None:
    """Seconds from one `Retry-After` value (seconds or an HTTP date); None if unreadable."""
    if value is None:
        return None
    try:
        return capped(float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return capped((when - (now or datetime.now(UTC))).total_seconds())


def retry_after_headers(headers: Mapping[str, str]) -> float | None:
    """Seconds from `retry-after-ms` (preferred, as the SDK does) or `retry-after`."""
    lowered = {key.lower(): value for key, value in headers.items()}
    if (millis := lowered.get("retry-after-ms")) is not None:
        try:
            return capped(float(millis) / 1000)
        except ValueError:
            pass
    return retry_after_value(lowered.get("retry-after"))


def retry_after_text(text: str) -> float | None:
    """Seconds an error's text names ("Retry after 60 s"); None when it names none."""
    match = RETRY_AFTER_TEXT_RE.search(text)
    return capped(float(match.group(1))) if match else None


def whole_seconds(seconds: float) -> int:
    """A wait as the person reads it: whole seconds, rounded up (never "0 s" for a wait)."""
    return max(1, math.ceil(seconds))


def try_again_text(seconds: float | None) -> str:
    """The sentence that tells the person when to try again."""
    if not seconds:
        return "Try again in a minute."
    return f"Try again in {whole_seconds(seconds)} s."
