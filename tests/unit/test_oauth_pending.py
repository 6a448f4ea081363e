"""Pending authorisations: claimed once (even by racing tabs), remembered after use."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

from swiggy_core.oauth import MemoryPendingStore, PendingAuthorization

NOW = datetime(2026, 11, 20, 9, 30, tzinfo=UTC)
VERIFIER = "verifier-" + "v" * 50


def pending(state: str, at: datetime = NOW) -> PendingAuthorization:
    return PendingAuthorization(
        state=state,
        user_id="alice",
        redirect_uri="http://localhost:8501/callback",
        code_verifier=VERIFIER,
        server_urls=(("instamart", "https://mcp.swiggy.com/im"),),
        client_id="swiggy-mcp",
        issuer="https://mcp.swiggy.com/auth",
        token_endpoint="https://mcp.swiggy.com/auth/token",
        created_at=at,
    )


def test_a_pending_sign_in_is_claimed_once_and_then_known_as_used() -> None:
    store = MemoryPendingStore()
    store.add(pending("s1"))
    assert store.get("s1") is not None and not store.get("s1").used  # type: ignore[union-attr]
    assert store.claim("s1") is True
    assert store.claim("s1") is False
    assert store.get("s1").used  # type: ignore[union-attr]
    assert store.claim("unknown") is False and store.get("unknown") is None
    assert pending("s1").resource == "https://mcp.swiggy.com/im"


def test_racing_claims_have_exactly_one_winner() -> None:
    store = MemoryPendingStore()
    store.add(pending("race"))
    start = threading.Barrier(8)
    wins: list[bool] = []

    def claim() -> None:
        start.wait()
        wins.append(store.claim("race"))

    threads = [threading.Thread(target=claim) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(wins) == [False] * 7 + [True]


def test_entries_are_forgotten_a_day_later_and_never_show_the_verifier() -> None:
    store = MemoryPendingStore()
    store.add(pending("old"))
    store.add(pending("new", NOW + timedelta(hours=23)))
    assert store.get("old") is not None
    store.add(pending("newest", NOW + timedelta(days=1, minutes=1)))
    assert store.get("old") is None and store.get("new") is not None
    assert VERIFIER not in repr(store.get("new")) and VERIFIER not in repr(store)
