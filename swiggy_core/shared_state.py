"""State that several app replicas share: Redis when REDIS_URL is set, else this process.

Server health, rate budgets and pending sign-ins live here so that replicas behind one
address agree. Values are strings (callers write JSON). In Redis every key is prefixed
`swiggy:`. A REDIS_URL that cannot be used is reported once, with a code, and the app carries
on in memory; a Redis that fails later raises `SharedStateError`, which each caller handles.

A key that names a person holds `person_key(user_id)`, never the id itself: anyone who can
list Redis's keys must not learn who uses the app (ids are e-mail addresses or browser ids).
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Final, Protocol
from urllib.parse import urlsplit

from swiggy_core.constants import (
    REDIS_SOCKET_TIMEOUT_SECONDS,
    REDIS_URL_ENV,
    SHARED_STATE_KEY_PREFIX,
)
from swiggy_core.errors import ErrorCode, SettingsError, StorageError
from swiggy_core.logsafe import mask_url_password, redact, register_secret

if TYPE_CHECKING:  # the driver loads only when $REDIS_URL names a server
    import redis

logger = logging.getLogger(__name__)
Clock = Callable[[], float]
# Hex digits of a person's digest in a key: 64 bits, so two people never share a budget.
PERSON_KEY_CHARS: Final = 16


class SharedStateError(StorageError):
    """The shared state (Redis) could not be read or written; the message names no secret."""

    code = ErrorCode.STORE_FAILED


class SharedState(Protocol):
    """A small key-value store with expiry; every method is atomic."""

    def get(self, key: str) -> str | None:
        """The value under `key`, or None when absent or expired."""
        ...

    def set(self, key: str, value: str, ttl: float | None = None) -> None:
        """Store `value`, forgetting it after `ttl` seconds (never when None)."""
        ...

    def set_if_absent(self, key: str, value: str, ttl: float | None = None) -> bool:
        """Store `value` only if `key` holds nothing; True for the one caller that did."""
        ...

    def delete(self, key: str) -> None:
        """Forget `key` (nothing happens when it is absent)."""
        ...

    def hit(self, key: str, window_seconds: float) -> int:
        """Count one event; the number of events so far in the current window, this one
        included. Windows are fixed slices of the clock (`window_left` says what is left)."""
        ...

    def keys(self, prefix: str) -> list[str]:
        """Every live key that starts with `prefix`."""
        ...


def person_key(user_id: str) -> str:
    """How a person appears in a shared-state key: a short SHA-256 digest of their id."""
    return hashlib.sha256(user_id.encode()).hexdigest()[:PERSON_KEY_CHARS]


def window_left(now: float, window_seconds: float) -> float:
    """Seconds until the current fixed window of `window_seconds` ends (`hit` starts over)."""
    return window_seconds - (now % window_seconds)


def _window_key(key: str, now: float, window_seconds: float) -> str:
    return f"{key}:{int(now // window_seconds)}"


class MemoryState:
    """Shared state in this process's memory (one replica, or tests); thread-safe."""

    def __init__(self, *, clock: Clock = time.time) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._values: dict[str, tuple[str, float | None]] = {}  # key → (value, expires at)

    def __repr__(self) -> str:
        with self._lock:
            return f"MemoryState(keys={len(self._values)})"

    def get(self, key: str) -> str | None:
        with self._lock:
            return self._live(key)

    def set(self, key: str, value: str, ttl: float | None = None) -> None:
        with self._lock:
            self._put(key, value, ttl)

    def set_if_absent(self, key: str, value: str, ttl: float | None = None) -> bool:
        with self._lock:
            if self._live(key) is not None:
                return False
            self._put(key, value, ttl)
            return True

    def delete(self, key: str) -> None:
        with self._lock:
            self._values.pop(key, None)

    def hit(self, key: str, window_seconds: float) -> int:
        with self._lock:
            now = self._clock()
            bucket = _window_key(key, now, window_seconds)
            count = int(self._live(bucket) or 0) + 1
            self._put(bucket, str(count), window_left(now, window_seconds))
            return count

    def keys(self, prefix: str) -> list[str]:
        with self._lock:
            now = self._clock()
            expired = [k for k, (_v, at) in self._values.items() if at is not None and at <= now]
            for key in expired:
                del self._values[key]
            return sorted(k for k in self._values if k.startswith(prefix))

    def _live(self, key: str) -> str | None:
        entry = self._values.get(key)
        if entry is None:
            return None
        value, expires_at = entry
        if expires_at is not None and expires_at <= self._clock():
            del self._values[key]
            return None
        return value

    def _put(self, key: str, value: str, ttl: float | None) -> None:
        expires_at = None if ttl is None else self._clock() + ttl
        self._values[key] = (value, expires_at)


class RedisState:
    """Shared state in Redis, for every replica that points at the same server."""

    def __init__(
        self,
        url: str,
        *,
        clock: Clock = time.time,
        timeout: float = REDIS_SOCKET_TIMEOUT_SECONDS,
    ) -> None:
        import redis  # here, not at the top: without $REDIS_URL nothing needs the driver

        self._where = _describe(url)
        self._clock = clock
        try:
            self._redis: redis.Redis = redis.Redis.from_url(
                url,
                decode_responses=True,
                socket_timeout=timeout,
                socket_connect_timeout=timeout,
            )
        except ValueError as error:
            raise SettingsError(
                f"{self._where} is not a Redis URL ({redact(str(error)).rstrip('.')})."
            ) from None

    def __repr__(self) -> str:
        return f"RedisState({self._where})"

    def ping(self) -> None:
        """Raise SharedStateError unless the server answers (and accepts our credentials)."""
        with self._reach():
            self._redis.ping()

    def close(self) -> None:
        self._redis.close()

    def get(self, key: str) -> str | None:
        with self._reach():
            value = self._redis.get(SHARED_STATE_KEY_PREFIX + key)
        return value if isinstance(value, str) else None

    def set(self, key: str, value: str, ttl: float | None = None) -> None:
        with self._reach():
            self._redis.set(SHARED_STATE_KEY_PREFIX + key, value, px=_millis(ttl))

    def set_if_absent(self, key: str, value: str, ttl: float | None = None) -> bool:
        with self._reach():
            done = self._redis.set(SHARED_STATE_KEY_PREFIX + key, value, px=_millis(ttl), nx=True)
        return bool(done)

    def delete(self, key: str) -> None:
        with self._reach():
            self._redis.delete(SHARED_STATE_KEY_PREFIX + key)

    def hit(self, key: str, window_seconds: float) -> int:
        now = self._clock()
        bucket = SHARED_STATE_KEY_PREFIX + _window_key(key, now, window_seconds)
        with self._reach():
            # One transaction: the counter never outlives its window without an expiry.
            pipe = self._redis.pipeline(transaction=True)
            pipe.incr(bucket)
            pipe.pexpire(bucket, _millis(window_left(now, window_seconds)) or 1)
            count, _expiry_set = pipe.execute()
        return int(count)

    def keys(self, prefix: str) -> list[str]:
        pattern = _glob_escape(SHARED_STATE_KEY_PREFIX + prefix) + "*"
        with self._reach():
            found = [str(key) for key in self._redis.scan_iter(match=pattern, count=500)]
        return sorted(key.removeprefix(SHARED_STATE_KEY_PREFIX) for key in found)

    @contextmanager
    def _reach(self) -> Iterator[None]:
        import redis  # loaded already: this state's constructor imported it

        try:
            yield
        except redis.RedisError as error:
            # Not chained: the driver's exception may echo the URL it was given.
            raise SharedStateError(
                f"Redis at {self._where} failed ({type(error).__name__}: {redact(str(error))}).",
            ) from None


def _millis(seconds: float | None) -> int | None:
    return None if seconds is None else max(1, round(seconds * 1000))


def _glob_escape(text: str) -> str:
    return "".join(f"\\{char}" if char in "*?[]\\" else char for char in text)


def _describe(url: str) -> str:
    """The URL for people and logs: its password masked (and registered as a secret)."""
    with suppress(ValueError):
        register_secret(urlsplit(url).password)
    return mask_url_password(url)


# The process-wide state: chosen once, from $REDIS_URL, the first time it is asked for.
_chosen_lock = threading.Lock()
_chosen: SharedState | None = None
_problem: str | None = None


def shared_state() -> SharedState:
    """This process's shared state: Redis when $REDIS_URL works, else memory (with a
    warning logged once, and `shared_state_problem()` saying why)."""
    global _chosen, _problem
    with _chosen_lock:
        if _chosen is None:
            _chosen, _problem = open_state(os.environ.get(REDIS_URL_ENV, ""))
        return _chosen


def shared_state_problem() -> str | None:
    """The coded message if $REDIS_URL was set but could not be used, else None."""
    shared_state()
    return _problem


def reset_shared_state() -> None:
    """Forget the process-wide choice (tests; a changed $REDIS_URL)."""
    global _chosen, _problem
    with _chosen_lock:
        if isinstance(_chosen, RedisState):
            _chosen.close()
        _chosen, _problem = None, None


def open_state(url: str) -> tuple[SharedState, str | None]:
    """The state for `url` ("" → memory) and, when it cannot be used, the coded reason."""
    if not url.strip():
        return MemoryState(), None
    try:
        state = RedisState(url.strip())
        state.ping()
    except (SettingsError, SharedStateError) as error:
        problem = (
            f"[{ErrorCode.SETTING_INVALID}] {REDIS_URL_ENV} is set but cannot be used: "
            f"{error.message} "
            "Server health, rate budgets and pending sign-ins stay in this process only, "
            "so other replicas will not see them."
        )
        logger.warning("%s", problem)
        return MemoryState(), problem
    return state, None
