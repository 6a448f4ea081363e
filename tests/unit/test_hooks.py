"""The hook registry: order, refusals with reasons, the built-in checks, the audit hook."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

import pytest

from swiggy_core.engine.connector_hooks import ConnectorCalls
from swiggy_core.engine.local_tools import prefixed_name
from swiggy_core.errors import ErrorCode
from swiggy_core.hooks import (
    NOT_RUN,
    CallScope,
    Denial,
    ToolExchange,
    ToolHooks,
    ToolOutcome,
    denied_outcome,
    error_code_of,
    exchanges_of,
    rules,
)
from swiggy_core.hooks.rules import (
    SLOT_NEEDED,
    audit_to,
    default_hooks,
    disabled_servers,
    rate_budget,
    require_listed_slot,
    shrink_result,
)
from swiggy_core.mcp.budget import RateBudget
from swiggy_core.mcp.manager import ToolOutput
from swiggy_core.models import ChatMessage, block_from_dict
from swiggy_core.shared_state import MemoryState
from swiggy_core.store.tool_audit import ToolCallEntry

BOOK_TABLE_SLOT_NEEDED = SLOT_NEEDED.format(tool="book_table", slots="get_available_slots")
SCOPE = CallScope("u-asha@sandbox", "dining", "c-7")
SLOTS = {
    "success": True,
    "data": {"slots": [{"slotId": "slot_1930", "deals": [{"itemId": "d1"}]}, {"slotId": 2000}]},
}
BOOKING = {"restaurantId": "r1", "slotId": "slot_1930", "itemId": "d1", "guestCount": 2}


def slots_seen(*texts: str, is_error: bool = False) -> CallScope:
    exchange = ToolExchange("get_available_slots", {"restaurantId": "r1"}, texts, is_error)
    return SCOPE.with_exchange(exchange)


def test_the_first_refusal_wins_and_later_hooks_do_not_run() -> None:
    ran: list[str] = []

    def allow(info: object) -> None:
        ran.append("allow")

    def refuse(info: object) -> Denial:
        ran.append("refuse")
        return Denial("not now")

    def never(info: object) -> Denial:
        ran.append("never")
        return Denial("unreachable")

    hooks = ToolHooks(pre=(allow, refuse, never))
    assert hooks.before(SCOPE.info("instamart", "get_cart", {})) == Denial("not now")
    assert ran == ["allow", "refuse"]
    assert Denial("x").code is ErrorCode.HOOK_DENIED


def test_a_broken_hook_is_logged_and_skipped(caplog: pytest.LogCaptureFixture) -> None:
    def broken(info: object) -> None:
        raise RuntimeError("bug")

    def broken_post(outcome: object) -> None:
        raise KeyError("bug")

    hooks = ToolHooks(pre=(broken,), post=(broken_post,))
    info = SCOPE.info("instamart", "get_cart", {})
    with caplog.at_level(logging.WARNING, logger="swiggy_core.hooks"):
        assert hooks.before(info) is None
        output = hooks.after(ToolOutcome(info, ToolOutput("{}", False), 3.0, None))
    assert output == ToolOutput("{}", False)
    assert "pre-tool hook failed for get_cart" in caplog.text
    assert "post-tool hook failed for get_cart" in caplog.text


def test_post_hooks_pass_their_output_on_in_order() -> None:
    seen: list[str] = []

    def upper(outcome: ToolOutcome) -> ToolOutput:
        return outcome.output._replace(text=outcome.output.text.upper())

    def watch(outcome: ToolOutcome) -> None:
        seen.append(outcome.output.text)

    info = SCOPE.info("instamart", "search_products", {})
    hooks = ToolHooks(post=(watch, upper, watch))
    assert hooks.after(ToolOutcome(info, ToolOutput("milk", False), 1.0, None)).text == "MILK"
    assert seen == ["milk", "MILK"]


def test_book_table_needs_a_slot_some_get_available_slots_returned() -> None:
    refused = require_listed_slot(SCOPE.info("dineout", "book_table", BOOKING))
    assert refused is not None and refused.reason.startswith(BOOK_TABLE_SLOT_NEEDED)
    assert refused.code is ErrorCode.HOOK_DENIED
    listed = slots_seen(json.dumps(SLOTS))
    assert require_listed_slot(listed.info("dineout", "book_table", BOOKING)) is None
    numeric = {**BOOKING, "slotId": 2000}
    assert require_listed_slot(listed.info("dineout", "book_table", numeric)) is None
    made_up = {**BOOKING, "slotId": "slot_2330"}
    assert require_listed_slot(listed.info("dineout", "book_table", made_up)) is not None
    assert require_listed_slot(listed.info("dineout", "book_table", {})) is not None
    # Other tools are not this hook's business.
    assert require_listed_slot(SCOPE.info("dineout", "get_available_slots", {})) is None


def test_a_summary_result_is_read_by_its_json_block_and_a_failed_one_not_at_all() -> None:
    summary = slots_seen("Two slots tonight: 7:30 pm and 8 pm.", json.dumps(SLOTS["data"]))
    assert require_listed_slot(summary.info("dineout", "book_table", BOOKING)) is None
    failed = slots_seen(json.dumps(SLOTS), is_error=True)
    assert require_listed_slot(failed.info("dineout", "book_table", BOOKING)) is not None
    # A slot id merely mentioned in prose is not a listed slot.
    prose = slots_seen("try slot_1930 maybe")
    assert require_listed_slot(prose.info("dineout", "book_table", BOOKING)) is not None


def test_the_history_comes_from_both_engines_stored_calls() -> None:
    connector = ChatMessage(
        role="assistant",
        content=[
            block_from_dict(
                {
                    "type": "mcp_tool_use",
                    "id": "m1",
                    "name": "get_available_slots",
                    "server_name": "swiggy-dineout",
                    "input": {"restaurantId": "r1"},
                }
            ),
            block_from_dict(
                {
                    "type": "mcp_tool_result",
                    "tool_use_id": "m1",
                    "content": [
                        {"type": "text", "text": "Slots:"},
                        {"type": "text", "text": json.dumps(SLOTS)},
                    ],
                }
            ),
            block_from_dict({"type": "tool_use", "id": "t2", "name": "ask", "input": {}}),
        ],
    )
    (exchange,) = exchanges_of([connector])  # the unanswered use is not history
    assert exchange.tool == "get_available_slots" and exchange.texts[0] == "Slots:"
    scope = CallScope("u", "dining", "c", exchanges_of([connector]))
    assert require_listed_slot(scope.info("dineout", "book_table", BOOKING)) is None


def test_the_rate_budget_refuses_with_its_own_code_and_message() -> None:
    hook = rate_budget(RateBudget(MemoryState(), calls_per_minute=2, writes_per_minute=1))
    search = SCOPE.info("instamart", "search_products", {})
    assert hook(search) is None and hook(search) is None
    over = hook(search)
    assert over is not None and over.code is ErrorCode.RATE_BUDGET
    assert "Slow down" in over.reason
    other = CallScope("u-ravi@sandbox").info("instamart", "search_products", {})
    assert hook(other) is None, "each person has their own budget"


def test_a_held_spending_call_spends_none_of_the_budget() -> None:
    budget = RateBudget(MemoryState(), calls_per_minute=5, writes_per_minute=1)
    hook = rate_budget(budget)
    for _ in range(10):  # a model that keeps asking to check out
        assert hook(SCOPE.info("instamart", "checkout", {"addressId": "a1"})) is None
    # The person's own cart change still has its write.
    assert hook(SCOPE.info("instamart", "update_cart", {"items": []})) is None


def test_a_switched_off_server_is_refused_by_key() -> None:
    off = {"weather"}
    hook = disabled_servers(lambda: off)
    refused = hook(SCOPE.info("weather", "forecast", {}))
    assert refused is not None and refused.code is ErrorCode.SERVER_DISABLED
    assert "weather" in refused.reason and "forecast" in refused.reason
    assert hook(SCOPE.info("instamart", "get_cart", {})) is None
    off.clear()  # read at call time: switching it on again needs no new hooks
    assert hook(SCOPE.info("weather", "forecast", {})) is None


def test_errors_are_detected_and_coded() -> None:
    assert error_code_of(ToolOutput('{"success": true, "data": {}}', False)) is None
    assert error_code_of(ToolOutput("HTTP 429 Too Many Requests", True)) == "E-3103"
    refused = {"success": False, "error": {"code": "ITEM_OUT_OF_STOCK", "message": "Gone"}}
    assert error_code_of(ToolOutput(json.dumps(refused), False)) == "E-3107"
    info = SCOPE.info("instamart", "update_cart", {})
    denied = denied_outcome(info, Denial("no", ErrorCode.RATE_BUDGET))
    assert (denied.outcome, denied.error_code, denied.output.is_error) == ("denied", "E-3208", True)
    # The model reads the reason; a card shows only the person's words.
    assert json.loads(denied.output.text) == {
        "success": False,
        "error": {"message": NOT_RUN},
        "instructions": "no",
    }


def test_the_audit_hook_writes_one_entry_per_outcome() -> None:
    entries: list[ToolCallEntry] = []
    at = datetime(2026, 11, 20, 8, 0, tzinfo=UTC)
    hook = audit_to(entries.append, clock=lambda: at)
    info = SCOPE.info("dineout", "get_available_slots", {"restaurantId": "r1"})
    hook(ToolOutcome(info, ToolOutput("{}", False), 12.5, None))
    hook(ToolOutcome(info, ToolOutput("boom", True), 3.0, "E-3105"))
    ok, failed = entries
    assert ok == ToolCallEntry(
        at=at,
        user_id="u-asha@sandbox",
        world="sandbox",
        vertical_id="dining",
        conversation_id="c-7",
        server="dineout",
        tool="get_available_slots",
        arguments={"restaurantId": "r1"},
        outcome="ok",
        duration_ms=12.5,
        error_code=None,
    )
    assert (failed.outcome, failed.error_code) == ("error", "E-3105")


def test_a_store_fault_never_fails_the_call_and_logs_no_secret(
    caplog: pytest.LogCaptureFixture,
) -> None:
    secret = "sbx-hook-secret-991"

    def failing(entry: ToolCallEntry) -> None:
        raise RuntimeError(f"database locked while writing {secret}")

    hooks = ToolHooks(post=(audit_to(failing),))
    info = SCOPE.info("instamart", "get_cart", {"token": secret})
    with caplog.at_level(logging.WARNING):
        output = hooks.after(ToolOutcome(info, ToolOutput("{}", False), 1.0, None))
    assert output == ToolOutput("{}", False)
    assert "tool call audit not stored for get_cart (RuntimeError)" in caplog.text
    assert secret not in caplog.text


def test_large_results_are_shrunk_for_the_model_only() -> None:
    products = [{"id": f"p{i}", "name": f"Milk {i}", "blurb": "x" * 400} for i in range(60)]
    full = ToolOutput(json.dumps({"success": True, "data": {"products": products}}), False)
    info = SCOPE.info("instamart", "search_products", {"query": "milk"})
    shrunk = shrink_result(ToolOutcome(info, full, 5.0, None))
    assert len(shrunk.text) < len(full.text)
    assert json.loads(shrunk.text)  # still JSON
    small = ToolOutput('{"success": true}', False)
    assert shrink_result(ToolOutcome(info, small, 5.0, None)) == small


def test_the_default_hooks_check_then_spend_the_budget_then_audit() -> None:
    entries: list[ToolCallEntry] = []
    budget = RateBudget(MemoryState(), calls_per_minute=1)
    hooks = default_hooks(entries.append, budget=budget, disabled=lambda: {"weather"})
    assert hooks.before(SCOPE.info("weather", "forecast", {})).code is ErrorCode.SERVER_DISABLED  # type: ignore[union-attr]
    booking = hooks.before(SCOPE.info("dineout", "book_table", BOOKING))
    assert booking is not None and booking.reason.startswith(BOOK_TABLE_SLOT_NEEDED)
    # Neither refusal spent the budget: the first real call still fits.
    assert hooks.before(SCOPE.info("dineout", "get_available_slots", {})) is None
    over = hooks.before(SCOPE.info("dineout", "get_available_slots", {}))
    assert over is not None and over.code is ErrorCode.RATE_BUDGET
    info = SCOPE.info("dineout", "get_available_slots", {})
    hooks.after(denied_outcome(info, over))
    assert [(e.tool, e.outcome, e.error_code) for e in entries] == [
        ("get_available_slots", "denied", "E-3208")
    ]


def test_prefixed_names_are_what_the_api_accepts() -> None:
    assert prefixed_name("weather", "forecast") == "weather__forecast"
    assert prefixed_name("my.server", "get forecast/v2") == "my_server__get_forecast_v2"
    long = prefixed_name("k" * 40, "t" * 40)
    assert len(long) == 64 and long.startswith("k" * 40 + "__")


def test_only_an_output_a_model_reads_is_shaped_for_it() -> None:
    shaped: list[str] = []

    def shorten(outcome: ToolOutcome) -> ToolOutput:
        shaped.append(outcome.output.text)
        return outcome.output._replace(text="short")

    entries: list[ToolCallEntry] = []
    hooks = ToolHooks(post=(audit_to(entries.append),), shape=(shorten,))
    info = SCOPE.info("instamart", "search_products", {"query": "milk"})
    outcome = ToolOutcome(info, ToolOutput("a long result", False), 1.0, None)
    hooks.observe(outcome)  # the app's own call, or one the connector ran: audited only
    assert len(entries) == 1 and shaped == []
    assert hooks.after(outcome).text == "short"  # the local engine's call: for the model
    assert len(entries) == 2 and shaped == ["a long result"]


def test_a_connector_result_is_audited_and_not_shrunk_for_a_model_that_has_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shrunk: list[str] = []
    monkeypatch.setattr(rules, "shrink_for_model", lambda text, arguments: shrunk.append(text))
    entries: list[ToolCallEntry] = []
    calls = ConnectorCalls(default_hooks(entries.append), SCOPE)
    result = json.dumps({"success": True, "data": {"products": [{"name": "milk"}] * 50}})
    calls.finished("mcp-1", "search_products", "swiggy-instamart", {"query": "milk"}, result, False)
    assert [entry.tool for entry in entries] == ["search_products"] and shrunk == []
