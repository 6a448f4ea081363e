"""The media card: a picture drawn from the stored bytes (never fetched), files to download,
and a named file when nothing was kept."""

from __future__ import annotations

import base64

from streamlit.testing.v1 import AppTest
from uihelpers import texts

from swiggy_core.models import FileContent, ImageContent, TextContent
from swiggy_core.parsers import MediaResult, parse_tool_result

TIMEOUT = 60
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)
CSV = b"day,amount\nmon,120\n"


def _card(result, parts) -> None:  # type: ignore[no-untyped-def]  # runs as its own script
    from swiggy_core.verticals import get_vertical
    from swiggy_ui.cards import CardContext, render_result

    ctx = CardContext(key="m", vertical=get_vertical("food"), parts=parts)
    render_result(result, ctx)


def test_a_picture_and_files_from_a_tool_result() -> None:
    parts = [
        TextContent(text="Your spending this week."),
        ImageContent.model_validate(
            {"source": {"media_type": "image/png", "data": base64.b64encode(PNG).decode()}}
        ),
        FileContent(
            name="week.csv",
            mime_type="text/csv",
            size=len(CSV),
            data=base64.b64encode(CSV).decode(),
        ),
        FileContent(
            name="statement.csv",
            uri="https://example.com/statement.csv",
            mime_type="text/csv",
            size=2048,
        ),
        FileContent(name="huge.png", mime_type="image/png", size=6 * 1024 * 1024),
    ]
    card = parse_tool_result("media__weekly_report", parts, "food")
    assert isinstance(card, MediaResult)

    at = AppTest.from_function(_card, args=(card, tuple(parts)), default_timeout=TIMEOUT).run()
    assert not at.exception
    (image,) = at.get("image")  # drawn from the bytes: no URL for the server to fetch
    assert "http" not in str(image.proto)
    (download,) = at.get("download_button")
    assert download.proto.label == "Download"
    shown = texts(at.caption) + texts(at.markdown)
    assert "Your spending this week." in shown
    assert "week.csv" in shown and f"text/csv · {len(CSV)} B" in shown
    assert "https://example.com/statement.csv" in shown and "2.0 KB" in shown
    assert "huge.png" in shown and "6.0 MB" in shown and "Too large to keep here." in shown


def _history(messages) -> None:  # type: ignore[no-untyped-def]  # runs as its own script
    from swiggy_core.verticals import get_vertical
    from swiggy_ui.chat import render_history

    render_history(messages, get_vertical("food"))


def test_a_stored_reply_shows_its_picture_in_the_chat() -> None:
    from swiggy_core.models import ChatMessage, McpToolResultBlock, McpToolUseBlock

    picture = ImageContent.model_validate(
        {"source": {"media_type": "image/png", "data": base64.b64encode(PNG).decode()}}
    )
    reply = ChatMessage(
        role="assistant",
        content=[
            McpToolUseBlock(id="t1", name="media__chart", server_name="media"),
            McpToolResultBlock(tool_use_id="t1", content=[TextContent(text="A chart."), picture]),
        ],
    )
    messages = [ChatMessage(role="user", content="show the chart"), reply]
    at = AppTest.from_function(_history, args=(messages,), default_timeout=TIMEOUT).run()
    assert not at.exception
    assert len(at.get("image")) == 1
