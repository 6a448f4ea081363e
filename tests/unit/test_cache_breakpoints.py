"""Where the request builder puts prompt-cache breakpoints, turn after turn, in both engines.

The rules: at most four; only on the end of the tools, the end of the static system
prompt, the previous user message and the newest user message (before the turn context);
never on a prefix shorter than the model's minimum; and each request repeats the previous
one's cached prefix unchanged, except when the message window steps.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from swiggy_core.constants import (
    BETA_EXTENDED_CACHE_TTL,
    CACHE_MAX_BREAKPOINTS,
    CACHE_WINDOW_STEP_MESSAGES,
    CHARS_PER_TOKEN_ESTIMATE,
    MAX_CONTEXT_MESSAGES,
    TURN_CONTEXT_HEADER,
)
from swiggy_core.conversation import build_message_stream_params, cache_points
from swiggy_core.conversation.cache_points import (
    POLICY_TTLS,
    cache_mark,
    estimated_tokens,
    min_cacheable_tokens,
    with_cache_policy,
)
from swiggy_core.engine.local_history import to_client_tool_messages, with_round_breakpoint
from swiggy_core.models import (
    ChatMessage,
    McpToolListingBlock,
    McpToolResultBlock,
    McpToolUseBlock,
    TextBlock,
)
from swiggy_sandbox.emulator.cache_marks import cache_mark_problem

SERVER = "swiggy-instamart"
HAIKU = "claude-haiku-4-5"
SONNET = "claude-sonnet-5-5"
ADDRESS = {"id": "addr-7", "label": "Home", "addressLine": "12 MG Road", "lat": 1.0, "lng": 2.0}
LISTING = [
    {"name": name, "description": f"{name} " * 150, "input_schema": {"type": "object"}}
    for name in ("search_products", "get_cart", "update_cart", "checkout")
]


def reply(turn: int) -> ChatMessage:
    """An assistant turn: a search with a large result, then a few words."""
    products = [{"id": f"p{turn}-{i}", "name": f"Item {i}", "blurb": "x" * 400} for i in range(14)]
    use_id = f"mcptoolu_{turn}"
    blocks: list[Any] = [
        McpToolUseBlock(id=use_id, name="search_products", server_name=SERVER, input={"q": "m"}),
        McpToolResultBlock(tool_use_id=use_id, content=json.dumps({"products": products})),
        TextBlock(text=f"Here is what I found ({turn})."),
    ]
    if turn == 0:
        blocks.insert(0, McpToolListingBlock(mcp_server_name=SERVER, tools=LISTING))
    return ChatMessage(role="assistant", content=blocks)


def request(history: list[ChatMessage], model: str, **extra: Any) -> dict[str, Any]:
    params: dict[str, Any] = build_message_stream_params(
        vertical_id="food",
        messages=history,
        model=model,
        swiggy_token="tok",
        address=ADDRESS,
        session_summary=f"slots=none; turn={len(history)}",
        **extra,
    )
    return params


# Long enough for the message window to step three times or more.
TURNS_WITH_STEPS = (MAX_CONTEXT_MESSAGES + 3 * CACHE_WINDOW_STEP_MESSAGES) // 2 + 1


def requests_of_a_chat(turns: int, model: str) -> list[dict[str, Any]]:
    history: list[ChatMessage] = []
    sent = []
    for turn in range(turns):
        history.append(ChatMessage(role="user", content=f"find milk {turn}"))
        sent.append(request(history, model))
        history.append(reply(turn))
    return sent


def marks(params: dict[str, Any]) -> list[tuple[str, int, int]]:
    """Every breakpoint as (where, index, block index)."""
    found = [("tools", i, 0) for i, t in enumerate(params.get("tools", [])) if "cache_control" in t]
    found += [("system", i, 0) for i, b in enumerate(params["system"]) if "cache_control" in b]
    for index, message in enumerate(params["messages"]):
        if isinstance(message["content"], list):
            for position, block in enumerate(message["content"]):
                if "cache_control" in block:
                    found.append(("messages", index, position))
    return found


def stable_end(message: dict[str, Any]) -> int:
    """Index of the message's last block that is not the turn context."""
    content = message["content"]
    return max(i for i, block in enumerate(content) if not _is_context(block))


def _is_context(block: dict[str, Any]) -> bool:
    return str(block.get("text", "")).startswith(TURN_CONTEXT_HEADER)


def plain(value: Any) -> Any:
    """The prompt as the cache keys it: no cache_control, a string as one text block."""
    if isinstance(value, dict):
        if isinstance(value.get("content"), str) and "role" in value:
            value = {**value, "content": [{"type": "text", "text": value["content"]}]}
        return {k: plain(v) for k, v in value.items() if k != "cache_control"}
    if isinstance(value, list):
        return [plain(item) for item in value]
    return value


def cached_prefix(params: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages through the newest breakpoint, as the cache keys them."""
    _, index, position = marks(params)[-1]
    messages = params["messages"]
    last = {**messages[index], "content": messages[index]["content"][: position + 1]}
    return plain([*messages[:index], last])


@pytest.mark.parametrize("model", [HAIKU, SONNET])
def test_every_request_has_at_most_four_breakpoints_on_the_stable_ends(model: str) -> None:
    for params in requests_of_a_chat(40, model):
        found = marks(params)
        assert len(found) <= CACHE_MAX_BREAKPOINTS
        users = [i for i, m in enumerate(params["messages"]) if m["role"] == "user"]
        allowed = {("tools", len(params["tools"]) - 1, 0), ("system", len(params["system"]) - 1, 0)}
        allowed |= {("messages", i, stable_end(params["messages"][i])) for i in users[-2:]}
        assert set(found) <= allowed
        newest = params["messages"][users[-1]]
        # The turn context closes the newest message, after its breakpoint, never marked.
        assert _is_context(newest["content"][-1]) and "cache_control" not in newest["content"][-1]
        # Once the conversation is long enough, the newest user message always carries one.
        if estimated_tokens({k: params[k] for k in ("tools", "system", "messages")}) > 20_000:
            assert found[-1] == ("messages", users[-1], stable_end(newest))
            if model == SONNET:  # every end is past Sonnet's minimum
                assert len(found) == CACHE_MAX_BREAKPOINTS


def test_each_request_repeats_the_last_ones_cached_prefix_unless_the_window_steps() -> None:
    sent = requests_of_a_chat(TURNS_WITH_STEPS, SONNET)
    breaks = 0
    for previous, current in itertools.pairwise(sent):
        prefix = cached_prefix(previous)
        if plain(current["messages"][: len(prefix)])[:-1] != prefix[:-1]:
            breaks += 1
            continue
        # The newest message of last turn is sent again whole, its breakpoint where it was.
        last = len(prefix) - 1
        assert plain(current["messages"][last]["content"]) == prefix[-1]["content"]
        assert ("messages", last, len(prefix[-1]["content"]) - 1) in marks(current)
    # 2 × turns - 1 messages by the last request: the window opened at one step, two, …
    steps = (2 * TURNS_WITH_STEPS - 1 - MAX_CONTEXT_MESSAGES) // CACHE_WINDOW_STEP_MESSAGES + 1
    assert breaks == steps >= 3
    assert all(len(params["messages"]) <= MAX_CONTEXT_MESSAGES for params in sent)


def test_an_old_result_is_truncated_once_and_then_sent_the_same_way() -> None:
    sent = requests_of_a_chat(40, SONNET)
    forms: dict[str, list[str]] = {}
    for params in sent:
        for message in params["messages"]:
            for block in message["content"] if isinstance(message["content"], list) else []:
                if block.get("type") == "mcp_tool_result":
                    forms.setdefault(block["tool_use_id"], []).append(json.dumps(block["content"]))
    shortened = 0
    for seen in forms.values():
        distinct = list(dict.fromkeys(seen))
        assert len(distinct) <= 2  # whole, then (once the window steps) truncated for good
        assert seen == sorted(seen, key=distinct.index)
        shortened += len(distinct) == 2 and len(distinct[1]) < len(distinct[0])
    assert shortened > 0


def test_no_breakpoint_goes_on_a_prefix_under_the_models_minimum() -> None:
    history = [ChatMessage(role="user", content="find milk")]
    small = request(history, HAIKU)
    size = estimated_tokens([*small["tools"], *small["system"]])
    assert size < min_cacheable_tokens(HAIKU)
    assert marks(small) == []
    # Sonnet caches from 1,024 tokens: the same request gets its system breakpoint.
    assert size >= min_cacheable_tokens(SONNET)
    assert ("system", len(small["system"]) - 1, 0) in marks(request(history, SONNET))


@pytest.mark.parametrize("model", [HAIKU, SONNET])
def test_a_long_chat_is_sized_only_until_its_prefix_is_cacheable(
    model: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    history: list[ChatMessage] = []
    for turn in range(12):
        history += [ChatMessage(role="user", content=f"find milk {turn}"), reply(turn)]
    history.append(ChatMessage(role="user", content="and bread"))
    expected = marks(request(history, model))
    sized: list[Any] = []

    def counting(value: Any) -> int:
        sized.append(value)
        return estimated_tokens(value)

    monkeypatch.setattr(cache_points, "estimated_tokens", counting)
    params = request(history, model)
    assert marks(params) == expected  # the same breakpoints: the conversation's two at least
    assert len([mark for mark in expected if mark[0] == "messages"]) == 2
    sized_messages = [value for value in sized if isinstance(value, dict) and "role" in value]
    if model == SONNET:  # tools and system prompt reach 1,024 tokens: no message is encoded
        assert sized_messages == []
    else:  # counted up to the 4,096 tokens Haiku needs, then no further
        assert 0 < len(sized_messages) < len(params["messages"]) // 2
        assert sum(estimated_tokens(value) for value in sized) >= min_cacheable_tokens(model)


def _local_request_after(turns: int) -> dict[str, Any]:
    """The local engine's request after `turns` searches for milk and a new question."""
    history: list[ChatMessage] = []
    for turn in range(turns):
        history += [ChatMessage(role="user", content=f"find milk {turn}"), reply(turn)]
    history.append(ChatMessage(role="user", content="and bread"))
    tools = [{k: t[k] for k in ("name", "description", "input_schema")} for t in LISTING]
    return request(history, SONNET, tool_mode="local", client_tools=tools)


def test_the_local_engines_converted_messages_keep_the_breakpoints() -> None:
    params = _local_request_after(6)
    stored_marks = [m for m in marks(params) if m[0] == "messages"]
    assert len(stored_marks) == 2
    marked_blocks = [params["messages"][i]["content"][j] for _, i, j in stored_marks]
    converted = to_client_tool_messages(params["messages"])
    after = [
        block
        for message in converted
        if isinstance(message["content"], list)
        for block in message["content"]
        if "cache_control" in block
    ]
    assert after == marked_blocks  # the same user blocks, in order, nothing added
    assert [b["text"] for b in after] == ["find milk 5", "and bread"]
    assert _is_context(converted[-1]["content"][-1])
    assert len(marks({**params, "messages": converted})) <= CACHE_MAX_BREAKPOINTS


def _round(turn: int) -> list[dict[str, Any]]:
    use = {"type": "tool_use", "id": f"toolu_{turn}", "name": "get_cart", "input": {}}
    result = {"type": "tool_result", "tool_use_id": f"toolu_{turn}", "content": "{}" * 50}
    return [
        {"role": "assistant", "content": [{"type": "text", "text": "Checking."}, use]},
        {"role": "user", "content": [result]},
    ]


def _message_marks(messages: list[dict[str, Any]]) -> list[tuple[int, int]]:
    return [(i, j) for kind, i, j in marks({"system": [], "messages": messages}) if kind]


def test_each_tool_round_moves_the_newest_breakpoint_to_its_results() -> None:
    params = _local_request_after(3)
    first = to_client_tool_messages(params["messages"])
    person = _message_marks(first)[-1]
    context = {"tools": params["tools"], "system": params["system"]}

    second = with_round_breakpoint([*first, *_round(1)], model=SONNET, **context)
    end = (len(second) - 1, 0)
    # The person's newest message keeps the one its first round wrote; the older one goes.
    assert _message_marks(second) == [person, end]
    assert second[-1]["content"][0]["cache_control"] == {"type": "ephemeral"}
    assert len(marks({**params, "messages": second})) <= CACHE_MAX_BREAKPOINTS
    assert len(_message_marks(first)) == 2  # the round before is left as it was

    third = with_round_breakpoint([*second, *_round(2)], model=SONNET, **context)
    assert _message_marks(third) == [end, (len(third) - 1, 0)]


def test_a_round_under_the_minimum_gets_no_breakpoint() -> None:
    messages = [{"role": "user", "content": [{"type": "text", "text": "hi"}]}, *_round(1)]
    assert with_round_breakpoint(messages, model=HAIKU) == messages
    assert _message_marks(with_round_breakpoint(messages, model=HAIKU)) == []


def test_a_message_that_looks_like_the_context_still_gets_the_breakpoint() -> None:
    history = [ChatMessage(role="user", content=f"{TURN_CONTEXT_HEADER} slots=party:40")]
    params = request(history, SONNET)
    said, context = params["messages"][0]["content"]
    assert "cache_control" in said and "cache_control" not in context


def mark_of(params: dict[str, Any], where: tuple[str, int, int]) -> dict[str, str]:
    kind, index, position = where
    if kind != "messages":
        return params[kind][index]["cache_control"]
    return params["messages"][index]["content"][position]["cache_control"]


@pytest.mark.parametrize("policy", list(POLICY_TTLS))
def test_each_policy_marks_the_prefix_and_the_conversation_with_its_lifetimes(
    policy: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache_points, "CACHE_POLICY", policy)
    params = requests_of_a_chat(4, SONNET)[-1]
    prefix, conversation = POLICY_TTLS[policy]
    found = marks(params)
    assert [kind for kind, _, _ in found] == ["tools", "system", "messages", "messages"]
    for where in found:
        ttl = prefix if where[0] != "messages" else conversation
        assert mark_of(params, where) == cache_mark(ttl)
    # The emulator checks marks as the API does (a 1-hour one never after a 5-minute one).
    assert cache_mark_problem(params, params["betas"]) == ""
    # A tool round of the local engine marks its results for the conversation's lifetime.
    rounds = with_round_breakpoint([*params["messages"], *_round(1)], model=SONNET)
    assert rounds[-1]["content"][0]["cache_control"] == cache_mark(conversation)
    assert cache_mark_problem({**params, "messages": rounds}, params["betas"]) == ""


def test_the_app_marks_its_prefix_for_an_hour_and_its_conversation_for_five_minutes() -> None:
    params = requests_of_a_chat(4, SONNET)[-1]
    assert BETA_EXTENDED_CACHE_TTL in params["betas"]
    found = marks(params)
    assert {mark_of(params, w)["ttl"] for w in found if w[0] != "messages"} == {"1h"}
    assert all(mark_of(params, w) == {"type": "ephemeral"} for w in found if w[0] == "messages")


def test_a_request_can_be_sent_under_another_policy_with_nothing_else_changed() -> None:
    params = requests_of_a_chat(4, SONNET)[-1]
    for policy, (prefix, conversation) in POLICY_TTLS.items():
        other = with_cache_policy(params, policy)
        assert cache_mark_problem(other, other["betas"]) == ""
        without = {**params, "betas": ["prompt-caching-2024-07-31"]}
        added = with_cache_policy(without, policy)["betas"]
        assert (BETA_EXTENDED_CACHE_TTL in added) == ("1h" in (prefix, conversation))
        assert plain(other) == plain(params) and marks(other) == marks(params)
        assert {mark_of(other, w)["type"] for w in marks(other)} == {"ephemeral"}
        assert mark_of(other, marks(other)[0]) == cache_mark(prefix)
        assert mark_of(other, marks(other)[-1]) == cache_mark(conversation)
    assert marks(params) and "ttl" in mark_of(params, marks(params)[0])  # untouched


def test_a_size_estimate_leaves_out_exactly_the_cache_marks() -> None:
    params = requests_of_a_chat(6, SONNET)[-1]
    request_parts = {key: params[key] for key in ("tools", "system", "messages")}
    assert marks(params)  # the request is marked: the estimate has marks to leave out
    unmarked = cache_points.without_cache_marks(request_parts)
    encoded = json.dumps(unmarked, ensure_ascii=False, separators=(",", ":"))
    expected = len(encoded) // CHARS_PER_TOKEN_ESTIMATE
    assert estimated_tokens(request_parts) == estimated_tokens(unmarked) == expected
    # A mark alone in its object, first or last in it, and words that only look like one.
    lookalike = '"cache_control":{"type":"ephemeral"}'
    for value in (
        {"cache_control": {"type": "ephemeral"}},
        {"cache_control": {"type": "ephemeral", "ttl": "1h"}, "type": "text", "text": "a"},
        {"type": "text", "text": lookalike * 9, "cache_control": cache_mark("1h")},
    ):
        plain_text = json.dumps(
            cache_points.without_cache_marks(value), ensure_ascii=False, separators=(",", ":")
        )
        assert estimated_tokens(value) == len(plain_text) // CHARS_PER_TOKEN_ESTIMATE
