import json

from swiggy_core.conversation import (
    compact_old_turns,
    sanitize_assistant_blocks,
    sanitize_messages,
)
from swiggy_core.models import (
    CardAction,
    ChatMessage,
    McpToolListingBlock,
    McpToolResultBlock,
    McpToolUseBlock,
    MessageMeta,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
    Usage,
)


def _use(tool_id, name="search_products"):
    return McpToolUseBlock(id=tool_id, name=name, server_name="swiggy-instamart", input={})


def _result(tool_id, content="{}"):
    return McpToolResultBlock(tool_use_id=tool_id, content=content)


def _types(message):
    return [block.type for block in message.blocks()]


def test_clean_history_comes_back_as_the_same_objects():
    history = [
        ChatMessage(role="user", content="hi"),
        ChatMessage(role="assistant", content=[_use("a"), _result("a"), TextBlock(text="ok")]),
        ChatMessage(role="user", content="thanks"),
    ]
    cleaned = sanitize_messages(history)
    assert all(a is b for a, b in zip(cleaned, history, strict=True))


def test_mcp_use_without_result_is_dropped():
    message = ChatMessage(
        role="assistant",
        content=[TextBlock(text="Looking"), _use("a"), _use("b"), _result("b")],
    )
    (cleaned,) = sanitize_messages([message])
    assert _types(cleaned) == ["text", "mcp_tool_use", "mcp_tool_result"]
    assert cleaned.content[1].id == "b"
    assert len(message.content) == 4  # the input is not modified


def test_mcp_result_without_use_or_before_its_use_is_dropped():
    message = ChatMessage(
        role="assistant",
        content=[_result("ghost"), _result("late"), _use("late"), TextBlock(text="done")],
    )
    (cleaned,) = sanitize_messages([message])
    assert _types(cleaned) == ["text"]


def test_mcp_pairs_across_messages_do_not_count():
    history = [
        ChatMessage(role="user", content="go"),
        ChatMessage(role="assistant", content=[_use("a")]),
        ChatMessage(role="user", content="and?"),
        ChatMessage(role="assistant", content=[_result("a"), TextBlock(text="hm")]),
    ]
    cleaned = sanitize_messages(history)
    assert [m.role for m in cleaned] == ["user", "assistant"]
    assert cleaned[0].content == "go\n\nand?"
    assert _types(cleaned[1]) == ["text"]


def test_duplicate_mcp_results_keep_only_the_first():
    message = ChatMessage(
        role="assistant", content=[_use("a"), _result("a", "1"), _result("a", "2")]
    )
    (cleaned,) = sanitize_messages([message])
    assert [getattr(b, "content", None) for b in cleaned.content] == [None, "1"]


def _searching() -> list[ChatMessage]:
    """The person asks and the model calls a client tool ("t1") for it."""
    return [
        ChatMessage(role="user", content="find milk"),
        ChatMessage(
            role="assistant",
            content=[TextBlock(text="Searching"), ToolUseBlock(id="t1", name="search", input={})],
        ),
    ]


def test_client_tool_pair_across_messages_is_kept():
    history = [
        *_searching(),
        ChatMessage(role="user", content=[ToolResultBlock(tool_use_id="t1", content="[]")]),
        ChatMessage(role="assistant", content="Nothing found."),
    ]
    assert sanitize_messages(history) == history


def test_client_tool_use_without_result_in_the_next_message_is_dropped():
    history = [*_searching(), ChatMessage(role="user", content="never mind")]
    cleaned = sanitize_messages(history)
    assert _types(cleaned[1]) == ["text"]
    assert cleaned[2].content == "never mind"


def test_client_tool_result_without_use_in_the_previous_message_is_dropped():
    history = [
        ChatMessage(role="user", content="hi"),
        ChatMessage(role="assistant", content="hello"),
        ChatMessage(
            role="user",
            content=[ToolResultBlock(tool_use_id="t9", content="{}"), TextBlock(text="milk")],
        ),
    ]
    cleaned = sanitize_messages(history)
    assert _types(cleaned[2]) == ["text"]


def test_trailing_tool_use_awaiting_a_result_is_not_sent():
    history = [
        ChatMessage(role="user", content="go"),
        ChatMessage(role="assistant", content=[ToolUseBlock(id="t1", name="search", input={})]),
    ]
    assert sanitize_messages(history) == [history[0]]


def test_empty_messages_are_dropped_and_neighbours_merged():
    history = [
        ChatMessage(role="user", content="first"),
        ChatMessage(role="assistant", content=[_use("orphan"), TextBlock(text="  ")]),
        ChatMessage(role="user", content="second"),
        ChatMessage(role="assistant", content=""),
        ChatMessage(role="user", content=[TextBlock(text="third")]),
        ChatMessage(role="assistant", content="answer", meta=MessageMeta(turn_id="t2")),
    ]
    cleaned = sanitize_messages(history)
    assert [m.role for m in cleaned] == ["user", "assistant"]
    assert cleaned[0].content == [TextBlock(text="first\n\nsecond"), TextBlock(text="third")]
    assert cleaned[1].meta == MessageMeta(turn_id="t2")


def test_merged_neighbours_keep_both_metas():
    action = CardAction(kind="view_cart", label="View cart")
    history = [
        ChatMessage(role="user", content="first", meta=MessageMeta(usage=Usage(input_tokens=2))),
        ChatMessage(role="assistant", content=""),
        ChatMessage(
            role="user",
            content="second",
            meta=MessageMeta(action=action, usage=Usage(input_tokens=3)),
        ),
    ]
    cleaned = sanitize_messages(history)
    assert len(cleaned) == 1
    assert cleaned[0].content == "first\n\nsecond"
    assert cleaned[0].meta.action == action
    assert cleaned[0].meta.usage == Usage(input_tokens=5)


def test_merged_user_message_keeps_tool_results_first():
    history = [
        ChatMessage(role="user", content="go"),
        ChatMessage(role="assistant", content=[ToolUseBlock(id="t1", name="s", input={})]),
        ChatMessage(role="user", content=[ToolResultBlock(tool_use_id="t1", content="{}")]),
        ChatMessage(role="assistant", content=[_use("orphan")]),
        ChatMessage(role="user", content="more"),
    ]
    cleaned = sanitize_messages(history)
    assert [m.role for m in cleaned] == ["user", "assistant", "user"]
    assert _types(cleaned[2]) == ["tool_result", "text"]


def test_blocks_in_the_wrong_role_are_dropped():
    history = [
        ChatMessage(role="user", content=[_use("a"), _result("a"), TextBlock(text="hi")]),
        ChatMessage(
            role="assistant", content=[ToolResultBlock(tool_use_id="x"), TextBlock(text="y")]
        ),
    ]
    cleaned = sanitize_messages(history)
    assert _types(cleaned[0]) == ["text"] and _types(cleaned[1]) == ["text"]


def test_tool_listings_are_kept():
    listing = McpToolListingBlock(mcp_server_name="swiggy-instamart", tools=[{"name": "x"}])
    history = [
        ChatMessage(role="user", content="hi"),
        ChatMessage(role="assistant", content=[listing, _use("a"), _result("a")]),
    ]
    cleaned = sanitize_messages(history)
    assert cleaned[1].content[0] == listing


def test_assistant_blocks_of_one_stream_pair_mcp_but_keep_client_tool_use():
    blocks = [
        TextBlock(text="Let me look"),
        McpToolListingBlock(mcp_server_name="swiggy-food", tools=[]),
        _use("a"),
        _result("a"),
        _use("cut-off"),  # the stream ended before its result
        _result("stray"),
        TextBlock(text=""),
        ToolUseBlock(id="t1", name="local_tool", input={}),
        ToolResultBlock(tool_use_id="t1"),
    ]
    kept = sanitize_assistant_blocks(blocks)
    assert [b.type for b in kept] == [
        "text",
        "mcp_tool_listing",
        "mcp_tool_use",
        "mcp_tool_result",
        "tool_use",
    ]
    assert sanitize_assistant_blocks([]) == []


def test_compact_old_turns_truncates_only_old_tool_results():
    big = json.dumps({"items": [{"name": f"item {i}", "blurb": "y" * 200} for i in range(100)]})

    def turn(tool_id):
        return ChatMessage(
            role="assistant",
            content=[_use(tool_id), _result(tool_id, big), TextBlock(text="ok")],
        )

    history = [ChatMessage(role="user", content="q"), turn("old")]
    history += [
        ChatMessage(role="user", content="q"),
        ChatMessage(role="assistant", content="a"),
    ] * 4
    history += [ChatMessage(role="user", content="q"), turn("new")]
    compacted = compact_old_turns(history, keep_last=4)
    old_text = compacted[1].content[1].content
    assert len(old_text) < len(big) and json.loads(old_text)["_reduced"]
    assert compacted[-1].content[1].content == big
    assert history[1].content[1].content == big
