from swiggy_core.models import ChatMessage, block_from_dict
from swiggy_core.store import ChatStore, redact


def _chat():
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


def test_chats_survive_a_new_store_on_the_same_file(tmp_path):
    url = f"sqlite:///{tmp_path / 'chats.db'}"
    store = ChatStore(url)
    conversation_id = store.create_conversation("alice", "food")
    store.save_messages(conversation_id, _chat())
    reopened = ChatStore(url)
    assert reopened.load_messages(conversation_id) == _chat()
    (info,) = reopened.list_conversations("alice", "food")
    assert info.title == "Find Amul milk"
    assert reopened.list_conversations("bob", "food") == []
    assert reopened.list_conversations("alice", "dining") == []


def test_saving_replaces_and_delete_removes(tmp_path):
    store = ChatStore(f"sqlite:///{tmp_path / 'c.db'}")
    conversation_id = store.create_conversation("alice", "food")
    store.save_messages(conversation_id, _chat())
    store.save_messages(conversation_id, _chat()[:1])
    assert len(store.load_messages(conversation_id)) == 1
    store.delete_conversation(conversation_id)
    assert store.load_messages(conversation_id) == []
    assert store.count_conversations() == 0


def test_in_memory_store_shares_one_connection():
    store = ChatStore("sqlite://")
    conversation_id = store.create_conversation("u", "style")
    store.save_messages(conversation_id, _chat())
    assert store.load_messages(conversation_id)[0].text() == "Find Amul milk\nplease"


def test_audit_never_keeps_credentials(tmp_path):
    store = ChatStore(f"sqlite:///{tmp_path / 'a.db'}")
    store.record_audit(
        "alice",
        "approve",
        {
            "tool": "checkout",
            "authorization_token": "swiggy-abc",
            "headers": {"Authorization": "Bearer swiggy-abc"},
            "note": "used key sk-ant-api03-XYZ and Bearer swiggy-abc",
        },
    )
    raw = store.engine.connect().exec_driver_sql("select detail from audit").scalar_one()
    assert "swiggy-abc" not in raw and "sk-ant-api03-XYZ" not in raw
    ((action, detail),) = store.audit_entries("alice")
    assert action == "approve" and detail["tool"] == "checkout"


def test_redact_walks_nested_structures():
    assert redact({"a": [{"api_key": "x"}, "Bearer tok.en"]}) == {
        "a": [{"api_key": "[redacted]"}, "[redacted]"]
    }


def test_preferences_are_per_user_and_replaced(tmp_path):
    store = ChatStore(f"sqlite:///{tmp_path / 'p.db'}")
    store.set_preference("alice", "address", {"address_id": "a1", "label": "Home"})
    store.set_preference("alice", "address", {"address_id": "a2", "label": "Work"})
    assert store.get_preference("alice", "address") == {"address_id": "a2", "label": "Work"}
    assert store.get_preference("bob", "address") is None
