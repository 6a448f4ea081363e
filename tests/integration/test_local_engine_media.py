"""Images, PDFs, text resources and links from an MCP server, end to end: what the local
engine sends the model (through the real SDK to the emulator), what is stored, what card
parses, and what the next request of the conversation carries.

The server is a real stdio MCP server (`media_server.py`) reached through the app's manager
as one of the page's extra servers.
"""

from __future__ import annotations

import base64
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anthropic
import pytest
from media_server import PDF, PNG

from swiggy_core.actions import typed_message
from swiggy_core.conversation import build_message_stream_params
from swiggy_core.engine import LocalEngine, TurnRequest, TurnSetup, make_client
from swiggy_core.mcp import McpManager
from swiggy_core.mcp.config import ResolvedServer, ServerConfig
from swiggy_core.models import (
    ChatMessage,
    DocumentContent,
    FileContent,
    ImageContent,
    McpToolResultBlock,
    McpToolUseBlock,
    TextContent,
    TurnResult,
)
from swiggy_core.parsers import MediaResult, parse_tool_result
from swiggy_core.store import ChatStore
from swiggy_sandbox.connector import CallClientTool, Finish, ScriptedAgentBrain
from swiggy_sandbox.emulator import EmulatorServer

SERVER = Path(__file__).with_name("media_server.py")
PNG_B64 = base64.b64encode(PNG).decode()
PDF_B64 = base64.b64encode(PDF).decode()
LINK = "https://example.com/statements/2026-11.csv"


@pytest.fixture(scope="module")
def emu() -> Iterator[EmulatorServer[ScriptedAgentBrain]]:
    with EmulatorServer(ScriptedAgentBrain()) as server:
        yield server


@pytest.fixture(scope="module")
def manager() -> Iterator[McpManager]:
    pool = McpManager(call_timeout=20)
    yield pool
    pool.close()


@pytest.fixture
def client(emu: EmulatorServer[ScriptedAgentBrain]) -> Iterator[anthropic.Anthropic]:
    emu.brain.clear()
    emu.requests.clear()
    with make_client("sk-test", emu.base_url) as sdk:
        yield sdk
    assert emu.brain.pending() == 0, "a scripted step was never asked for"


def setup() -> TurnSetup:
    config = ServerConfig(
        key="media", transport="stdio", command=sys.executable, args=(str(SERVER),)
    )
    return TurnSetup(
        vertical_id="food",
        model="claude-haiku-4-5",
        engine="local",
        extra_servers=(ResolvedServer(config),),
    )


def run(client: anthropic.Anthropic, manager: McpManager, history: list[ChatMessage]) -> TurnResult:
    turn = LocalEngine().stream(TurnRequest(client, setup(), history, manager=manager))
    while True:
        try:
            next(turn)
        except StopIteration as stop:
            result: TurnResult = stop.value
            return result


def tool_results(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        block
        for message in body["messages"]
        if isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_result"
    ]


def test_media_reach_the_model_as_blocks_are_stored_and_parse_as_a_media_card(
    emu: EmulatorServer[ScriptedAgentBrain],
    client: anthropic.Anthropic,
    manager: McpManager,
    tmp_path: Path,
) -> None:
    emu.brain.enqueue(CallClientTool("media__weekly_report", {}), Finish("Here is your week."))
    asked = typed_message("show my weekly report")
    result = run(client, manager, [asked])
    assert result.ok, result.error

    # What the model got: the API's own image and document blocks, the link as one line.
    (sent,) = tool_results(emu.requests[-1].body)
    kinds = [part["type"] for part in sent["content"]]
    assert kinds == ["text", "image", "document", "text"]
    text, image, document, link = sent["content"]
    assert text["text"] == "Your spending this week.\n\nGroceries: ₹1,240."
    assert image["source"] == {"type": "base64", "media_type": "image/png", "data": PNG_B64}
    assert document["source"]["media_type"] == "application/pdf"
    assert document["source"]["data"] == PDF_B64 and document["title"] == "week-47.pdf"
    assert "statement-2026-11.csv" in link["text"] and LINK in link["text"]
    assert "text/csv" in link["text"] and "2.0 KB" in link["text"]
    texts = " ".join(part["text"] for part in sent["content"] if part["type"] == "text")
    assert PNG_B64[:24] not in texts and PDF_B64[:24] not in texts  # never base64 as text

    # What is stored: typed parts, through the database and back unchanged.
    use, stored = [b for b in result.blocks if isinstance(b, McpToolUseBlock | McpToolResultBlock)]
    assert isinstance(stored, McpToolResultBlock) and not isinstance(stored.content, str)
    assert [type(part) for part in stored.content] == [
        TextContent,
        ImageContent,
        DocumentContent,
        FileContent,
    ]
    store = ChatStore(f"sqlite:///{tmp_path / 'media.db'}")
    try:
        chat = store.create_conversation("asha", "food")
        reply = result.as_message()
        store.append_messages(chat, [asked, reply])
        assert store.load_messages(chat)[-1].content == reply.content
    finally:
        store.close()

    # What card parses: the media card, each item pointing at the part with its bytes.
    card = parse_tool_result(use.name, stored.content, "food", use.input)
    assert isinstance(card, MediaResult)
    assert [(i.kind, i.mime_type, i.data_ref) for i in card.items] == [
        ("image", "image/png", 1),
        ("file", "application/pdf", 2),
        ("file", "text/csv", None),
    ]
    assert card.items[1].name == "week-47.pdf" and card.items[2].uri == LINK
    assert card.text.startswith("Your spending this week.")

    # The next request carries the picture and the PDF again, whole (the emulator checks
    # them the way the real API does).
    emu.brain.enqueue(Finish("It was mostly groceries."))
    again = run(client, manager, [asked, reply, typed_message("what did I spend most on?")])
    assert again.ok, again.error
    (resent,) = tool_results(emu.requests[-1].body)
    assert [part["type"] for part in resent["content"]] == kinds
    assert resent["content"][1]["source"]["data"] == PNG_B64

    # The connector's result block carries text only: there the media are named, not sent.
    connector = build_message_stream_params(
        vertical_id="food", messages=[asked, reply, typed_message("and?")], swiggy_token="t"
    )
    (result_block,) = [
        block
        for message in connector["messages"]
        if isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "mcp_tool_result"
    ]
    assert {part["type"] for part in result_block["content"]} == {"text"}
    assert "PNG_B64" not in str(result_block) and PNG_B64 not in str(result_block)
    assert "week-47.pdf" in str(result_block)


def test_pictures_the_model_cannot_take_are_named_to_it_never_sent(
    emu: EmulatorServer[ScriptedAgentBrain], client: anthropic.Anthropic, manager: McpManager
) -> None:
    emu.brain.enqueue(CallClientTool("media__odd_pictures", {}), Finish("Two pictures."))
    result = run(client, manager, [typed_message("show the odd pictures")])
    assert result.ok, result.error
    (sent,) = tool_results(emu.requests[-1].body)
    assert [part["type"] for part in sent["content"]] == ["text", "text"]
    svg, huge = (part["text"] for part in sent["content"])
    assert "image/svg+xml" in svg
    assert "5.0 MB" in huge and "Too large to keep" in huge
    assert sum(len(part["text"]) for part in sent["content"]) < 400  # lines, not data

    stored = next(b for b in result.blocks if isinstance(b, McpToolResultBlock))
    svg_part, huge_part = stored.content
    assert isinstance(svg_part, FileContent) and svg_part.data  # the person can download it
    assert isinstance(huge_part, FileContent) and huge_part.data is None  # nothing kept
    card = parse_tool_result("media__odd_pictures", stored.content, "food")
    assert isinstance(card, MediaResult)
    assert [(i.kind, i.data_ref) for i in card.items] == [("file", 0), ("file", None)]


def test_the_emulator_refuses_media_the_real_api_refuses(
    emu: EmulatorServer[ScriptedAgentBrain], client: anthropic.Anthropic
) -> None:
    def ask(part: dict[str, Any]) -> None:
        use = {"type": "tool_use", "id": "toolu_1", "name": "report", "input": {}}
        answer = {"type": "tool_result", "tool_use_id": "toolu_1", "content": [part]}
        client.messages.create(
            model="claude-haiku-4-5",
            max_tokens=100,
            messages=[
                {"role": "user", "content": "report"},
                {"role": "assistant", "content": [use]},
                {"role": "user", "content": [answer]},
            ],
        )

    svg = {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/svg+xml", "data": PNG_B64},
    }
    with pytest.raises(anthropic.BadRequestError, match="media_type"):
        ask(svg)
    mislabelled = {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/jpeg", "data": PNG_B64},
    }
    with pytest.raises(anthropic.BadRequestError, match="does not match"):
        ask(mislabelled)
    ours = {"type": "file", "name": "x.csv", "data": "YQ=="}
    with pytest.raises(anthropic.BadRequestError, match="'file'"):
        ask(ours)
