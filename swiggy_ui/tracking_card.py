"""Watching an order arrive: the live part of an "Order placed" card, and the person's
active orders at the top of a shop page.

Each tracked order is drawn by a fragment that reruns at the server's own interval (never
under 10 s) and is registered without an interval once the order is delivered or
cancelled, so nothing is read again. What was last read is kept in the session per
order, shared by the card in the chat and the strip at the top: a full rerun of the page
(each message) draws the kept state and reads only when the interval has passed. A read
that fails keeps the last state under a quiet notice with its code; it never breaks the
page. The reads are the app's own audited calls of the shop's server, read tools only.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import streamlit as st

from swiggy_core.constants import TRACK_MIN_INTERVAL_SECONDS
from swiggy_core.errors import ErrorCode, SwiggyAssistantError
from swiggy_core.saved_addresses import Reader
from swiggy_core.tracking import (
    TRACKED_SERVERS,
    TrackedOrder,
    TrackingState,
    active_orders,
    order_to_track,
    poll,
)
from swiggy_core.verticals import Vertical
from swiggy_ui import state
from swiggy_ui.banners import support_code
from swiggy_ui.safe_text import plain

if TYPE_CHECKING:
    from swiggy_ui.runtime import Runtime

logger = logging.getLogger(__name__)

# A fragment's timer fires this much after the interval, so a read is never early.
_TIMER_MARGIN_SECONDS = 0.5
_READERS_KEY = "tracking_reads"
_SEEN_KEY = "tracking_seen"
_ACTIVE_KEY = "tracking_active"
ACTIVE_TITLE = "On its way to you"
STALE_NOTICE = "Could not refresh this just now; showing the last status you saw."
UNREAD_NOTICE = "Live status is not available just now."
PLACED_WORDS = "order placed"  # the placed card's own title


@dataclass
class _Seen:
    """What was last read about one order, and when (monotonic seconds)."""

    order: TrackedOrder
    state: TrackingState | None = None
    read_at: float = 0.0
    failure: str | None = None  # the code of the last read, when it failed


@dataclass
class _Active:
    """The active orders last listed for one server, and when."""

    keys: list[str]
    read_at: float = 0.0
    failure: str | None = None


def _scoped(name: str) -> dict[str, Any]:
    """A per-world dictionary in this session (sandbox and real Swiggy never mix)."""
    key = f"{name}::{state.backend()}"
    kept: dict[str, Any] | None = st.session_state.get(key)
    if kept is None:
        kept = st.session_state[key] = {}
    return kept


def _order_key(order: TrackedOrder) -> str:
    return f"{order.server_key}:{order.order_id}"


def _due(read_at: float, interval: float | None) -> bool:
    return interval is not None and time.monotonic() - read_at >= interval


def _run_every(seen_state: TrackingState | None) -> float | None:
    seconds = seen_state.refresh_seconds if seen_state else None
    return None if seconds is None else seconds + _TIMER_MARGIN_SECONDS


def _failure_code(error: Exception) -> str:
    """The error's code; a fault of our own (a reader bug) is logged and coded internal."""
    if isinstance(error, SwiggyAssistantError):
        return error.code.value
    if isinstance(error, OSError):
        return ErrorCode.TOOL_SERVER.value
    logger.exception("tracking read failed")
    return ErrorCode.INTERNAL.value


def server_reader(runtime: Runtime, server_key: str, page: str) -> Reader | None:
    """The app's own audited reads of one shop server (None before any sign-in)."""
    token = runtime.mcp_token()
    if not token:
        return None
    url = runtime.app.server_urls[server_key]
    user_id, record = runtime.user_id, runtime.store.record_tool_call

    def read(tool: str, arguments: dict[str, Any]) -> str:
        # The MCP client loads with the first read, not with the page.
        from swiggy_core.hooks import CallScope
        from swiggy_core.hooks.audited import run_audited
        from swiggy_core.mcp.manager import shared_manager

        info = CallScope(user_id, page).info(server_key, tool, arguments)
        call = lambda: shared_manager().call_tool(url, token, tool, arguments)  # noqa: E731
        return run_audited(info, call, record).envelope_text()

    return read


def _refresh(read: Reader, seen: _Seen) -> None:
    """Read the order again when its interval has passed (or it was never read); a
    delivered or cancelled order is never read again."""
    interval = seen.state.refresh_seconds if seen.state else TRACK_MIN_INTERVAL_SECONDS
    if seen.read_at and not _due(seen.read_at, interval):
        return
    try:
        seen.order, seen.state = poll(read, seen.order)
        seen.failure = None
    except Exception as error:  # a failed read never breaks the page: the last state stays
        seen.failure = _failure_code(error)
    seen.read_at = time.monotonic()


def _seen(order: TrackedOrder) -> _Seen:
    kept = _scoped(_SEEN_KEY)
    key = _order_key(order)
    if key not in kept:
        kept[key] = _Seen(order)
    found: _Seen = kept[key]
    return found


def render_order_tracking(order_ids: list[str], vertical: Vertical, key: str) -> None:
    """The live part of an "Order placed" card (nothing where orders are not tracked, or
    before the page bound its reads)."""
    read: Reader | None = st.session_state.get(f"{_READERS_KEY}::{vertical.id}")
    if read is None:
        return
    for index, order_id in enumerate(order_ids):
        order = order_to_track(vertical.server_key, order_id)
        if order is not None:
            _live_order(read, order, f"{key}-track-{index}", compact=False)


def _live_order(read: Reader, order: TrackedOrder, key: str, *, compact: bool) -> None:
    seen = _seen(order)
    _refresh(read, seen)  # before the fragment is set up: its interval is the server's
    if seen.state is not None and not seen.state.is_final:
        _note_active(order)
    every = _run_every(seen.state)
    st.fragment(_order_fragment, run_every=every)(read, order, key, every, compact)


def _order_fragment(
    read: Reader, order: TrackedOrder, key: str, every: float | None, compact: bool
) -> None:
    seen = _seen(order)
    _refresh(read, seen)
    with st.container(key=key):
        _draw(seen, compact=compact)
    if every is not None and seen.state is not None and seen.state.is_final:
        st.rerun()  # set up again without a timer: a delivered order is not read again


def _arriving(eta_text: str | None) -> str | None:
    """ "48 mins" → "Arriving in 48 mins"; the server's own sentence as it is."""
    if not eta_text:
        return None
    return plain(f"Arriving in {eta_text}" if eta_text[:1].isdigit() else eta_text)


def _status_line(current: TrackingState, *, compact: bool) -> str | None:
    if current.delivered:
        return ":green[:material/check_circle: **Delivered**]"
    if current.cancelled:
        return f":red[:material/cancel: **{plain(current.headline)}**]"
    if not compact and current.headline.lower() == PLACED_WORDS:
        return None  # the placed card's own title says it already
    return f":material/delivery_truck_speed: **{plain(current.headline)}**"


def _draw(seen: _Seen, *, compact: bool) -> None:
    current = seen.state
    if current is None:
        st.caption(f":material/sync_problem: {UNREAD_NOTICE}")
        support_code(seen.failure)
        return
    if compact:
        st.markdown(f"**{plain(current.store or 'Your order')}** · order {plain(current.order_id)}")
    status = _status_line(current, compact=compact)
    if status:
        st.markdown(status)
    if current.progress is not None and not current.cancelled:
        st.progress(current.progress, text=_arriving(current.eta_text))
    details = [text for text in (current.items, None if compact else current.store) if text]
    if details:
        st.caption(" · ".join(plain(text) for text in details))
    if seen.failure is not None:
        st.caption(f":material/sync_problem: {STALE_NOTICE}")
        support_code(seen.failure)


def render_active_orders(runtime: Runtime, vertical: Vertical) -> None:
    """Bind this page's reads for its order cards, and show its server's orders on their
    way (an order shows once, on every shop page of its server)."""
    if vertical.server_key not in TRACKED_SERVERS:
        return
    read = server_reader(runtime, vertical.server_key, vertical.id)
    st.session_state[f"{_READERS_KEY}::{vertical.id}"] = read
    if read is None:
        return
    listing = _listing(vertical.server_key)
    _refresh_listing(read, vertical.server_key, listing)
    every = _listing_every(listing)
    st.fragment(_active_fragment, run_every=every)(read, vertical.server_key, every)


def _listing(server_key: str) -> _Active:
    kept = _scoped(_ACTIVE_KEY)
    if server_key not in kept:
        kept[server_key] = _Active([])
    found: _Active = kept[server_key]
    return found


def _note_active(order: TrackedOrder) -> None:
    """An order on its way, seen in the chat: it shows at the top from the next run."""
    listing = _listing(order.server_key)
    if _order_key(order) not in listing.keys:
        listing.keys.insert(0, _order_key(order))


def _listing_states(listing: _Active) -> list[_Seen]:
    kept = _scoped(_SEEN_KEY)
    return [kept[key] for key in listing.keys if key in kept]


def _listing_every(listing: _Active) -> float | None:
    """The soonest interval among the listed orders (None when none is on its way)."""
    timers = [_run_every(seen.state) for seen in _listing_states(listing)]
    present = [seconds for seconds in timers if seconds is not None]
    return min(present) if present else None


def _refresh_listing(read: Reader, server_key: str, listing: _Active) -> None:
    """List again at the orders' interval; with none on its way, at most every 10 s (on
    the page's own reruns: an order placed in the chat shows at the top)."""
    every = _listing_every(listing) or TRACK_MIN_INTERVAL_SECONDS
    if listing.read_at and not _due(listing.read_at, every):
        return
    try:
        found = active_orders(read, server_key)
        listing.failure = None
    except Exception as error:  # as for one order: the page goes on, the notice is quiet
        listing.failure = _failure_code(error)
        found = []
    listing.read_at = time.monotonic()
    if listing.failure is not None:
        return  # the orders listed before stay, each read on its own
    kept = _scoped(_SEEN_KEY)
    for order, current in found:
        seen = kept.setdefault(_order_key(order), _Seen(order))
        seen.order, seen.state, seen.read_at, seen.failure = order, current, listing.read_at, None
    listing.keys = [_order_key(order) for order, _ in found]


def _active_fragment(read: Reader, server_key: str, every: float | None) -> None:
    listing = _listing(server_key)
    _refresh_listing(read, server_key, listing)
    shown = [seen for seen in _listing_states(listing) if seen.state and not seen.state.is_final]
    if shown:
        with st.container(border=True, key=f"active-orders-{server_key}"):
            st.markdown(f"**{ACTIVE_TITLE}**")
            with st.container(horizontal=True):
                for seen in shown:
                    with st.container(border=True, width=320):
                        _draw(seen, compact=True)
    if every is not None and not shown:
        st.rerun()  # nothing on its way any more: set up again without a timer
