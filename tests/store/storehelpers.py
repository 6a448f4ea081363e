"""Small builders shared by the store tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import make_url

from swiggy_core.models import ChatMessage, block_from_dict
from swiggy_core.store import NewApproval


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


def new_approval(conversation_id: str, **changes: Any) -> NewApproval:
    fields: dict[str, Any] = {
        "user_id": "alice",
        "conversation_id": conversation_id,
        "vertical_id": "food",
        "server_key": "instamart",
        "tool": "checkout",
        "arguments": {"address_id": "a1", "payment": "cod"},
        "digest": "sha256:cart-abc",
        "view": {"lines": [{"name": "Amul Taaza", "qty": 2}], "total": 112.0},
        "tool_use_id": "toolu_1",
        "expires_at": datetime.now(UTC) + timedelta(minutes=10),
    }
    fields.update(changes)
    return NewApproval(**fields)


def libpq_url(url: str, database: str | None = None) -> str:
    """The same server as a plain libpq URL (what psycopg.connect takes)."""
    parsed = make_url(url).set(drivername="postgresql")
    if database is not None:
        parsed = parsed.set(database=database)
    return parsed.render_as_string(hide_password=False)


def sqlalchemy_url(url: str, database: str) -> str:
    parsed = make_url(url).set(drivername="postgresql+psycopg", database=database)
    return parsed.render_as_string(hide_password=False)
