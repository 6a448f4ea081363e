"""A confirmed spend the audit recorded, made through the store's own calls (the Spending
page's tests write their histories with it)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from approval_records import new_approval

from swiggy_core.store import ChatStore


def record_spend(
    store: ChatStore,
    user: str,
    spend: tuple[str, str, dict[str, Any], int, str | None],
) -> str:
    """`spend`: (vertical id, India day, the view shown at Confirm, paise, outcome) →
    confirmed (pending → executing) and audited with `outcome` (None: its call is still
    running, not audited yet); returns the approval id."""
    vertical, day, view, paise, outcome = spend
    conversation = store.create_conversation(user, vertical)
    fields = {"user_id": user, "vertical_id": vertical, "view": view, "tool": "place_food_order"}
    approval = store.create_approval(new_approval(conversation, **fields)).id
    facts = {"amount_paise": paise, "day": day}
    now = datetime.now(UTC)
    assert store.begin_spend(approval, user, facts, lambda _: None, day=day, now=now)
    if outcome is not None:
        detail = {"approval": approval, "outcome": outcome, **facts}
        store.record_audit(user, "spend_call", detail)
    return approval
