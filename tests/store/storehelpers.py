"""Small builders shared by the store tests."""

from __future__ import annotations

from approval_records import new_approval as new_approval  # the store tests import it here
from sqlalchemy import make_url

from swiggy_core.models import ChatMessage, block_from_dict


def sample_chat() -> list[ChatMessage]:
    return [
        ChatMessage(role="user", content="Find Amul milk\nplease"),
        ChatMessage(
            role="assistant",
            content=[
                block_from_dict({"type": "text", "text": "Searching."}),
                block_from_dict(
                    {
                        "type": "mcp_tool_use",
                        "id": "m1",
                        "name": "search_products",
                        "server_name": "swiggy-instamart",
                        "input": {"query": "amul milk"},
                    }
                ),
                block_from_dict({"type": "mcp_tool_result", "tool_use_id": "m1", "content": "{}"}),
            ],
            meta={"usage": {"input_tokens": 12}},
        ),
    ]


def said(text: str, role: str = "user") -> ChatMessage:
    return ChatMessage(role=role, content=text)  # type: ignore[arg-type]


def libpq_url(url: str, database: str | None = None) -> str:
    """The same server as a plain libpq URL (what psycopg.connect takes)."""
    parsed = make_url(url).set(drivername="postgresql")
    if database is not None:
        parsed = parsed.set(database=database)
    return parsed.render_as_string(hide_password=False)


def sqlalchemy_url(url: str, database: str) -> str:
    parsed = make_url(url).set(drivername="postgresql+psycopg", database=database)
    return parsed.render_as_string(hide_password=False)
