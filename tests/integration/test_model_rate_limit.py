"""The Messages API's 429 through the real SDK: the wait is the server's, never shortened,
capped, and one longer than our retry cap ends the turn with it instead of retrying early."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anthropic
import pytest

from swiggy_core.conversation import build_message_stream_params
from swiggy_core.engine import (
    RetryScheduled,
    StreamRequest,
    TurnDone,
    make_client,
    run_message_stream,
)
from swiggy_core.models import ChatMessage, TurnResult
from swiggy_core.retry_after import RETRY_AFTER_CAP_SECONDS
from swiggy_sandbox.emulator import EmulatorServer, Fault, text_turn


@pytest.fixture(scope="module")
def emulator() -> Iterator[EmulatorServer[Any]]:
    with EmulatorServer() as server:
        yield server


@pytest.fixture
def emu(emulator: EmulatorServer[Any]) -> Iterator[EmulatorServer[Any]]:
    emulator.requests.clear()
    yield emulator
    assert emulator.brain.pending() == 0, "a scripted response was not consumed"


@pytest.fixture
def client(emulator: EmulatorServer[Any]) -> Iterator[anthropic.Anthropic]:
    with make_client("sk-ant-test-key", emulator.base_url) as sdk:
        yield sdk


def run(client: anthropic.Anthropic) -> tuple[list[Any], list[float], TurnResult]:
    params = build_message_stream_params(
        vertical_id="food",
        messages=[ChatMessage(role="user", content="find protein bars")],
        swiggy_token=None,
    )
    waits: list[float] = []
    events = list(run_message_stream(StreamRequest(client, params, sleep=waits.append)))
    assert isinstance(events[-1], TurnDone)
    return events, waits, events[-1].result


def test_retry_after_ms_is_the_wait_the_sdk_would_honour(emu, client) -> None:
    emu.brain.enqueue(Fault(kind="rate_limit", retry_after=2, retry_after_ms=1500), text_turn("Hi"))
    events, waits, result = run(client)
    assert result.ok and waits == [1.5]
    (retry,) = [event for event in events if isinstance(event, RetryScheduled)]
    assert retry.delay_seconds == 1.5 and retry.error.retry_after_seconds == 1.5


def test_a_wait_past_the_retry_cap_ends_the_turn_with_it_and_a_huge_one_is_capped(
    emu, client
) -> None:
    emu.brain.enqueue(Fault(kind="rate_limit", retry_after=40, retry_after_ms=45_000))
    _events, waits, result = run(client)
    assert waits == [] and len(emu.requests) == 1  # nothing was resent early
    assert result.error is not None and result.error.code == "E-2001"
    assert result.error.retry_after_seconds == 45

    emu.brain.enqueue(Fault(kind="rate_limit", retry_after=10**9))
    _events, waits, result = run(client)
    assert waits == [] and len(emu.requests) == 2
    assert result.error is not None
    assert result.error.retry_after_seconds == RETRY_AFTER_CAP_SECONDS
