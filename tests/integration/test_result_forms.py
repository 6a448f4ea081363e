"""Both result forms end to end: the raw MCP result over stdio and Streamable HTTP (real `mcp`
client), the connector passing text only, the local engine keeping structuredContent
through the store, the offline planner reading a summary alone, and the engine choice.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import anthropic
import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp_http import mcp_session
from session_peers import ADDRESS, INSTAMART, NOW, finish, new_session

from swiggy_core.actions import typed_message
from swiggy_core.constants import DEFAULT_MODEL
from swiggy_core.conversation.reduce import NOTE_KEY
from swiggy_core.engine import TurnSetup, build_turn_params, choose_engine, to_client_tool_messages
from swiggy_core.errors import SettingsError
from swiggy_core.models import ChatMessage, McpToolResultBlock, tool_pairs
from swiggy_core.parsers import ProductsResult, parse_tool_result
from swiggy_core.parsers.summary import read_summary
from swiggy_core.settings import load_settings
from swiggy_core.store import ChatStore
from swiggy_sandbox.connector import CallClientTool, CallTool, Finish, McpBridge
from swiggy_sandbox.connector.toolsets import ServerSpec
from swiggy_sandbox.emulator import EmulatorServer
from swiggy_sandbox.planner import PlannerBrain
from swiggy_sandbox.runtime import SandboxServices
from swiggy_sandbox.servers import RateLimits, SandboxHttpServer
from swiggy_sandbox.servers.summary import resolve_result_form

SUMMARY = pytest.mark.parametrize("result_form", ["summary"], indirect=True)
SEARCH = {"addressId": ADDRESS, "query": "amul taaza milk"}
FIXED_NOW_ISO = NOW.isoformat()


@pytest.fixture(scope="module")
def summary_sandbox() -> Iterator[SandboxHttpServer]:
    limits = RateLimits(requests=10_000, writes=10_000)
    with SandboxHttpServer(clock=lambda: NOW, limits=limits, result_form="summary") as server:
        yield server


@asynccontextmanager
async def stdio_session(args: list[str], **env: str) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(
        command=sys.executable,
        args=args,
        env={**os.environ, "SWIGGY_SANDBOX_NOW": FIXED_NOW_ISO, **env},
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


async def check_summary_form(session: ClientSession, tools: set[str]) -> None:
    """Listing works, successes are prose + structuredContent, failures stay envelope text."""
    listed = (await session.list_tools()).tools
    assert tools <= {tool.name for tool in listed}
    addresses = await session.call_tool("get_addresses", {})
    structured = addresses.structured_content
    assert isinstance(structured, dict) and "success" not in structured, "the data, unwrapped"
    home = next(a for a in structured["addresses"] if a["id"] == ADDRESS)
    text = addresses.content[0].text
    assert f"(ID: {ADDRESS})" in text and not text.lstrip().startswith("{")
    lines = {line.record_id: line for line in read_summary(text)}
    assert lines[ADDRESS].details[0] == home["addressLine"]


def test_summary_form_over_streamable_http(summary_sandbox: SandboxHttpServer) -> None:
    token = summary_sandbox.store.issue(f"http-{uuid.uuid4().hex[:8]}")

    async def main() -> None:
        url = summary_sandbox.url_for("instamart")
        async with mcp_session(url, token) as session:
            await check_summary_form(session, {"search_products", "update_cart", "checkout"})
            found = await session.call_tool("search_products", SEARCH)
            data = found.structured_content
            assert isinstance(data, dict)
            products = data["products"] + data.get("similarProducts", [])
            packs = [pack for product in products for pack in product["variations"]]
            lines = read_summary(found.content[0].text)
            # Every pack is a numbered line carrying its spinId and skuId.
            assert [(ln.record_id, ln.ids["SKU"]) for ln in lines] == [
                (pack["spinId"], pack["skuId"]) for pack in packs
            ]
            assert lines[0].price == packs[0]["price"]["offerPrice"]
            refused = await session.call_tool("checkout", {"addressId": "addr_nowhere"})
            assert refused.structured_content is None and not refused.is_error
            assert json.loads(refused.content[0].text)["success"] is False

    anyio.run(main)


def test_summary_form_over_stdio_by_flag_and_by_setting() -> None:
    async def main() -> None:
        flag = ["-m", "swiggy_sandbox", "mcp", "instamart", "--stdio", "--result-form", "summary"]
        async with stdio_session(flag) as session:
            await check_summary_form(session, {"search_products"})
        setting = ["-m", "swiggy_sandbox.servers", "food", "--stdio"]
        async with stdio_session(setting, SWIGGY_SANDBOX_RESULT_FORM="summary") as session:
            await check_summary_form(session, {"search_restaurants"})
            found = await session.call_tool("search_restaurants", {**SEARCH, "query": "biryani"})
            assert isinstance(found.structured_content, dict)
            ids = [r["id"] for r in found.structured_content["restaurants"]]
            assert [line.record_id for line in read_summary(found.content[0].text)] == ids

    anyio.run(main)


def test_the_envelope_form_is_json_text_without_structured_content() -> None:
    async def main() -> None:
        args = ["-m", "swiggy_sandbox", "mcp", "dineout", "--stdio"]
        async with stdio_session(args, SWIGGY_SANDBOX_RESULT_FORM="envelope") as session:
            result = await session.call_tool("get_saved_locations", {})
            assert result.structured_content is None
            assert json.loads(result.content[0].text)["success"] is True

    anyio.run(main)


def test_a_bad_result_form_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="envelope or summary; got 'xml'"):
        resolve_result_form("xml")
    with pytest.raises(ValueError, match="SWIGGY_SANDBOX_RESULT_FORM"):
        resolve_result_form(environ={"SWIGGY_SANDBOX_RESULT_FORM": "json"})
    assert resolve_result_form(environ={}) == "envelope"
    assert resolve_result_form(environ={"SWIGGY_SANDBOX_RESULT_FORM": " Summary "}) == "summary"
    run = subprocess.run(
        [sys.executable, "-m", "swiggy_sandbox", "mcp", "food", "--stdio"],
        env={**os.environ, "SWIGGY_SANDBOX_RESULT_FORM": "json"},
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert run.returncode == 2 and "must be envelope or summary; got 'json'" in run.stderr
    for name in ("SWIGGY_RESULT_FORM", "SWIGGY_SANDBOX_RESULT_FORM"):
        with pytest.raises(SettingsError, match=name):
            load_settings({}, {name: "json"})
    settings = load_settings({}, {"SWIGGY_RESULT_FORM": "Summary"})
    assert (settings.result_form, settings.sandbox_result_form) == ("summary", "envelope")


def test_the_connector_passes_the_text_only(summary_sandbox: SandboxHttpServer) -> None:
    token = summary_sandbox.store.issue(f"bridge-{uuid.uuid4().hex[:8]}")
    server = ServerSpec(INSTAMART, summary_sandbox.url_for("instamart"), token)
    bridge = McpBridge()
    try:
        result = bridge.call_tool(server, "search_products", dict(SEARCH))
    finally:
        bridge.close()
    assert [block["type"] for block in result.content] == ["text"]
    assert read_summary(result.text) and not result.text.lstrip().startswith("{")
    assert result.structured is not None and "products" in result.structured
    assert json.dumps(result.structured) not in json.dumps(result.content)


@SUMMARY
def test_summary_through_the_connector_still_becomes_cards(emu, store, shop) -> None:
    session = new_session(store, shop, emu.base_url, engine="connector")
    emu.brain.enqueue(CallTool(INSTAMART, "search_products", dict(SEARCH)), Finish("Found."))
    finish(session.send(typed_message("find amul taaza milk")))
    (pair,) = [p for p in tool_pairs(session.history()) if p.use.name == "search_products"]
    assert isinstance(pair.result, McpToolResultBlock)
    (only,) = pair.result.content  # the text alone, as Anthropic's connector may pass it
    assert not only.text.lstrip().startswith("{")
    card = session.history()[-1].meta.cards[pair.use.id]
    assert isinstance(card, ProductsResult)
    lines = read_summary(only.text)
    # The card ranks the items for the request; the same items, prices and ids all arrive.
    assert sorted((i.spin_id, i.sku_id, i.price) for i in card.items) == sorted(
        (line.record_id, line.ids["SKU"], line.price) for line in lines
    )


@SUMMARY
def test_the_local_engine_keeps_structured_content_through_the_store(
    emu, shared_db_url, shop
) -> None:
    session = new_session(ChatStore(shared_db_url), shop, emu.base_url, engine="local")
    emu.brain.enqueue(CallClientTool("search_products", dict(SEARCH)), Finish("Found."))
    finish(session.send(typed_message("find amul taaza milk")))

    # The model got both blocks: the summary first, then the JSON object.
    sent = [
        block
        for message in emu.requests[-1].body["messages"]
        if isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_result"
    ]
    summary, document = (part["text"] for part in sent[-1]["content"])
    assert read_summary(summary) and "products" in json.loads(document)

    # Stored as two text blocks, and read back so from a fresh store.
    again = new_session(
        ChatStore(shared_db_url), shop, emu.base_url, engine="local",
        conversation_id=session.conversation_id, user_id=session.user_id,
    )  # fmt: skip
    history = again.history()
    (pair,) = [p for p in tool_pairs(history) if p.use.name == "search_products"]
    assert isinstance(pair.result, McpToolResultBlock)
    stored = [part.text for part in pair.result.content]
    assert stored[0] == summary and len(stored) == 2
    # Over 5 KB, the model read a copy reduced by importance; the store (and so the cards)
    # keeps the whole result.
    assert len(document) < len(stored[-1])
    assert NOTE_KEY in json.loads(document)
    data = json.loads(stored[-1])
    packs = [pack["spinId"] for product in data["products"] for pack in product["variations"]]
    card = parse_tool_result("search_products", pair.result.content, "food")
    assert isinstance(card, ProductsResult) and [i.spin_id for i in card.items][:1] == packs[:1]
    # The next request sends the same two blocks again, never joined.
    wire = to_client_tool_messages([m.to_param() for m in history])
    resent = [
        block
        for message in wire
        if isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_result"
    ]
    assert [part["text"] for part in resent[-1]["content"]] == [summary, document]


def test_the_planner_reads_ids_from_a_summary_alone(summary_sandbox: SandboxHttpServer) -> None:
    """Through the connector the planner sees only the prose, and still adds the right pack."""
    user = f"planner-{uuid.uuid4().hex[:8]}"
    token = summary_sandbox.store.issue(user)
    urls = {key: summary_sandbox.url_for(key) for key in ("instamart", "food", "dineout")}
    address = {"id": ADDRESS, "label": "Home"}
    history: list[ChatMessage] = []

    def say(client: anthropic.Anthropic, text: str) -> Any:
        history.append(typed_message(text))
        setup = TurnSetup(
            vertical_id="food", model=DEFAULT_MODEL, swiggy_token=token,
            server_urls=urls, address=address,
        )  # fmt: skip
        params: Any = build_turn_params(setup, history, now=NOW)
        with client.beta.messages.stream(**params) as stream:
            reply = stream.get_final_message()
        blocks = [block.model_dump(mode="json", exclude_none=True) for block in reply.content]
        history.append(ChatMessage.model_validate({"role": "assistant", "content": blocks}))
        return reply

    with (
        EmulatorServer(PlannerBrain()) as emu,
        anthropic.Anthropic(api_key="sk-offline", base_url=emu.base_url, max_retries=0) as client,
    ):
        found = say(client, "find amul taaza milk")
        (result,) = [b for b in found.content if b.type == "mcp_tool_result"]
        assert len(result.content) == 1 and read_summary(result.content[0].text)
        first = read_summary(result.content[0].text)[0]
        added = say(client, "add 2 of the first one")
    calls = [(b.name, b.input) for b in added.content if b.type == "mcp_tool_use"]
    assert [name for name, _ in calls] == ["get_cart", "update_cart"]
    (line,) = calls[-1][1]["items"]
    assert (line["spinId"], line["skuId"], line["quantity"]) == (
        first.record_id,
        first.ids["SKU"],
        2,
    )
    (item,) = summary_sandbox.app.state.shop.instamart.cart(user)["items"]
    assert (item["spinId"], item["quantity"]) == (first.record_id, 2)


def test_auto_picks_the_local_engine_when_results_are_summary_only() -> None:
    swiggy = {"food": "https://mcp.swiggy.com/food"}
    # Real Swiggy: summary assumed (integrators' reports) unless the setting says envelope.
    assert choose_engine("auto", base_url=None, server_urls=swiggy).name == "local"
    told = load_settings({}, {"SWIGGY_RESULT_FORM": "envelope"}).result_form
    assert choose_engine("auto", base_url=None, server_urls=swiggy, result_form=told).name == (
        "connector"
    )
    # The sandbox with the offline planner: its form decides.
    for form, engine in (("envelope", "connector"), ("summary", "local")):
        with SandboxServices.start(result_form=form, brain=PlannerBrain()) as services:
            assert services.result_form == form
            chosen = choose_engine(
                "auto",
                base_url=services.emulator_url,
                server_urls=services.server_urls,
                result_form=services.result_form,
            ).name
            assert chosen == engine
