"""How the real Messages API pairs a client `tool_use` with its `tool_result` (400 otherwise).

The documented rules: the results of an assistant message's `tool_use` blocks come in the
very next user message, before anything else in it (text goes after every result); each
`tool_use` gets exactly one result; and a result answers a `tool_use` of the previous
assistant message, not one from further back. Consecutive user messages count as one, as
the API joins them. The wording of each refusal is the API's own.

`mcp_tool_use` / `mcp_tool_result` pairs live inside one assistant message (the connector
runs them); a result only needs its use somewhere before it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

MISSING_RESULTS: Final = (
    "{where}: `tool_use` ids were found without `tool_result` blocks immediately after: "
    "{ids}. Each `tool_use` block must have a corresponding `tool_result` block in the "
    "next message."
)
UNEXPECTED_RESULT: Final = (
    "{where}: unexpected `tool_use_id` found in `tool_result` blocks: {id}. Each "
    "`tool_result` block must have a corresponding `tool_use` block in the previous message."
)
DUPLICATE_RESULT: Final = (
    "{where}: each tool_use must have a single result. Found multiple `tool_result` blocks "
    "with id: {id}"
)
UNEXPECTED_MCP_RESULT: Final = (
    "{where}: unexpected `tool_use_id` found in `mcp_tool_result` blocks: {id}. Each "
    "`mcp_tool_result` block must have a corresponding `mcp_tool_use` block before it."
)
MCP_USE_TYPES: Final = frozenset({"mcp_tool_use", "server_tool_use"})


@dataclass(frozen=True)
class _Placed:
    """One content block with where it sits: `messages.<message>.content.<index>`."""

    message: int
    index: int
    block: dict[str, Any]

    @property
    def where(self) -> str:
        return f"messages.{self.message}.content.{self.index}"


def tool_pairing_problem(body: dict[str, Any]) -> str:
    """The first pairing the API would refuse ("" when every use and result pair up)."""
    turns = _turns(body.get("messages") or [])
    asked: list[_Placed] = []  # the tool_use blocks of the assistant turn just before
    mcp_uses: set[str] = set()
    for number, (role, blocks) in enumerate(turns):
        problem = _mcp_problem(blocks, mcp_uses)
        if role == "user":
            problem = problem or _results_problem(blocks, {_use_id(use) for use in asked})
        else:
            asked = [placed for placed in blocks if placed.block.get("type") == "tool_use"]
            following = turns[number + 1][1] if number + 1 < len(turns) else []
            problem = problem or _unanswered_problem(asked, following)
        if problem:
            return problem
    return ""


def _turns(messages: list[Any]) -> list[tuple[str, list[_Placed]]]:
    """(role, blocks) per run of same-role messages."""
    turns: list[tuple[str, list[_Placed]]] = []
    for position, message in enumerate(messages):
        role = str(message.get("role"))
        content = message.get("content")
        blocks = [
            _Placed(position, index, block)
            for index, block in enumerate(content if isinstance(content, list) else [])
            if isinstance(block, dict)
        ]
        if turns and turns[-1][0] == role:
            turns[-1][1].extend(blocks)
        else:
            turns.append((role, blocks))
    return turns


def _use_id(placed: _Placed) -> str:
    return str(placed.block.get("id"))


def _results_problem(blocks: list[_Placed], asked: set[str]) -> str:
    """A user turn's results: each answers the previous assistant turn, and only once."""
    answered: set[str] = set()
    for placed in blocks:
        if placed.block.get("type") != "tool_result":
            continue
        use_id = str(placed.block.get("tool_use_id"))
        if use_id not in asked:
            return UNEXPECTED_RESULT.format(where=placed.where, id=use_id)
        if use_id in answered:
            return DUPLICATE_RESULT.format(where=placed.where, id=use_id)
        answered.add(use_id)
    return ""


def _unanswered_problem(asked: list[_Placed], following: list[_Placed]) -> str:
    """The assistant turn's uses left without a result at the head of the next user turn."""
    leading: set[str] = set()
    for placed in following:
        if placed.block.get("type") != "tool_result":
            break  # text (or anything else) before a result leaves that use unanswered
        leading.add(str(placed.block.get("tool_use_id")))
    missing = [use for use in asked if _use_id(use) not in leading]
    if not missing:
        return ""
    ids = ", ".join(_use_id(use) for use in missing)
    return MISSING_RESULTS.format(where=f"messages.{missing[0].message}", ids=ids)


def _mcp_problem(blocks: list[_Placed], uses: set[str]) -> str:
    for placed in blocks:
        kind = placed.block.get("type")
        if kind in MCP_USE_TYPES:
            uses.add(str(placed.block.get("id")))
        elif kind == "mcp_tool_result" and str(placed.block.get("tool_use_id")) not in uses:
            use_id = placed.block.get("tool_use_id")
            return UNEXPECTED_MCP_RESULT.format(where=placed.where, id=use_id)
    return ""
