"""The running-turn registry holds running turns only: a process that has served a thousand
chats keeps none of their handles or events."""

from __future__ import annotations

import gc
import tracemalloc
import uuid

from swiggy_core.engine import TextDelta
from swiggy_core.turn.handle import TurnHandle, running_count, running_turn, start_turn

TURNS = 1_000


def _chat_turn(events: int = 40) -> TurnHandle:
    def body(handle: TurnHandle) -> None:
        for index in range(events):
            handle.publish(TextDelta(text=f"chunk {index} " * 4))

    handle = start_turn(uuid.uuid4().hex, "message", body)
    assert handle.wait(30)
    return handle


def _allocated() -> int:
    gc.collect()
    current, _peak = tracemalloc.get_traced_memory()
    return current


def test_a_thousand_finished_turns_leave_the_registry_empty_and_memory_flat() -> None:
    tracemalloc.start()
    try:
        for _ in range(100):  # warm up: caches, thread machinery
            _chat_turn()
        after_warmup = _allocated()
        for _ in range(TURNS):
            _chat_turn()
        after_all = _allocated()
    finally:
        tracemalloc.stop()
    assert running_count() == 0
    # Each kept handle would hold ~40 events (several KB): a thousand of them, megabytes.
    assert after_all - after_warmup < 256 * 1024, f"grew {after_all - after_warmup} bytes"


def test_a_running_turn_is_found_until_it_ends() -> None:
    import threading

    release = threading.Event()
    handle = start_turn("chat-a", "message", lambda _h: release.wait(30) and None)
    assert running_turn("chat-a") is handle
    release.set()
    assert handle.wait(30)
    for _ in range(100):
        if running_turn("chat-a") is None and running_count() == 0:
            break
        threading.Event().wait(0.05)
    assert running_turn("chat-a") is None
    assert handle.events  # the page that started it keeps its own handle and its events
