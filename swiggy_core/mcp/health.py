"""Server health, shared by every replica: status, tool count, latency, last coded error.

Swiggy asks that nobody polls a server more often than every 10 s, so a probe of one server
happens at most once per `min_interval` across all replicas: the replica that takes the
short `health-lock:<key>` in the shared state probes; the others read its result from
`health:<key>`.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from swiggy_core.constants import (
    HEALTH_MIN_INTERVAL_SECONDS,
    HEALTH_REFRESH_WAIT_SECONDS,
    HEALTH_STATUS_TTL_SECONDS,
)
from swiggy_core.errors import ErrorCode
from swiggy_core.logsafe import redact
from swiggy_core.mcp.config import ServerConfig
from swiggy_core.shared_state import Clock, SharedState, SharedStateError

if TYPE_CHECKING:
    from swiggy_core.mcp.manager import ServerHealth

logger = logging.getLogger(__name__)
Probe = Callable[[ServerConfig], "ServerHealth"]
_STATUS_KEY = "health:"
_LOCK_KEY = "health-lock:"
_AWAIT_POLL_SECONDS = 0.2


@dataclass(frozen=True, slots=True)
class ServerStatus:
    """The last known health of one server; `ok` None means not known (yet)."""

    key: str
    ok: bool | None
    tool_count: int = 0
    latency_ms: float = 0.0
    error_code: str | None = None
    error: str | None = None
    checked_at: float = 0.0  # epoch seconds; 0 when never checked

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> ServerStatus:
        """The status `to_json` wrote; ValueError when `text` is not one."""
        data = json.loads(text)
        if not isinstance(data, dict) or not isinstance(data.get("key"), str):
            raise ValueError("not a server status")
        ok = data.get("ok")
        return cls(
            key=data["key"],
            ok=ok if isinstance(ok, bool) else None,
            tool_count=int(data.get("tool_count") or 0),
            latency_ms=float(data.get("latency_ms") or 0.0),
            error_code=_text_or_none(data.get("error_code")),
            error=_text_or_none(data.get("error")),
            checked_at=float(data.get("checked_at") or 0.0),
        )


class HealthBoard:
    """Probes servers (never one more than once per `min_interval`, across replicas) and
    keeps their statuses in the shared state."""

    def __init__(
        self,
        state: SharedState,
        probe: Probe,
        min_interval: float = HEALTH_MIN_INTERVAL_SECONDS,
        *,
        clock: Clock = time.time,
        refresh_wait: float = HEALTH_REFRESH_WAIT_SECONDS,
    ) -> None:
        self._state = state
        self._probe = probe
        self._min_interval = min_interval
        self._clock = clock
        self._refresh_wait = refresh_wait
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __repr__(self) -> str:
        running = self._thread is not None and self._thread.is_alive()
        return f"HealthBoard(state={self._state!r}, every={self._min_interval}s, polling={running})"

    def status(self, key: str) -> ServerStatus | None:
        """The last stored status of server `key`, or None if none is known (or the shared
        state cannot be read: a page showing health must not fail with it)."""
        try:
            text = self._state.get(_STATUS_KEY + key)
        except SharedStateError as error:
            logger.warning("Health status of %s not read: %s", key, error)
            return None
        if text is None:
            return None
        try:
            return ServerStatus.from_json(text)
        except (ValueError, TypeError):
            return None  # written by something else: as good as unknown

    def statuses(self, keys: Iterable[str]) -> dict[str, ServerStatus]:
        """The known statuses among `keys` (unknown ones are left out)."""
        found = {key: self.status(key) for key in keys}
        return {key: status for key, status in found.items() if status is not None}

    def check(
        self, configs: Sequence[ServerConfig], *, force: bool = False
    ) -> dict[str, ServerStatus]:
        """Every server's status, probing those whose status is older than `min_interval`.

        `force` probes even a fresh one (the Refresh button), but still never more than
        once per `min_interval`: a server probed by any replica within it is not probed,
        and one being probed elsewhere right now is waited for (`refresh_wait` at most).
        """
        return {config.key: self._check_one(config, force=force) for config in configs}

    def start(self, configs_provider: Callable[[], Sequence[ServerConfig]]) -> None:
        """Poll in a daemon thread every `min_interval` until `stop()` (idempotent)."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(
            target=self._poll, args=(configs_provider,), name="mcp-health", daemon=True
        )
        self._thread.start()

    def stop(self, timeout: float | None = None) -> None:
        """End the poller and wait for it (a probe under way finishes first)."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout)

    def _poll(self, configs_provider: Callable[[], Sequence[ServerConfig]]) -> None:
        while not self._stop.is_set():
            try:
                self.check(configs_provider())
            except Exception as error:  # the poller outlives any one bad round
                logger.warning("Health check round failed: %s", redact(repr(error)))
            self._stop.wait(self._min_interval)

    def _check_one(self, config: ServerConfig, *, force: bool) -> ServerStatus:
        if not config.enabled:
            return ServerStatus(
                config.key,
                None,
                error_code=str(ErrorCode.SERVER_DISABLED),
                error="Switched off in the configuration.",
            )
        try:
            if force:
                return self._refresh_one(config)
            known = self.status(config.key)
            fresh = known is not None and self._clock() - known.checked_at < self._min_interval
            if fresh or not self._take_turn(config.key):
                return known or ServerStatus(config.key, None)  # another replica is on it
            return self._probe_and_keep(config)
        except SharedStateError as error:
            return ServerStatus(config.key, None, error_code=str(error.code), error=error.message)

    def _refresh_one(self, config: ServerConfig) -> ServerStatus:
        """Probe now, or, while another thread or replica probes it, wait for that answer
        (the person pressed Refresh: "unknown" because someone else was asking is no answer)."""
        deadline = time.monotonic() + self._refresh_wait
        while True:
            if self._take_turn(config.key):
                return self._probe_and_keep(config)
            status, started = self.status(config.key), self._turn_started(config.key)
            if status is not None and started is not None and status.checked_at >= started:
                return status  # that probe's answer, or one from within the last 10 s
            if time.monotonic() >= deadline:
                return status or ServerStatus(config.key, None)
            if started is not None:  # else the turn just lapsed: take it on the next round
                time.sleep(_AWAIT_POLL_SECONDS)

    def _turn_started(self, key: str) -> float | None:
        """When the probe holding `key`'s turn began (None when no probe holds it)."""
        try:
            return float(self._state.get(_LOCK_KEY + key) or "")
        except ValueError:
            return None

    def _probe_and_keep(self, config: ServerConfig) -> ServerStatus:
        status = self._probe_now(config)
        self._state.set(_STATUS_KEY + config.key, status.to_json(), HEALTH_STATUS_TTL_SECONDS)
        return status

    def _take_turn(self, key: str) -> bool:
        return self._state.set_if_absent(_LOCK_KEY + key, str(self._clock()), self._min_interval)

    def _probe_now(self, config: ServerConfig) -> ServerStatus:
        try:
            health = self._probe(config)
        except Exception as error:  # a probe must report, not raise; say so if it does
            logger.warning("Health probe of %s raised: %s", config.key, redact(repr(error)))
            return ServerStatus(
                config.key,
                False,
                error_code=str(ErrorCode.INTERNAL),
                error="The health check itself failed.",
                checked_at=self._clock(),
            )
        return _status_from(config.key, health, self._clock())


def _status_from(key: str, health: ServerHealth, checked_at: float) -> ServerStatus:
    # `code` is read defensively: older managers' ServerHealth has no such field.
    code: Any = getattr(health, "code", None)
    error = health.error
    return ServerStatus(
        key=key,
        ok=bool(health.ok),
        tool_count=int(health.tool_count),
        latency_ms=float(health.latency_ms),
        error_code=str(code) if code else None,
        error=redact(error) if error else None,
        checked_at=checked_at,
    )


def _text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) and value else None
