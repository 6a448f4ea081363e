"""The tracking card's fragment: set up at the server's interval, read only when that has
passed, kept on a failed read (with a quiet coded notice), and set up without a timer,
never read again, once the order is delivered."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from swiggy_ui import tracking_card
from swiggy_ui.tracking_card import STALE_NOTICE

ACTIVE = {
    "orderId": "IM-1",
    "status": {"statusMessage": "Your items are being packed", "etaText": "Arriving in 9 min"},
    "storeInfo": {"name": "Instamart · Indiranagar"},
    "items": [{"name": "Milk", "quantity": 2, "price": "₹54.00"}],
    "pollingIntervalSeconds": 45,
}
DELIVERED = {**ACTIVE, "status": {"statusMessage": "Order delivered", "etaText": "Delivered"}}
LISTED = {
    "orders": [{"orderId": "IM-1", "isActive": True, "deliveryAddress": {"lat": 12.9, "lng": 77.6}}]
}


def _page() -> None:
    """A NutriCart card for order IM-1, read through the session's fake server."""
    import streamlit as st

    from swiggy_core.verticals import get_vertical
    from swiggy_ui.tracking_card import render_order_tracking

    st.session_state["tracking_reads::food"] = st.session_state["server"]
    render_order_tracking(["IM-1"], get_vertical("food"), "card")


class FakeServer:
    """Instamart's read tools, answering what the test sets; an error is raised as such."""

    def __init__(self) -> None:
        self.track: Any = ACTIVE
        self.reads: list[str] = []

    def __call__(self, tool: str, arguments: dict[str, Any]) -> str:
        self.reads.append(tool)
        answer = LISTED if tool == "get_orders" else self.track
        if isinstance(answer, Exception):
            raise answer
        return json.dumps({"success": True, "data": answer})


@pytest.fixture
def timers(monkeypatch) -> list[Any]:
    """Each fragment's run_every, in the order they were set up."""
    seen: list[Any] = []
    real = st.fragment

    def spy(func=None, *, run_every=None, **options):
        seen.append(run_every)
        return real(func, run_every=run_every, **options)

    monkeypatch.setattr(st, "fragment", spy)
    return seen


@pytest.fixture
def clock(monkeypatch) -> SimpleNamespace:
    now = SimpleNamespace(at=1_000.0)
    monkeypatch.setattr(tracking_card, "time", SimpleNamespace(monotonic=lambda: now.at))
    return now


def test_reads_at_the_servers_interval_keeps_the_last_state_and_stops_when_delivered(
    timers, clock
) -> None:
    from swiggy_core.mcp.client import McpCallError

    server = FakeServer()
    at = AppTest.from_function(_page, default_timeout=60)
    at.session_state["server"] = server
    at.run()
    assert server.reads == ["get_orders", "track_order"]  # coordinates once, then tracked
    assert timers == [45.5]  # the server's 45 s (and a margin so no read comes early)
    assert "Your items are being packed" in _words(at)

    at.run()  # a rerun before the interval has passed: drawn from what was read
    assert server.reads == ["get_orders", "track_order"]

    clock.at += 46
    server.track = McpCallError("connection refused")
    at.run()
    assert server.reads[-1] == "track_order" and len(server.reads) == 3
    assert "Your items are being packed" in _words(at), "the last state stays"
    captions = [c.value for c in at.caption]
    assert any(STALE_NOTICE in c for c in captions) and "Code for support: E-3003" in captions
    assert not at.exception

    clock.at += 46
    server.track = DELIVERED
    at.run()
    assert len(server.reads) == 4 and "**Delivered**" in _words(at)
    assert timers[-1] is None, "a delivered order's card has no timer"
    assert at.get("progress")[0].proto.value == 100

    clock.at += 3_600
    at.run()
    assert len(server.reads) == 4, "a delivered order is never read again"


def _words(at: AppTest) -> str:
    return "\n".join(str(m.value) for m in at.markdown)
