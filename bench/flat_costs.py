"""Flat costs: today's spending and the sidebar's chat list, at a short and a long history.

SQLite files on disk. Today's spending (`ChatStore.spent_today`, what the limits, the
Connections page and every confirmation read) at 10 and at 10,000 past spends; the chat
list (the sidebar's reads: the newest 30 chats plus one, and the newest chat) at 30 and at
1,000 chats. The baseline, timed in the same run on the same files, is the code before:
today's spending decoded from the person's whole history
(tests/store/all_history_spending.py, kept unchanged), and the sidebar reading every chat
twice (the whole list, then the whole list again for the newest one). Calls are
interleaved (each round calls every variant once, in a rotating order); the figures are
per-call medians. Both spending computations must give the same paise, and both lists
the same first chats.

Targets: from the short to the long history a call grows by at most 1.2× (flat), and at
the long history it costs at most 1.2× what the baseline costs at the short one (so a
flat but slow query cannot pass; at 30 chats both read about 30 rows).

    python bench/flat_costs.py [rounds]
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import insert

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT / "tests" / "store"))  # the old computation, kept as the reference
from all_history_spending import all_history_spent_on  # noqa: E402

from swiggy_core.models import ChatMessage  # noqa: E402
from swiggy_core.store import ChatStore  # noqa: E402
from swiggy_core.store.schema import approvals, audit  # noqa: E402
from swiggy_core.store.spending import ledger_columns, record_spend_entry  # noqa: E402

USER = "asha@sandbox"
TODAY = date(2026, 11, 23)
SPENDS = (10, 10_000)
CHATS = (30, 1_000)
SHOWN = 30  # the sidebar's page (swiggy_ui.chat_list.MAX_LISTED)
GROWTH_TARGET = 1.2
ROUNDS = 60
Variant = tuple[str, Callable[[], object]]


def _spend_rows(index: int, day: str, outcome: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """One confirmed spend as the app leaves it: the approval with its facts, and the
    audit entry of its call."""
    moment = datetime(2026, 11, 23, 6, tzinfo=UTC)
    approval = f"spend-{index:06d}"
    facts = {"amount_paise": 10_000 + index, "day": day}
    row = {
        "id": approval, "user_id": USER, "conversation_id": "c", "vertical_id": "food",
        "server_key": "instamart", "tool": "checkout", "arguments": "{}", "digest": "d",
        "view": "{}", "tool_use_id": "t", "status": outcome, "expires_at": moment,
        "created_at": moment, "updated_at": moment, "result": json.dumps(facts), "note": "",
        **ledger_columns(facts),
    }  # fmt: skip
    entry = {"approval": approval, "outcome": outcome, **facts}
    return row, {"at": moment, "user_id": USER, "action": "spend_call", "detail": entry}


def _spending_store(folder: Path, past: int) -> ChatStore:
    """`past` spends on earlier days (one a day, some failed), then today's: two done, one
    unclear, one still running. Written in one transaction through the store's own row
    keeping, as each audit entry would have written them."""
    store = ChatStore(f"sqlite:///{folder / f'spends-{past}.db'}")
    history = [
        _spend_rows(index, (TODAY - timedelta(days=1 + index)).isoformat(),
                    "failed" if index % 7 == 0 else "done")
        for index in range(past)
    ]  # fmt: skip
    today = [_spend_rows(past + index, TODAY.isoformat(), outcome)
             for index, outcome in enumerate(("done", "done", "unknown"))]  # fmt: skip
    running, _ = _spend_rows(past + 3, TODAY.isoformat(), "executing")
    with store.engine.begin() as conn:
        conn.execute(insert(approvals), [row for row, _ in history + today] + [running])
        for _, entry in history + today:
            body = json.dumps(entry.pop("detail"))
            conn.execute(insert(audit).values(**entry, detail=body))
            record_spend_entry(conn, USER, "spend_call", body)
    return store


def _chat_store(folder: Path, count: int) -> ChatStore:
    """`count` chats with a message each, written as the app writes them."""
    store = ChatStore(f"sqlite:///{folder / f'chats-{count}.db'}")
    for index in range(count):
        chat = store.create_conversation(USER, "food")
        store.append_messages(chat, [ChatMessage(role="user", content=f"order {index}")])
    return store


def _spending_variants(stores: dict[int, ChatStore]) -> list[Variant]:
    day = TODAY.isoformat()
    variants: list[Variant] = []
    for past, store in stores.items():

        def old(store: ChatStore = store) -> int:
            with store.engine.connect() as conn:
                return all_history_spent_on(conn, USER, day, excluding=None)

        def new(store: ChatStore = store) -> int:
            return store.spent_today(USER, day)

        variants += [(f"spending new {past}", new), (f"spending old {past}", old)]
    return variants


def _list_variants(stores: dict[int, ChatStore]) -> list[Variant]:
    variants: list[Variant] = []
    for count, store in stores.items():

        def old(store: ChatStore = store) -> list[str]:
            shown = store.list_chats(USER, "food")[:SHOWN]
            store.list_conversations(USER, "food")[0]
            return [chat.id for chat in shown]

        def new(store: ChatStore = store) -> list[str]:
            shown = store.list_chats(USER, "food", limit=SHOWN + 1)[:SHOWN]
            store.list_conversations(USER, "food", limit=1)
            return [chat.id for chat in shown]

        variants += [(f"list new {count}", new), (f"list old {count}", old)]
    return variants


def _timed(variants: list[Variant], rounds: int) -> dict[str, float]:
    """Per-call median in ms; each round calls every variant once, the order rotating."""
    found: dict[str, list[float]] = {name: [] for name, _ in variants}
    for round_ in range(rounds):
        shift = round_ % len(variants)
        for name, call in variants[shift:] + variants[:shift]:
            start = time.perf_counter()
            call()
            found[name].append((time.perf_counter() - start) * 1000)
    return {name: statistics.median(times) for name, times in found.items()}


def _verdict(what: str, unit: str, sizes: tuple[int, int], ms: dict[str, float]) -> bool:
    small, large = sizes
    new_small, new_large = ms[f"{what} new {small}"], ms[f"{what} new {large}"]
    old_small, old_large = ms[f"{what} old {small}"], ms[f"{what} old {large}"]
    growth = new_large / new_small
    ceiling = GROWTH_TARGET * old_small
    met = growth <= GROWTH_TARGET and new_large <= ceiling
    print(f"{what}: {new_small:.3f} ms at {small:,} {unit}, {new_large:.3f} ms at {large:,}: "
          f"growth {growth:.2f}× (target ≤ {GROWTH_TARGET}×, and ≤ {ceiling:.3f} ms at "
          f"{large:,})")  # fmt: skip
    print(f"  baseline (the code before): {old_small:.3f} ms at {small:,}, {old_large:.3f} ms "
          f"at {large:,}: growth {old_large / old_small:.1f}×")  # fmt: skip
    print(f"  {'met' if met else 'MISSED'}")
    return met


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else ROUNDS
    with tempfile.TemporaryDirectory() as folder:
        spending = {past: _spending_store(Path(folder), past) for past in SPENDS}
        chats = {count: _chat_store(Path(folder), count) for count in CHATS}
        try:
            variants = _spending_variants(spending) + _list_variants(chats)
            answers = {name: call() for name, call in variants}  # also warms every file
            for size in SPENDS:
                paise = answers[f"spending new {size}"]
                assert paise == answers[f"spending old {size}"], (size, answers)
                print(f"same paise at {size:,} past spends: {paise} (new and old)")
            for size in CHATS:
                assert answers[f"list new {size}"] == answers[f"list old {size}"], size
            print(f"same {SHOWN} newest chats at {CHATS} chats (new and old)")
            ms = _timed(variants, rounds)
        finally:
            for store in (*spending.values(), *chats.values()):
                store.close()
    print(f"per-call medians of {rounds} interleaved rounds, SQLite on disk")
    spent = _verdict("spending", "past spends", SPENDS, ms)
    listed = _verdict("list", "chats", CHATS, ms)
    print("met" if spent and listed else "MISSED")


if __name__ == "__main__":
    main()
