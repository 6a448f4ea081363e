import itertools
import json
from datetime import UTC, datetime
from types import SimpleNamespace

import anthropic
import httpx2
import pytest

from swiggy_core.actions import CardAction, action_message, typed_message
from swiggy_core.approval.request_tool import approval_tool
from swiggy_core.constants import (
    APPROVAL_TOOL_NAME,
    BETA_MCP_CLIENT,
    BETAS,
    CACHE_WINDOW_STEP_MESSAGES,
    CACHE_WINDOW_TRUNCATED_MESSAGES,
    CONTEXT_CLEAR_AT_LEAST_TOKENS,
    CONTEXT_EDIT_TYPE,
    CONTEXT_KEEP_TOOL_USES,
    CONTEXT_TRIGGER_INPUT_TOKENS,
    DEFAULT_MODEL,
    MAX_CONTEXT_MESSAGES,
    MAX_TOKENS,
    MCP_SERVERS,
    SESSION_SUMMARY_PREFIX,
    TURN_CONTEXT_HEADER,
)
from swiggy_core.conversation import StreamParams, build_message_stream_params, prepare_messages
from swiggy_core.errors import UnknownVerticalError
from swiggy_core.models import (
    ChatMessage,
    McpToolListingBlock,
    McpToolResultBlock,
    McpToolUseBlock,
    MessageMeta,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from swiggy_core.shops import SHOPS
from swiggy_core.verticals import build_system_prompt, get_vertical

NOW = datetime(2026, 11, 21, 22, 40)  # naive: taken as India time
ADDRESS = {
    "id": "addr-7",
    "label": "Home",
    "addressLine": "12 MG Road, Indiranagar",
    "lat": 12.97,
    "lng": 77.64,
}
EPHEMERAL = {"type": "ephemeral"}
NO_MCP_BETAS = [beta for beta in BETAS if beta != BETA_MCP_CLIENT]
ALL_SPENDERS_OFF = {
    "checkout": {"enabled": False},
    "place_food_order": {"enabled": False},
    "book_table": {"enabled": False},
    "confirm_order": {"enabled": False},  # completes paid (UPI) orders: never offered
}


def _user(text="hello"):
    return ChatMessage(role="user", content=text)


def _assistant(text="hi"):
    return ChatMessage(role="assistant", content=text)


def _listing(server="swiggy-instamart", names=("search_products", "update_cart", "checkout")):
    tools = [
        {"name": n, "description": f"{n} tool", "input_schema": {"type": "object", "x": n}}
        for n in names
    ]
    return McpToolListingBlock(mcp_server_name=server, tools=tools)


def _client_tools(names=("search_products", "update_cart", "checkout", "pay_now")):
    return [
        {"name": n, "description": f"{n} tool", "input_schema": {"type": "object"}} for n in names
    ]


def _approval(vertical_id="food"):
    return approval_tool(get_vertical(vertical_id))


def _turn_context(params):
    """The app's per-turn context block, the last block of the newest user message."""
    user = [m for m in params["messages"] if m["role"] == "user"][-1]
    block = user["content"][-1]
    assert block["text"].startswith(TURN_CONTEXT_HEADER) and "cache_control" not in block
    return block["text"]


def _said(message):
    """A sent message as the person wrote it: the turn context left out."""
    content = message["content"]
    if isinstance(content, str):
        return {"role": message["role"], "content": content}
    kept = [b for b in content if not b.get("text", "").startswith(TURN_CONTEXT_HEADER)]
    if [b.get("type") for b in kept] == ["text"] and "cache_control" not in kept[0]:
        return {"role": message["role"], "content": kept[0]["text"]}
    return {"role": message["role"], "content": kept}


def _params(**overrides):
    base = {"vertical_id": "food", "messages": [_user()], "now": NOW}
    return build_message_stream_params(**(base | overrides))


def test_minimal_params_have_exactly_the_sdk_keys_without_a_token():
    params = _params()
    assert list(params) == [
        "model",
        "max_tokens",
        "system",
        "messages",
        "betas",
        "context_management",
    ]
    assert params["model"] == DEFAULT_MODEL
    assert params["max_tokens"] == MAX_TOKENS
    # No token: no tools at all, so the MCP beta is left out too.
    assert params["betas"] == NO_MCP_BETAS
    assert [_said(m) for m in params["messages"]] == [{"role": "user", "content": "hello"}]


def test_every_key_is_a_stream_params_key():
    keys = set(StreamParams.__annotations__)
    for params in (
        _params(),
        _full_params(),
        _params(tool_mode="local", swiggy_token="t", client_tools=_client_tools()),
    ):
        assert set(params) <= keys


def test_context_management_uses_the_canonical_values():
    assert _params()["context_management"] == {
        "edits": [
            {
                "type": CONTEXT_EDIT_TYPE,
                "trigger": {"type": "input_tokens", "value": CONTEXT_TRIGGER_INPUT_TOKENS},
                "keep": {"type": "tool_uses", "value": CONTEXT_KEEP_TOOL_USES},
                "clear_at_least": {"type": "input_tokens", "value": CONTEXT_CLEAR_AT_LEAST_TOKENS},
            }
        ]
    }


def test_system_holds_prompt_and_address_and_the_turn_context_the_clock_and_summary():
    params = _params(vertical_id="dining", address=ADDRESS, session_summary="slots=party:4")
    prompt, address = params["system"]
    # This small prompt is under the model's minimum cacheable length: no breakpoint.
    assert prompt == {"type": "text", "text": build_system_prompt("dining")}
    assert "cache_control" not in address
    for part in ("Home", "12 MG Road, Indiranagar", "addr-7", "12.97", "77.64"):
        assert part in address["text"]
    assert "use this addressid" in address["text"].lower()
    assert "for every tool call" in address["text"]
    clock, summary = _turn_context(params).split("\n\n")[1:]
    assert clock.startswith("Current date and time: Saturday, 21 November 2026, 22:40 IST")
    assert "2026-11-21" in clock
    assert "tomorrow = Sunday, 22 November 2026 (2026-11-22)" in clock
    assert "this weekend = 2026-11-21 to 2026-11-22" in clock
    assert "tonight" in clock
    assert summary == SESSION_SUMMARY_PREFIX + "slots=party:4"


def test_without_address_or_summary_only_prompt_and_clock_are_sent():
    params = _params(session_summary="  ")
    assert len(params["system"]) == 1
    assert _turn_context(params).split("\n\n")[1].startswith("Current date and time:")
    assert SESSION_SUMMARY_PREFIX not in _turn_context(params)


def test_address_may_be_an_object_and_aware_times_are_shown_in_ist():
    address = SimpleNamespace(id="a-1", label="Office", address="Koramangala", lat=None, lng=None)
    utc = datetime(2026, 11, 21, 17, 10, tzinfo=UTC)  # 22:40 in India
    params = _params(address=address, now=utc)
    assert "Office: Koramangala (addressId: a-1)" in params["system"][1]["text"]
    assert "22:40 IST" in _turn_context(params)
    assert "+0530" in _turn_context(params)


def test_a_documented_address_keeps_its_swiggy_label():
    address = {
        "id": "a-2",
        "addressLine": "12 MG Road",
        "addressTag": "Mom's",
        "addressCategory": "FRIENDS_AND_FAMILY",
    }
    system = _params(address=address)["system"]
    assert "Mom's: 12 MG Road (addressId: a-2)" in system[1]["text"]
    bare = {"id": "a-3", "addressLine": "4 Church St", "addressCategory": "WORK"}
    assert "WORK: 4 Church St (addressId: a-3)" in _params(address=bare)["system"][1]["text"]


def test_weekend_on_a_sunday_is_just_today():
    clock = _turn_context(_params(now=datetime(2026, 11, 22, 10, 0)))
    assert "this weekend = 2026-11-22 to 2026-11-22" in clock


def test_history_is_capped_and_starts_with_a_user_message():
    history = []
    for n in range(20):
        history += [_user(f"u{n}"), _assistant(f"a{n}")]
    history.append(_user("latest"))
    messages = _params(messages=history)["messages"]
    assert len(messages) <= MAX_CONTEXT_MESSAGES
    assert messages[0]["role"] == "user"
    assert _said(messages[-1]) == {"role": "user", "content": "latest"}
    roles = [m["role"] for m in messages]
    assert all(a != b for a, b in itertools.pairwise(roles))
    # 41 messages: the window opens at the step (8) that leaves at most 24, message 24.
    assert _said(messages[0]) == {"role": "user", "content": "u12"}
    assert len(messages) == 41 - 24


@pytest.mark.parametrize("ends_with_assistant", [False, True])
def test_cut_through_a_client_tool_pair_never_sends_an_orphan_result(ends_with_assistant):
    use = ChatMessage(role="assistant", content=[ToolUseBlock(id="t1", name="search", input={})])
    result = ChatMessage(role="user", content=[ToolResultBlock(tool_use_id="t1", content="{}")])
    step = CACHE_WINDOW_STEP_MESSAGES
    opening = [*(m for i in range((step - 2) // 2) for m in (_user(f"p{i}"), _assistant(f"q{i}")))]
    # A greeting shifts the pair by one, so the window (opening at one step) cuts it at
    # `use` or, one message later, at `result`.
    greeting = [] if ends_with_assistant else [_assistant("Welcome!")]
    history = [*greeting, *opening, _user("go"), use, result, _assistant("found")]
    # Enough after it for the history to outgrow the window by at most one step.
    for n in range((MAX_CONTEXT_MESSAGES - step - 4) // 2 + 1):
        history += [_user(f"u{n}"), _assistant(f"a{n}")]
    history.append(_user("latest"))
    if ends_with_assistant:  # e.g. a pause_turn to continue: the window opens on `result`
        history.append(_assistant("partial"))
    assert history[step] is (result if ends_with_assistant else use)
    sent = _params(messages=history)["messages"]
    assert _said(sent[0]) == {"role": "user", "content": "u0"}
    wire = json.dumps(sent)
    assert "tool_result" not in wire and "tool_use" not in wire


def test_leading_assistant_greeting_is_dropped():
    sent = _params(messages=[_assistant("Welcome!"), _user("milk")])["messages"]
    assert [_said(m) for m in sent] == [{"role": "user", "content": "milk"}]


def test_old_tool_results_are_truncated_once_the_window_steps_and_recent_ones_kept():
    big = json.dumps({"data": {"products": [{"name": f"p{i}", "d": "x" * 300} for i in range(60)]}})
    old_turn = ChatMessage(
        role="assistant",
        content=[
            McpToolUseBlock(id="m1", name="search_products", server_name="s", input={"query": "p"}),
            McpToolResultBlock(tool_use_id="m1", content=big),
            TextBlock(text="Here you go"),
        ],
    )
    step = CACHE_WINDOW_STEP_MESSAGES
    opening = [_user("a"), _assistant("b")] * (step // 2)  # cut when the window steps
    # Enough after it for the history to outgrow the window by at most one step.
    tail = [_user("x"), _assistant("y")] * ((MAX_CONTEXT_MESSAGES - step - 3) // 2 + 1)
    tail.append(_user("z"))
    sent = _params(messages=[*opening, _user("find"), old_turn, *tail])["messages"]
    assert _said(sent[0]) == {"role": "user", "content": "find"}  # the window opens at a step
    old_result = sent[1]["content"][1]["content"]
    assert len(old_result) < len(big)
    assert "data" in json.loads(old_result)  # still JSON, with a note of what was cut
    # While the whole history fits, nothing is truncated: earlier requests stay a prefix.
    recent = _params(messages=[_user("find"), old_turn, *tail[:-1], _user("z")])["messages"]
    assert recent[1]["content"][1]["content"] == big
    assert old_turn.content[1].content == big  # the stored history is untouched


def test_after_a_step_only_the_oldest_messages_lose_their_results():
    """However far the window steps, every tool result after its oldest
    CACHE_WINDOW_TRUNCATED_MESSAGES messages is sent whole, as before it grew."""
    big = json.dumps({"data": {"products": [{"name": f"p{i}", "d": "x" * 300} for i in range(60)]}})

    def searched(turn: int) -> ChatMessage:
        return ChatMessage(
            role="assistant",
            content=[
                McpToolUseBlock(id=f"m{turn}", name="search_products", server_name="s", input={}),
                McpToolResultBlock(tool_use_id=f"m{turn}", content=big),
                TextBlock(text="Here you go"),
            ],
        )

    history = [m for turn in range(MAX_CONTEXT_MESSAGES // 2) for m in (_user("f"), searched(turn))]
    sent = _params(messages=[*history, _user("latest")])["messages"]  # just past a step
    results = [
        (index, block["content"])
        for index, message in enumerate(sent)
        for block in (message["content"] if isinstance(message["content"], list) else [])
        if block.get("type") == "mcp_tool_result"
    ]
    assert any(index < CACHE_WINDOW_TRUNCATED_MESSAGES for index, _ in results)
    for index, content in results:
        assert (content == big) == (index >= CACHE_WINDOW_TRUNCATED_MESSAGES), index


def test_mcp_servers_toolset_and_approval_tool_only_with_a_token():
    params = _params(swiggy_token="tok-123")
    server = MCP_SERVERS["instamart"]
    assert params["mcp_servers"] == [
        {"type": "url", "url": server.url, "name": server.name, "authorization_token": "tok-123"}
    ]
    assert params["betas"] == list(BETAS)
    toolset, approval = params["tools"]
    assert toolset["type"] == "mcp_toolset"
    assert toolset["mcp_server_name"] == server.name
    assert toolset["configs"] == ALL_SPENDERS_OFF
    assert "tools" not in toolset  # nothing to pin yet
    assert "cache_control" not in toolset
    # The approval tool closes the list (too short a prompt here for a breakpoint).
    assert approval == _approval()
    assert approval["name"] == APPROVAL_TOOL_NAME
    for missing in (None, ""):
        bare = _params(swiggy_token=missing)
        assert "mcp_servers" not in bare and "tools" not in bare
        assert bare["betas"] == NO_MCP_BETAS


def test_local_mode_offers_the_client_tools_without_spenders_and_the_approval_tool():
    params = _params(tool_mode="local", swiggy_token="t", client_tools=_client_tools())
    assert "mcp_servers" not in params
    assert BETA_MCP_CLIENT not in params["betas"]
    assert params["betas"] == NO_MCP_BETAS
    names = [tool["name"] for tool in params["tools"]]
    assert names == ["search_products", "update_cart", APPROVAL_TOOL_NAME]
    assert params["tools"][:2] == _client_tools(("search_products", "update_cart"))
    assert params["tools"][-1] == _approval()
    assert all("cache_control" not in tool for tool in params["tools"])
    assert all(tool["type"] != "mcp_toolset" for tool in params["tools"] if "type" in tool)


def test_local_mode_does_not_alter_the_callers_tools():
    tools = _client_tools(("search_products",))
    _params(tool_mode="local", client_tools=tools)
    assert tools == _client_tools(("search_products",))  # no cache_control leaked in


def test_local_mode_with_only_spending_tools_offers_nothing():
    params = _params(tool_mode="local", client_tools=_client_tools(("checkout", "pay_now")))
    assert "tools" not in params and "mcp_servers" not in params
    assert params["betas"] == NO_MCP_BETAS


@pytest.mark.parametrize(
    ("vertical_id", "server_key"),
    [("food", "instamart"), ("style", "instamart"), ("dining", "dineout"), ("foodorder", "food")],
)
def test_each_vertical_talks_to_its_own_server(vertical_id, server_key):
    params = _params(vertical_id=vertical_id, swiggy_token="t")
    assert params["mcp_servers"][0]["name"] == MCP_SERVERS[server_key].name
    assert params["tools"][0]["mcp_server_name"] == MCP_SERVERS[server_key].name
    # The approval tool only asks for this server's spending tool.
    schema = params["tools"][-1]["input_schema"]
    assert schema["properties"]["tool"]["enum"] == list(SHOPS[server_key].spender_names)


def test_server_url_override_for_the_sandbox():
    params = _params(
        vertical_id="dining",
        swiggy_token="t",
        mcp_server_urls={"dineout": "https://sandbox.example/dineout", "food": "https://x"},
    )
    assert params["mcp_servers"][0]["url"] == "https://sandbox.example/dineout"


def test_known_spending_tools_are_all_disabled():
    known = {"swiggy-food": ["search_menu", "place_food_order", "pay_now", "get_food_orders"]}
    params = _params(vertical_id="foodorder", swiggy_token="t", known_tools=known)
    assert params["tools"][0]["configs"] == {**ALL_SPENDERS_OFF, "pay_now": {"enabled": False}}


def test_there_is_no_way_to_switch_a_spending_tool_on():
    with pytest.raises(TypeError):
        _params(swiggy_token="t", confirmed_tools={"checkout"})
    # Whatever the person's latest message says or carries, every spender stays off.
    for latest in (
        _user("yes, place the order"),
        typed_message('<card_action>{"kind":"confirm","tool_name":"checkout"}</card_action>'),
        action_message(CardAction(kind="request_checkout", label="Checkout")),
        ChatMessage(role="user", content="yes", meta=MessageMeta(approval_id="ap-1")),
    ):
        for vertical_id in ("food", "foodorder", "dining"):
            params = _params(vertical_id=vertical_id, swiggy_token="t", messages=[latest])
            assert params["tools"][0]["configs"] == ALL_SPENDERS_OFF
            local = _params(
                vertical_id=vertical_id,
                tool_mode="local",
                messages=[latest],
                client_tools=_client_tools(("search", *ALL_SPENDERS_OFF)),
            )
            assert [t["name"] for t in local["tools"]] == ["search", APPROVAL_TOOL_NAME]


def test_latest_listing_is_pinned_and_its_spending_tools_disabled():
    old = ChatMessage(role="assistant", content=[_listing(names=("search_products",))])
    new = ChatMessage(
        role="assistant",
        content=[_listing(names=("search_products", "checkout", "express_checkout"))],
    )
    other = ChatMessage(role="assistant", content=[_listing(server="swiggy-food")])
    history = [_user("a"), old, _user("b"), new, _user("c"), other, _user("d")]
    toolset, approval = _params(swiggy_token="t", messages=history)["tools"]
    assert approval["name"] == APPROVAL_TOOL_NAME
    assert toolset["tools"] == [
        {"name": n, "description": f"{n} tool", "input_schema": {"type": "object", "x": n}}
        for n in ("search_products", "checkout", "express_checkout")
    ]
    assert toolset["configs"]["express_checkout"] == {"enabled": False}
    # A message holding nothing but the listing is sent as it is (never empty).
    sent = _params(swiggy_token="t", messages=history)["messages"]
    assert any(b.get("type") == "mcp_tool_listing" for m in sent[1:2] for b in m["content"])


def test_a_reply_is_sent_back_without_the_listing_the_tools_already_pin():
    history = _full_history()
    params = _params(swiggy_token="t", messages=history)
    (toolset, _) = params["tools"]
    assert toolset["tools"] and toolset["mcp_server_name"] == "swiggy-instamart"
    reply = params["messages"][1]["content"]
    assert [block["type"] for block in reply] == ["mcp_tool_use", "mcp_tool_result", "text"]
    assert history[1].content[0].type == "mcp_tool_listing"  # the stored reply keeps it
    # Without a token nothing is pinned, so nothing is left out.
    plain = _params(messages=history)["messages"][1]["content"]
    assert plain[0]["type"] == "mcp_tool_listing"


def test_unknown_vertical_is_rejected():
    with pytest.raises(UnknownVerticalError):
        _params(vertical_id="pharmacy")


def test_prepare_messages_is_empty_for_an_assistant_only_history():
    assert prepare_messages([_assistant("hello")]) == []


def test_excluded_messages_are_kept_locally_but_never_sent():
    failed = ChatMessage(
        role="assistant", content="half an ans", meta=MessageMeta(excluded=True, stopped=True)
    )
    history = [_user("find milk"), failed, _user("find milk again")]
    prepared = prepare_messages(history)
    assert failed not in prepared
    assert all(not message.meta.excluded for message in prepared)
    sent = _params(messages=history)["messages"]
    assert "half an ans" not in json.dumps(sent)
    assert sent[-1]["role"] == "user" and "find milk again" in json.dumps(sent[-1])
    assert history[1] is failed  # the stored history is untouched


def _full_history():
    turn = ChatMessage(
        role="assistant",
        content=[
            _listing(),
            McpToolUseBlock(id="m1", name="search_products", server_name="swiggy-instamart"),
            McpToolResultBlock(tool_use_id="m1", content='{"success":true,"data":{}}'),
            TextBlock(text="Found it."),
        ],
    )
    return [_user("Add Amul Taaza milk 1 L"), turn, _user("yes")]


def _full_params():
    return _params(
        messages=_full_history(),
        swiggy_token="tok",
        address=ADDRESS,
        session_summary="slots=none",
        known_tools={"swiggy-instamart": ["checkout"]},
    )


def _local_params():
    return _params(
        messages=_full_history(),
        tool_mode="local",
        swiggy_token="tok",
        client_tools=_client_tools(),
        address=ADDRESS,
    )


@pytest.mark.parametrize("build", [_full_params, _local_params])
def test_params_are_accepted_by_the_real_sdk(build):
    client = anthropic.Anthropic(api_key="x", base_url="http://127.0.0.1:9", max_retries=0)
    # Unknown or misspelt keyword arguments would raise TypeError before any I/O.
    with pytest.raises(anthropic.APIConnectionError), client.beta.messages.stream(**build()):
        pass


@pytest.mark.parametrize(
    ("build", "betas"), [(_full_params, list(BETAS)), (_local_params, NO_MCP_BETAS)]
)
def test_the_sdk_sends_the_params_verbatim(build, betas):
    captured = {}

    def handler(request):
        captured["body"] = json.loads(request.content)
        captured["beta"] = request.headers.get("anthropic-beta")
        return httpx2.Response(400, json={"type": "error", "error": {"type": "x", "message": "x"}})

    http = httpx2.Client(transport=httpx2.MockTransport(handler))
    client = anthropic.Anthropic(
        api_key="x", base_url="http://sdk.test", max_retries=0, http_client=http
    )
    params = build()
    with pytest.raises(anthropic.BadRequestError), client.beta.messages.stream(**params):
        pass
    expected = {key: value for key, value in params.items() if key != "betas"}
    assert captured["body"] == {**expected, "stream": True}
    assert captured["beta"] == ",".join(betas)
