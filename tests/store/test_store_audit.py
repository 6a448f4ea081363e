"""Audit trail (credentials never stored) and per-user preferences."""

from __future__ import annotations

from sqlalchemy import text

SECRETS = ("swiggy-abc", "sk-ant-api03-XYZ", "hunter2", "opaque-refresh")


def _raw_rows(store, table: str, column: str) -> str:
    with store.engine.connect() as conn:
        return "\n".join(conn.execute(text(f"SELECT {column} FROM {table}")).scalars())


def test_audit_never_keeps_credentials(store):
    store.record_audit(
        "alice",
        "approve",
        {
            "tool": "checkout",
            "authorization_token": "swiggy-abc",
            "headers": {"Authorization": "Bearer swiggy-abc"},
            "note": "used key sk-ant-api03-XYZ and Bearer swiggy-abc",
            "login": {"password": "hunter2", "refresh_token": "opaque-refresh"},
            "steps": ["Bearer swiggy-abc", {"api_key": "sk-ant-api03-XYZ"}],
        },
    )
    raw = _raw_rows(store, "audit", "detail")
    for secret in SECRETS:
        assert secret not in raw
    ((action, detail),) = store.audit_entries("alice")
    assert action == "approve" and detail["tool"] == "checkout"
    assert detail["headers"] == {"Authorization": "[redacted]"}


def test_audit_entries_filter_by_user_and_conversation_in_order(store):
    conversation_id = store.create_conversation("alice", "food")
    store.record_audit("alice", "confirm", {"n": 1}, conversation_id=conversation_id)
    store.record_audit("alice", "sign_in", {"n": 2})
    store.record_audit("alice", "spend_call", {"n": 3}, conversation_id=conversation_id)
    store.record_audit("bob", "confirm", {"n": 4}, conversation_id=conversation_id)
    assert [a for a, _ in store.audit_entries("alice")] == ["confirm", "sign_in", "spend_call"]
    assert store.audit_entries("alice", conversation_id=conversation_id) == [
        ("confirm", {"n": 1}),
        ("spend_call", {"n": 3}),
    ]
    assert store.audit_entries("carol") == []
    store.delete_conversation(conversation_id)
    assert len(store.audit_entries("alice", conversation_id=conversation_id)) == 2


def test_preferences_are_per_user_and_replaced(store):
    store.set_preference("alice", "address", {"address_id": "a1", "label": "Home"})
    store.set_preference("alice", "address", {"address_id": "a2", "label": "Work"})
    store.set_preference("bob", "address", {"address_id": "b1"})
    assert store.get_preference("alice", "address") == {"address_id": "a2", "label": "Work"}
    assert store.get_preference("bob", "address") == {"address_id": "b1"}
    assert store.get_preference("carol", "address") is None
    assert store.get_preference("alice", "model") is None
    with store.engine.connect() as conn:
        count = conn.execute(text("SELECT count(*) FROM preferences")).scalar_one()
    assert count == 2


def test_preferences_never_keep_credentials(store):
    store.set_preference("alice", "endpoint", {"base_url": "http://x", "api_key": "hunter2"})
    assert "hunter2" not in _raw_rows(store, "preferences", "value")
    assert store.get_preference("alice", "endpoint") == {
        "base_url": "http://x",
        "api_key": "[redacted]",
    }
