"""A replica killed at each step of a confirmation: the other replica (or a fresh one) ends
it in one settled, visible outcome, and nothing is ever ordered twice.

Two `streamlit run app.py` replicas share a real PostgreSQL and a real Redis (the offline
demo's shop lives in that database too). In a real browser, a person fills a NutriCart cart
on replica A and presses Confirm. A is frozen at one step and SIGKILLed:
- after the compare-and-set (the call never went out),
- during the call (the shop placed the order and went quiet),
- after the call, before its outcome was stored.
The same browser then opens the chat on replica B (and through AppTest), or a replica
started after the crash settles it by itself. Each test checks the database (polled, never
the page, for data), what the page shows, the audit, what the model is told, and that
typing or Retry never orders again.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from e2e_support import (
    NARROW,
    WIDE,
    Server,
    browser_context,
    browser_id,
    open_page,
    send,
    shown,
)
from pg_databases import new_database
from playwright.sync_api import Browser, Page, expect
from replicas import SharedDatabase, answers_for, kill, replica

pytestmark = [pytest.mark.browser, pytest.mark.timeout(1200)]

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def shared(postgres_url: str, redis_url: str) -> Iterator[tuple[str, str]]:
    with new_database(postgres_url, "chaos") as database:
        yield database, redis_url


@pytest.fixture(scope="module")
def db(shared: tuple[str, str]) -> Iterator[SharedDatabase]:
    looks = SharedDatabase(shared[0])
    yield looks
    looks.close()


@pytest.fixture(scope="module")
def replica_b(
    shared: tuple[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    with replica(tmp_path_factory.mktemp("replica-b"), *shared) as server:
        yield server


@contextmanager
def _person(browser: Browser, width: int) -> Iterator[Page]:
    """One person's browser (its own cookies) at a desktop or phone width."""
    with browser_context(browser, width) as context:
        yield context.new_page()


def _open_nutricart(page: Page, server: Server) -> None:
    open_page(page, server, "nutricart", "NutriCart", wait_until="domcontentloaded")


def _confirm_an_order(page: Page, server: Server) -> str:
    """Fill the cart (to the header's address), ask to place the order and press Confirm."""
    _open_nutricart(page, server)
    send(page, "add 2 amul taaza milk")
    shown(page, server, page.get_by_text("To pay", exact=True).last)
    send(page, "place the order")
    dialog = page.get_by_role("dialog").filter(has_text="Please confirm")
    shown(page, server, dialog)
    user = f"b-{browser_id(page)}@sandbox"
    dialog.get_by_role("button", name="Confirm", exact=True).click()
    return user


def _executing(db: SharedDatabase, user: str) -> Any:
    return [row for row in db.approvals(user) if row.status == "executing"]


def _settled_outcome(db: SharedDatabase, user: str, status: str) -> Any:
    return [row for row in db.approvals(user) if row.status == status]


def _reopen_on(page: Page, server: Server) -> None:
    _open_nutricart(page, server)
    shown(page, server, page.get_by_text(re.compile("E-1109")).first)  # interrupted + Retry


def _check_told(db: SharedDatabase, approval: Any, kind: str) -> None:
    told = answers_for(db.messages(approval.conversation_id), approval.tool_use_id)
    assert [answer["approval"] for answer in told] == [kind], told
    assert "did not confirm" not in str(told)


@pytest.mark.parametrize("width", [WIDE])
def test_killed_after_the_compare_and_set_nothing_was_placed_and_retry_never_orders(
    width: int,
    browser: Browser,
    shared: tuple[str, str],
    db: SharedDatabase,
    replica_b: Server,
    tmp_path: Path,
    screenshot_dir: Path,
) -> None:
    with _person(browser, width) as page:
        with replica(tmp_path / "a", *shared, SWIGGY_FAULT_PAUSE="confirm.after_cas") as a:
            user = _confirm_an_order(page, a)
            db.wait_for("the approval marked executing", lambda: _executing(db, user), a)
            kill(a)
        assert db.orders(user) == 0

        _reopen_on(page, replica_b)
        expect(page.get_by_text(re.compile("nothing was placed")).first).to_be_visible()
        (approval,) = db.wait_for(
            "the failed outcome", lambda: _settled_outcome(db, user, "failed")
        )
        (audit,) = db.spend_audits(user)
        assert audit["outcome"] == "failed" and audit["settled"]
        _check_told(db, approval, "failed")
        page.screenshot(path=str(screenshot_dir / f"chaos-after-cas-{width}.png"))

        page.get_by_role("button", name="Retry").first.click()
        shown(page, replica_b, page.get_by_placeholder("Ask NutriCart…"))
        expect(page.get_by_placeholder("Ask NutriCart…")).to_be_editable()
        assert db.orders(user) == 0, "Retry placed an order"
        assert len(db.spend_audits(user)) == 1


@pytest.mark.parametrize(
    ("width", "fault"),
    [
        (NARROW, {"SWIGGY_SANDBOX_STALL_AFTER_SPEND": "600"}),  # during the call
        (WIDE, {"SWIGGY_FAULT_PAUSE": "confirm.after_call"}),  # after it, before the record
    ],
    ids=["during-the-call-390px", "after-the-call-1400px"],
)
def test_killed_once_the_order_exists_the_other_replica_shows_it_and_typing_never_reorders(
    width: int,
    fault: dict[str, str],
    browser: Browser,
    shared: tuple[str, str],
    db: SharedDatabase,
    replica_b: Server,
    tmp_path: Path,
    screenshot_dir: Path,
) -> None:
    with _person(browser, width) as page:
        with replica(tmp_path / "a", *shared, **fault) as a:
            user = _confirm_an_order(page, a)
            db.wait_for("the order in the shop", lambda: db.orders(user) == 1, a)
            db.wait_for("the approval still executing", lambda: _executing(db, user), a)
            kill(a)

        _reopen_on(page, replica_b)
        shown(page, replica_b, page.get_by_text("Order placed", exact=True).first)
        (approval,) = db.wait_for("the done outcome", lambda: _settled_outcome(db, user, "done"))
        (audit,) = db.spend_audits(user)
        assert audit["outcome"] == "done" and audit["amount_paise"] > 0
        _check_told(db, approval, "confirmed")
        page.screenshot(path=str(screenshot_dir / f"chaos-order-{width}.png"))

        placeholder = "Ask NutriCart…"
        send(page, "thank you", placeholder)
        shown(page, replica_b, page.get_by_text("thank you", exact=True).first)
        expect(page.get_by_placeholder(placeholder)).to_be_editable()
        assert db.orders(user) == 1, "typing after the crash ordered again"
        assert len(db.spend_audits(user)) == 1


def test_a_replica_started_after_the_crash_settles_it_by_itself_and_apptest_shows_it(
    browser: Browser,
    shared: tuple[str, str],
    db: SharedDatabase,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with _person(browser, WIDE) as page:
        with replica(tmp_path / "a", *shared, SWIGGY_FAULT_PAUSE="confirm.after_call") as a:
            user = _confirm_an_order(page, a)
            db.wait_for("the order in the shop", lambda: db.orders(user) == 1, a)
            kill(a)
        cookie = user.removeprefix("b-").removesuffix("@sandbox")
    # The person never comes back: the new replica's start-up pass (run with the first page
    # it serves, here to somebody else) settles the chat by itself.
    with replica(tmp_path / "c", *shared) as c, _person(browser, WIDE) as stranger:
        stranger.goto(c.url, wait_until="domcontentloaded")
        db.wait_for("settled at start-up", lambda: _settled_outcome(db, user, "done"), c)
    assert len(db.spend_audits(user)) == 1 and db.orders(user) == 1

    # The chat through AppTest, as that person: the order card where the dialog was.
    from page_switch import app_test

    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("SWIGGY_DATABASE_URL", shared[0])
    monkeypatch.setenv("SWIGGY_HEALTH_POLL", "off")
    at = app_test(ROOT / "app.py", 120)
    at.session_state["browser_id"] = cookie
    at.switch_page("nutricart").run()
    # The dead replica's turn lease may still hold the chat (it outlives its process by the
    # lease's expiry): the page then defers showing the outcome. Look again until it lapses.
    deadline = time.monotonic() + LEASE_LAPSE_SECONDS
    while not _shows_order(at) and time.monotonic() < deadline:
        time.sleep(1)
        at.run()
    assert not at.exception
    assert _shows_order(at), " ".join(str(block.value) for block in at.markdown)
    assert db.orders(user) == 1


# Longer than a dead replica's turn lease lasts (SWIGGY_TURN_LEASE_SECONDS, 30 s by
# default), with room for a loaded machine.
LEASE_LAPSE_SECONDS = 120


def _shows_order(at: Any) -> bool:
    return "Order placed" in " ".join(str(block.value) for block in at.markdown)
