from swiggy_core.models import (
    CardAction,
    ChatMessage,
    ErrorInfo,
    McpToolResultBlock,
    MessageMeta,
    TextContent,
    TurnResult,
    Usage,
    block_from_dict,
    conversation_adapter,
    result_text,
)
from swiggy_core.parsers import RawResult, StatusResult

WIRE_BLOCKS = [
    {"type": "text", "text": "Here are some snacks."},
    {
        "type": "mcp_tool_use",
        "id": "mcptoolu_1",
        "name": "search_products",
        "server_name": "swiggy-instamart",
        "input": {"query": "protein bar", "addressId": "addr_1"},
    },
    {
        "type": "mcp_tool_result",
        "tool_use_id": "mcptoolu_1",
        "is_error": False,
        "content": [{"type": "text", "text": '{"success": true}'}],
    },
    {"type": "mcp_tool_listing", "mcp_server_name": "swiggy-instamart", "tools": [{"name": "x"}]},
    {"type": "tool_use", "id": "toolu_1", "name": "get_cart", "input": {}},
    {"type": "tool_result", "tool_use_id": "toolu_1", "is_error": True, "content": "boom"},
]


def test_every_block_type_round_trips_to_the_wire_format():
    for wire in WIRE_BLOCKS:
        assert block_from_dict(wire).to_param() == wire


def test_a_conversation_round_trips_through_one_adapter():
    conversation = [
        ChatMessage(role="user", content="find protein bars"),
        ChatMessage(role="assistant", content=[block_from_dict(b) for b in WIRE_BLOCKS[:4]]),
    ]
    stored = conversation_adapter.dump_json(conversation)
    restored = conversation_adapter.validate_json(stored)
    assert restored == conversation
    assert restored[1].to_param()["content"] == WIRE_BLOCKS[:4]


ADD_MILK = CardAction(kind="add_to_cart", label="Add 1 × Milk", ids={"spin_id": "s1"})


def test_meta_is_never_sent_to_the_api():
    meta = MessageMeta(action=ADD_MILK, approval_id="ap_1", turn_id="t_1", excluded=True)
    message = ChatMessage(role="user", content="hi", meta=meta)
    assert message.to_param() == {"role": "user", "content": "hi"}


def test_meta_is_typed_and_ignores_unknown_keys():
    message = ChatMessage.model_validate(
        {
            "role": "user",
            "content": "hi",
            "meta": {
                "action": {
                    "kind": "add_to_cart",
                    "label": "Add 1 × Milk",
                    "ids": {"spin_id": "s1"},
                },
                "legacy_key": {"anything": 1},
            },
        }
    )
    assert isinstance(message.meta, MessageMeta)
    assert message.meta.action == ADD_MILK
    assert not hasattr(message.meta, "legacy_key")
    assert ChatMessage(role="user", content="hi").meta == MessageMeta()


def test_meta_round_trips_with_the_conversation():
    meta = MessageMeta(
        usage=Usage(input_tokens=3),
        error=ErrorInfo(code="E", category="api", message="boom"),
        stopped=True,
        approval_id="ap_1",
        turn_id="t_1",
        cards={"toolu_1": StatusResult(success=True, message="added")},
    )
    conversation = [
        ChatMessage(role="user", content="hi", meta=MessageMeta(action=ADD_MILK)),
        ChatMessage(role="assistant", content="partial", meta=meta),
    ]
    restored = conversation_adapter.validate_json(conversation_adapter.dump_json(conversation))
    assert restored == conversation
    assert restored[0].meta.action == ADD_MILK
    assert restored[1].meta.error is not None and restored[1].meta.error.code == "E"
    assert isinstance(restored[1].meta.cards["toolu_1"], StatusResult)


def test_merged_meta_keeps_both_messages_facts():
    first = MessageMeta(
        usage=Usage(input_tokens=10),
        action=ADD_MILK,
        error=ErrorInfo(code="OLD", category="api", message="old"),
        excluded=True,
        approval_id="ap_1",
        cards={"toolu_1": RawResult(text="first")},
    )
    second = MessageMeta(
        cards={"toolu_2": StatusResult(success=True, message="added")},
        usage=Usage(output_tokens=4),
        error=ErrorInfo(code="NEW", category="api", message="new"),
        stopped=True,
        excluded=False,
    )
    merged = first.merged(second)
    assert merged.usage == Usage(input_tokens=10, output_tokens=4)
    assert merged.action == ADD_MILK
    assert merged.error is not None and merged.error.code == "NEW"  # the later one wins
    assert merged.stopped is True
    assert merged.excluded is False  # only excluded when both were
    assert merged.approval_id == "ap_1"
    assert set(merged.cards) == {"toolu_1", "toolu_2"}
    assert MessageMeta(usage=Usage(input_tokens=1)).merged(MessageMeta()).usage == Usage(
        input_tokens=1
    )
    assert MessageMeta(excluded=True).merged(MessageMeta(excluded=True)).excluded is True


def test_result_text_joins_either_content_form():
    assert result_text(McpToolResultBlock(tool_use_id="a", content="plain")) == "plain"
    parts = [TextContent(text="a"), TextContent(text="b")]
    assert result_text(McpToolResultBlock(tool_use_id="a", content=parts)) == "ab"


def test_usage_adds_up_and_turn_result_exposes_text():
    total = Usage(input_tokens=10, cache_read_input_tokens=5) + Usage(output_tokens=3)
    assert (total.input_tokens, total.output_tokens, total.cache_read_input_tokens) == (10, 3, 5)
    assert total.total_tokens == 18
    turn = TurnResult(blocks=[block_from_dict(WIRE_BLOCKS[0])])
    assert turn.ok and turn.text() == "Here are some snacks."
    assert turn.as_message().role == "assistant"
