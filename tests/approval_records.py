"""An approval record for tests that need one stored: a checkout waiting for Confirm."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from swiggy_core.store import NewApproval


def new_approval(conversation_id: str, **changes: Any) -> NewApproval:
    """A pending Instamart checkout in `conversation_id` that expires in ten minutes;
    `changes` replace any of its fields."""
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
