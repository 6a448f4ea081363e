"""Settings → Tool bench in the real app (AppTest) against the in-process sandbox: pick a
server and a tool, fill its form, run it, see its card and the history; spending tools
shown but never run; a bad value refused and kept; the owner's off switch."""

from __future__ import annotations

import os
import sys

import pytest
from uihelpers import buttons, click, new_app, open_page, same_browser, store_user, texts

from swiggy_core.constants import ALLOW_USER_STDIO_ENV
from swiggy_core.mcp.config import ServerConfig
from swiggy_core.mcp.tool_bench import TOOL_BENCH_ENV
from swiggy_core.mcp.user_servers import save_user_server
from swiggy_core.store import ChatStore
from swiggy_ui.state import PENDING_ACTION

PAGE = "app_pages/tool_bench.py"
ADDRESS = "addr_home_indiranagar"


def _pick(at, server: str, tool: str):
    at.selectbox(key="bench-server").set_value(server).run()
    at.selectbox(key=f"bench-tool-{server}").set_value(tool).run()
    assert not at.exception
    return at


def _field(at, server: str, tool: str, name: str):
    return at.text_input(key=f"bench-form-{server}-{tool}-{name}")


def _search_milk(at):
    _pick(at, "instamart", "search_products")
    _field(at, "instamart", "search_products", "addressId").set_value(ADDRESS)
    _field(at, "instamart", "search_products", "query").set_value("milk")
    return click(at, "Run")


def _audited(at) -> list[tuple[str, str, str, str]]:
    store = ChatStore(os.environ["SWIGGY_DATABASE_URL"])
    try:
        entries = store.tool_calls(store_user(at))
    finally:
        store.close()
    return [(e.vertical_id, e.server, e.tool, e.outcome) for e in entries]


def test_a_tool_runs_from_its_form_and_shows_its_card_and_the_history(app) -> None:
    at = open_page(app, PAGE)
    assert "Tool bench" in texts(at.title)
    labels = [option for option in at.selectbox(key="bench-server").options]
    assert any(label.startswith("instamart · http") for label in labels)
    _search_milk(at)
    [run] = at.expander
    assert run.label.startswith("✓ #1 · instamart · search_products · ") and " ms" in run.label
    assert "Amul Taaza Toned Milk" in texts(at.markdown)  # the products card
    assert any('"products"' in str(raw.value) for raw in at.json)  # the raw result, as JSON
    copies = [code.value for code in at.code]
    assert any(c.startswith("# Open a session") and "$SWIGGY_TOKEN" in c for c in copies)
    assert any('"method": "tools/call"' in c for c in copies)
    assert _audited(at) == [("tool bench", "instamart", "search_products", "ok")]
    click(at, "Run again")
    assert [e.label.split(" · ")[0] for e in at.expander] == ["✓ #2", "✓ #1"]
    assert len(_audited(at)) == 2


def test_an_earlier_run_goes_back_in_the_form(app) -> None:
    at = _search_milk(open_page(app, PAGE))
    _pick(at, "food", "get_addresses")
    click(at, "Put in the form")
    assert at.selectbox(key="bench-server").value == "instamart"
    assert _field(at, "instamart", "search_products", "query").value == "milk"


def test_a_spending_tool_is_shown_but_cannot_run(app) -> None:
    at = _pick(open_page(app, PAGE), "food", "place_food_order")
    assert "runs only from a chat, after you confirm it" in texts(at.warning)
    assert "Code for support: E-3220" in texts(at.caption)
    [run] = buttons(at, "Run")
    assert run.disabled
    assert all(box.disabled for box in at.text_input)
    assert _audited(at) == []


def test_a_bad_value_is_named_with_its_code_and_kept(app) -> None:
    at = _pick(open_page(app, PAGE), "instamart", "search_products")
    _field(at, "instamart", "search_products", "addressId").set_value(ADDRESS)
    _field(at, "instamart", "search_products", "query").set_value("milk")
    _field(at, "instamart", "search_products", "offset").set_value("ten")
    click(at, "Run")
    assert "offset: 'ten' is not a whole number." in texts(at.error)
    assert "Code for support: E-1020" in texts(at.caption)
    assert _field(at, "instamart", "search_products", "offset").value == "ten"
    assert not at.expander and _audited(at) == []


@pytest.mark.parametrize(("where", "value"), [("env", "off"), ("env", "false"),
                                             ("secrets", False), ("secrets", "off")])  # fmt: skip
def test_the_owner_can_switch_the_bench_off(monkeypatch, where: str, value) -> None:
    at = new_app()
    if where == "env":
        monkeypatch.setenv(TOOL_BENCH_ENV, value)
    else:
        at.secrets[TOOL_BENCH_ENV] = value  # a TOML boolean counts as much as a word
    at = open_page(at, PAGE)
    assert "The tool bench is switched off on this copy of the app." in texts(at.info)
    assert not at.selectbox and not buttons(at, "Run")


def test_a_cards_button_on_the_bench_never_reaches_a_chat(app) -> None:
    at = _search_milk(open_page(app, PAGE))
    click(at, "Add")  # the products card's first Add
    assert "add to your cart from a shop" in texts(at.info)
    assert PENDING_ACTION not in at.session_state  # no chat will send it later
    assert _audited(at) == [("tool bench", "instamart", "search_products", "ok")]


def test_your_own_servers_read_only_tools_run_and_the_others_wait_for_a_chat(
    app, monkeypatch
) -> None:
    monkeypatch.setenv(ALLOW_USER_STDIO_ENV, "1")
    at = open_page(app, PAGE)
    own = ServerConfig(key="recipes", transport="stdio", command=sys.executable,
                       args=("-m", "swiggy_sandbox.servers", "food", "--stdio"),
                       pages=("food",), origin="user")  # fmt: skip
    store = ChatStore(os.environ["SWIGGY_DATABASE_URL"])
    try:
        save_user_server(store, store_user(at), own, allow_stdio=True)
    finally:
        store.close()
    at = open_page(same_browser(at), PAGE)  # a new visit reads your servers again
    labels = at.selectbox(key="bench-server").options
    assert any(o.startswith("recipes · stdio") and o.endswith("· yours") for o in labels)
    _pick(at, "recipes", "update_food_cart")  # changes something: a chat asks you first
    assert "Code for support: E-3220" in texts(at.caption)
    assert buttons(at, "Run")[0].disabled
    _pick(at, "recipes", "get_addresses")  # annotated read-only: runs here
    click(at, "Run")
    [run] = at.expander
    assert run.label.startswith("✓ #1 · recipes · get_addresses")
    assert [code.value for code in at.code if "curl" in code.value] == []  # not over HTTP
    assert _audited(at) == [("tool bench", "recipes", "get_addresses", "ok")]


def test_every_listed_tool_of_every_server_draws_its_form(app) -> None:
    at = open_page(app, PAGE)
    drawn = 0
    for server in at.selectbox(key="bench-server").options:
        key = server.split(" · ")[0]
        at.selectbox(key="bench-server").set_value(key).run()
        for tool in at.selectbox(key=f"bench-tool-{key}").options:
            at.selectbox(key=f"bench-tool-{key}").set_value(tool).run()
            assert not at.exception, f"{key}/{tool}: {at.exception}"
            assert buttons(at, "Run"), f"{key}/{tool}"
            drawn += 1
    assert drawn > 40  # the three sandbox servers' tools, as they list them
