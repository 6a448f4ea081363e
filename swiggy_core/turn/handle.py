"""A running turn that outlives the page watching it: events so far, Stop, and a registry.

A turn runs on its own thread. Streamlit may stop the page's script at any moment (a
click, a keypress, a closed tab); the turn goes on, and a later run of the page finds it
here and replays its events from the start. The registry holds running turns only: a
finished turn is dropped at once (the page that started it keeps its own handle), so a
process's memory does not grow with the chats it has served. Across processes, the chat's
lease (`swiggy_core.turn.lease`) keeps one reply at a time.
"""

from __future__ import annotations

import contextlib
import threading
import uuid
from collections.abc import Callable, Iterator
from typing import Literal

from swiggy_core.engine import StreamEvent
from swiggy_core.errors import ActionRefused, ErrorCode
from swiggy_core.models import Usage
from swiggy_core.turn.lease import HeldLease, TurnGate

TurnKind = Literal["message", "confirm", "decline", "retry", "edit", "regenerate"]
# How often a watcher wakes while nothing arrives (keeps the page responsive to Stop).
HEARTBEAT_SECONDS = 0.25
BUSY_MESSAGE = "A reply is still coming in: wait for it or press Stop."


class Heartbeat:
    """Yielded to a watcher when nothing new arrived for a while."""

    kind: Literal["heartbeat"] = "heartbeat"


HEARTBEAT = Heartbeat()


class TurnHandle:
    """One turn's events (append-only), its Stop flag and its end."""

    def __init__(self, conversation_id: str, kind: TurnKind, turn_id: str | None = None) -> None:
        self.id = turn_id or uuid.uuid4().hex
        self.conversation_id = conversation_id
        self.kind = kind
        self._events: list[StreamEvent] = []
        self._changed = threading.Condition()
        self._finished = False
        self._stop = threading.Event()
        self._pressed = False  # the person pressed Stop (not a lost lease)
        self._cut = False  # a Stop ended a model stream of this turn early
        self._abort: Callable[[], None] | None = None
        self._abort_lock = threading.Lock()
        # Tokens of every model call of this turn (complete once the turn has finished).
        self.usage = Usage()

    def __repr__(self) -> str:
        state = "finished" if self._finished else "running"
        return f"TurnHandle({self.kind}, {state}, events={len(self._events)})"

    @property
    def finished(self) -> bool:
        return self._finished

    def stop_requested(self) -> bool:
        return self._stop.is_set()

    @property
    def stop_came_late(self) -> bool:
        """The person pressed Stop, but the reply had already come in whole: nothing was cut."""
        return self._finished and self._pressed and not self._cut

    def press_stop(self) -> bool:
        """The person's Stop; False when the turn had already finished (nothing to stop)."""
        with self._changed:
            running = not self._finished
        self._pressed = True
        self.stop()
        return running

    def mark_cut(self) -> None:
        """A Stop ended a model stream early: part of the reply never came."""
        self._cut = True

    def stop(self) -> None:
        """Ask the turn to end now, keeping what arrived (a stalled stream is closed)."""
        self._stop.set()
        with self._abort_lock:
            abort = self._abort
        if abort is not None:
            with contextlib.suppress(Exception):  # it may be closing by itself right now
                abort()

    def set_abort(self, abort: Callable[[], None] | None) -> None:
        """What `stop` calls to cut the open model stream (None when none is open)."""
        with self._abort_lock:
            self._abort = abort
        if abort is not None and self._stop.is_set():
            self.stop()

    def publish(self, event: StreamEvent) -> None:
        with self._changed:
            self._events.append(event)
            self._changed.notify_all()

    def finish(self) -> None:
        with self._changed:
            self._finished = True
            self._changed.notify_all()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the turn ends; False on timeout."""
        with self._changed:
            return self._changed.wait_for(lambda: self._finished, timeout)

    def events(self, *, heartbeat: float | None = None) -> Iterator[StreamEvent | Heartbeat]:
        """Every event from the first, then new ones as they come, until the turn ends."""
        index = 0
        while True:
            with self._changed:
                if index >= len(self._events) and not self._finished:
                    self._changed.wait(heartbeat)
                batch = self._events[index:]
                finished = self._finished
            index += len(batch)
            yield from batch
            if finished and index >= len(self._events):
                return
            if not batch and heartbeat is not None:
                yield HEARTBEAT


_running: dict[str, TurnHandle] = {}
_registry_lock = threading.Lock()


def running_turn(conversation_id: str | None) -> TurnHandle | None:
    """The unfinished turn of a conversation in this process, if any."""
    if conversation_id is None:
        return None
    with _registry_lock:
        handle = _running.get(conversation_id)
    return handle if handle is not None and not handle.finished else None


def reserve(conversation_id: str, kind: TurnKind) -> TurnHandle:
    """Register a new turn of this conversation in this process (E-1105 if one runs)."""
    handle = TurnHandle(conversation_id, kind)
    with _registry_lock:
        current = _running.get(conversation_id)
        if current is not None and not current.finished:
            raise ActionRefused(BUSY_MESSAGE, code=ErrorCode.TURN_BUSY)
        _running[conversation_id] = handle
    return handle


def cancel(handle: TurnHandle) -> None:
    """Forget a reserved turn that will not run (its setup failed)."""
    handle.finish()
    _forget(handle)


def run_turn(
    handle: TurnHandle, lease: HeldLease | None, body: Callable[[TurnHandle], None]
) -> TurnHandle:
    """Run a reserved turn's `body` on its own thread; the lease is kept alive meanwhile and
    given back only after `body` (which stores the result) has returned."""

    def run() -> None:
        try:
            body(handle)
        finally:
            # The result is stored by now: free the chat, then say the turn has ended.
            if lease is not None:
                lease.release()
            _forget(handle)
            handle.finish()

    if lease is not None:
        lease.keep_alive(on_lost=handle.stop)
    threading.Thread(target=run, name=f"turn-{handle.id[:8]}", daemon=True).start()
    return handle


def start_turn(
    conversation_id: str, kind: TurnKind, body: Callable[[TurnHandle], None]
) -> TurnHandle:
    """Register a turn (one at a time per conversation) and run `body` on its own thread."""
    return run_turn(reserve(conversation_id, kind), None, body)


def running_count() -> int:
    """How many turns this process is running (memory checks)."""
    with _registry_lock:
        return len(_running)


def _forget(handle: TurnHandle) -> None:
    with _registry_lock:
        if _running.get(handle.conversation_id) is handle:
            del _running[handle.conversation_id]


def ensure_idle(conversation_id: str | None) -> None:
    """Raise ActionRefused (E-1105) when a turn of this conversation is running."""
    if running_turn(conversation_id) is not None:
        raise ActionRefused(BUSY_MESSAGE, code=ErrorCode.TURN_BUSY)


def reserve_with_lease(
    gate: TurnGate, conversation_id: str, kind: TurnKind
) -> tuple[TurnHandle, HeldLease]:
    """This process's registry first (a second tab here), then the chat's lease in the
    shared store (another replica): E-1105 or TurnElsewhere when a reply runs."""
    handle = reserve(conversation_id, kind)
    try:
        lease = gate.take(conversation_id, handle.id, kind)
    except BaseException:
        cancel(handle)
        raise
    return handle, lease


def abandon(handle: TurnHandle, lease: HeldLease) -> None:
    """Give back a turn that never started: its lease, then its place in the registry."""
    lease.release()
    cancel(handle)
