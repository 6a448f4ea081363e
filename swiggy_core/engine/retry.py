"""Retry policy for the Messages API: exponential backoff with jitter, honouring retry-after."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from swiggy_core.constants import (
    MAX_RETRIES,
    RATE_LIMIT_HEADER_PREFIX,
    RETRY_BASE_DELAY_SECONDS,
    RETRY_JITTER_RATIO,
    RETRY_MAX_DELAY_SECONDS,
    RETRY_MULTIPLIER,
    RETRYABLE_STATUSES,
)
from swiggy_core.retry_after import retry_after_headers


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """When and how long to wait before resending a failed request."""

    max_retries: int = MAX_RETRIES
    base_delay: float = RETRY_BASE_DELAY_SECONDS
    multiplier: float = RETRY_MULTIPLIER
    jitter_ratio: float = RETRY_JITTER_RATIO
    max_delay: float = RETRY_MAX_DELAY_SECONDS
    statuses: frozenset[int] = RETRYABLE_STATUSES
    random_fn: Callable[[], float] = field(default=random.random, compare=False)

    def should_retry(self, status: int | None, attempt: int) -> bool:
        """`attempt` counts retries already made (0 for the first failure)."""
        return status in self.statuses and attempt < self.max_retries

    def delay(self, attempt: int, retry_after: float | None = None) -> float | None:
        """Seconds to wait before retry number `attempt + 1`, or None to give up.

        A server-given wait longer than the cap means retrying now is pointless: give up
        and let the person see "try again in N s" instead of a frozen screen. A given wait
        is never shortened: resending before it is up only spends the limit again.
        """
        if retry_after is not None:
            return retry_after if retry_after <= self.max_delay else None
        backoff = self.base_delay * (self.multiplier**attempt)
        jitter = backoff * self.jitter_ratio * (2 * self.random_fn() - 1)
        return max(0.0, min(self.max_delay, backoff + jitter))


def parse_retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds from `retry-after-ms` or `retry-after` (seconds or an HTTP date), capped."""
    return retry_after_headers(headers)


def extract_rate_limit_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """The `anthropic-ratelimit-*` headers, lower-cased, for logs and the usage panel."""
    return {
        key.lower(): value
        for key, value in headers.items()
        if key.lower().startswith(RATE_LIMIT_HEADER_PREFIX)
    }
