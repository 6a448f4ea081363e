from swiggy_core.models import (
    ChatMessage,
    McpToolResultBlock,
    TextContent,
    TurnResult,
    Usage,
    block_from_dict,
    conversation_adapter,
    result_text,
)

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


def test_meta_is_never_sent_to_the_api():
    message = ChatMessage(role="user", content="hi", meta={"action": {"spin_id": "s1"}})
    assert message.to_param() == {"role": "user", "content": "hi"}


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
