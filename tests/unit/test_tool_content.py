"""Tool-result parts beyond text: stored and restored as typed blocks, sent to the model in
the API's shape, and never cut or dumped as text by the history's reducers."""

from __future__ import annotations

import base64
import json

from swiggy_core.conversation import sanitize_messages, truncate_history
from swiggy_core.engine.local_history import to_client_tool_messages
from swiggy_core.models import (
    ChatMessage,
    DocumentContent,
    FileContent,
    ImageContent,
    McpToolResultBlock,
    McpToolUseBlock,
    TextContent,
    conversation_adapter,
)

PNG_B64 = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\0" * 3000).decode()
PDF_B64 = base64.b64encode(b"%PDF-1.4\n" + b"x" * 500).decode()


def _reply(text: str = "A chart.") -> ChatMessage:
    parts = [
        TextContent(text=text),
        ImageContent.model_validate({"source": {"media_type": "image/png", "data": PNG_B64}}),
        DocumentContent.model_validate(
            {"source": {"media_type": "application/pdf", "data": PDF_B64}, "title": "week.pdf"}
        ),
        FileContent(name="week.csv", mime_type="text/csv", size=3, data="YWJj", uri="file:///w"),
    ]
    return ChatMessage(
        role="assistant",
        content=[
            McpToolUseBlock(id="t1", name="report", server_name="media", input={"query": "week"}),
            McpToolResultBlock(tool_use_id="t1", content=parts),
            ChatMessage(role="assistant", content="Here it is.").blocks()[0],
        ],
    )


def test_a_conversation_with_media_round_trips_through_the_one_adapter() -> None:
    history = [ChatMessage(role="user", content="report"), _reply()]
    restored = conversation_adapter.validate_json(conversation_adapter.dump_json(history))
    assert restored == history
    result = restored[1].blocks()[1]
    assert isinstance(result, McpToolResultBlock)
    assert [part.type for part in result.content] == ["text", "image", "document", "file"]


def test_the_wire_form_is_the_apis_and_a_file_is_one_line() -> None:
    wire = _reply().to_param()["content"][1]["content"]
    assert wire[1] == {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": PNG_B64},
    }
    assert wire[2]["type"] == "document" and wire[2]["title"] == "week.pdf"
    assert wire[3] == {"type": "text", "text": "[File week.csv: text/csv, 3 B at file:///w.]"}


def test_old_results_are_cut_but_their_media_stay_whole() -> None:
    history = [
        ChatMessage(role="user", content="report"),
        _reply(json.dumps({"rows": [f"row {n} " * 20 for n in range(200)]})),
        ChatMessage(role="user", content="thanks"),
        ChatMessage(role="assistant", content="You're welcome."),
    ]
    cut = truncate_history(history, keep_last=2, limit=1000)
    result = cut[1].blocks()[1]
    assert isinstance(result, McpToolResultBlock) and not isinstance(result.content, str)
    text, image, document, file = result.content
    assert isinstance(text, TextContent) and len(text.text) < 1500
    assert json.loads(text.text)  # still JSON
    assert isinstance(image, ImageContent) and image.source.data == PNG_B64
    assert isinstance(document, DocumentContent) and document.source.data == PDF_B64
    assert isinstance(file, FileContent) and file.data == "YWJj"


def test_the_local_engine_history_keeps_media_and_shrinks_only_text() -> None:
    big = json.dumps({"rows": [f"row {n} " * 40 for n in range(400)]})
    history = sanitize_messages([ChatMessage(role="user", content="report"), _reply(big)])
    wire = to_client_tool_messages([message.to_param() for message in history])
    (answer,) = wire[2]["content"]
    assert answer["type"] == "tool_result"
    text, image, document, file = answer["content"]
    assert len(text["text"]) < len(big)
    assert image["source"]["data"] == PNG_B64 and document["source"]["data"] == PDF_B64
    assert file["type"] == "text" and "week.csv" in file["text"]
