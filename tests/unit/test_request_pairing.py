"""The requests the app builds pass the Messages API's pairing and cache-mark checks (the
emulator's), for histories that turns left behind: a turn stopped after the model asked
for a tool, an approval answered twice by racing writers, an answer to an older question.
"""

from __future__ import annotations

from typing import Any

import pytest

from swiggy_core.conversation import build_message_stream_params
from swiggy_core.engine.local_history import to_client_tool_messages
from swiggy_core.models import ChatMessage, block_from_dict
from swiggy_sandbox.emulator.cache_marks import cache_mark_problem
from swiggy_sandbox.emulator.tool_pairing import tool_pairing_problem

APPROVAL = {
    "type": "tool_use",
    "id": "toolu_1",
    "name": "request_confirmation",
    "input": {"tool": "checkout", "arguments": {}},
}
ANSWER = {"type": "tool_result", "tool_use_id": "toolu_1", "content": '{"approval":"confirmed"}'}
SEARCH = [
    {
        "type": "mcp_tool_use",
        "id": "m1",
        "name": "search_products",
        "server_name": "s",
        "input": {},
    },
    {"type": "mcp_tool_result", "tool_use_id": "m1", "content": [{"type": "text", "text": "{}"}]},
]


def said(role: str, *blocks: dict[str, Any]) -> ChatMessage:
    return ChatMessage(role=role, content=[block_from_dict(block) for block in blocks])


def words(text: str) -> dict[str, str]:
    return {"type": "text", "text": text}


HISTORIES = {
    # The person wrote again before answering: the question is left without its answer.
    "unanswered": [
        said("user", words("buy it")),
        said("assistant", words("Shall I?"), APPROVAL),
        said("user", words("wait, add milk first")),
    ],
    # The settle pass and the person's next message both answered the same question.
    "answered twice": [
        said("user", words("buy it")),
        said("assistant", *SEARCH, words("Shall I?"), APPROVAL),
        said("user", ANSWER),
        said("user", ANSWER, words("thanks")),
    ],
    # An answer to a question two messages back, after the model moved on.
    "answer too late": [
        said("user", words("buy it")),
        said("assistant", words("Shall I?"), APPROVAL),
        said("user", ANSWER),
        said("assistant", words("Done.")),
        said("user", ANSWER, words("and again")),
    ],
    # A reply stopped after its search: the model's words never came.
    "stopped mid-turn": [
        said("user", words("find milk")),
        said("assistant", *SEARCH),
        said("user", words("")),
        said("user", words("find eggs")),
    ],
}


def sent(history: list[ChatMessage], mode: str) -> dict[str, Any]:
    """The request as it leaves the app (the local engine splits tool rounds first)."""
    params: dict[str, Any] = dict(
        build_message_stream_params(
            vertical_id="food",
            model="claude-sonnet-5-5",
            messages=history,
            tool_mode="local" if mode == "local" else "connector",
            swiggy_token="tok",
            client_tools=[{"name": "search_products", "input_schema": {"type": "object"}}],
        )
    )
    if mode == "local":
        params["messages"] = to_client_tool_messages(params["messages"])
    return params


@pytest.mark.parametrize("mode", ["connector", "local"])
@pytest.mark.parametrize("name", list(HISTORIES))
def test_what_the_app_sends_is_what_the_api_accepts(name: str, mode: str) -> None:
    params = sent(HISTORIES[name], mode)
    assert tool_pairing_problem(params) == ""
    assert cache_mark_problem(params, params["betas"]) == ""


def test_the_model_still_sees_what_happened() -> None:
    params = sent(HISTORIES["answered twice"], "connector")
    answers = [
        block
        for message in params["messages"]
        if isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_result"
    ]
    assert [answer["tool_use_id"] for answer in answers] == ["toolu_1"]
    assert "thanks" in str(params["messages"][-1]["content"])
