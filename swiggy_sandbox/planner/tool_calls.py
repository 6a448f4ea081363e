"""The tool calls in a chat and what came back: a tool_result block read into a ToolCall, and
the app's answer to a request_confirmation read into an ApprovalAnswer."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from swiggy_core.constants import APPROVAL_TOOL_NAME
from swiggy_core.conversation import expand_back_references
from swiggy_sandbox.planner.summary_data import summary_data


@dataclass(frozen=True)
class ToolCall:
    """One tool call in the conversation and what came back."""

    name: str
    input: dict[str, Any]
    ok: bool
    data: dict[str, Any]
    error: str
    this_turn: bool
    # Index into ConversationView.user_texts of the message this call answered.
    turn: int = -1


@dataclass(frozen=True)
class ApprovalAnswer:
    """The app's answer to one `request_confirmation` call: the person's decision and outcome.

    `result` is the spending tool's own envelope, present only when the app ran the tool.
    """

    tool: str
    arguments: dict[str, Any]
    approval: str
    message: str = ""
    result: dict[str, Any] | None = None

    @property
    def succeeded(self) -> bool:
        """True only when the app ran the tool and its envelope says it worked."""
        return (
            self.approval == "confirmed"
            and self.result is not None
            and self.result.get("success") is True
        )

    @property
    def data(self) -> dict[str, Any]:
        """The result's `data` when it succeeded (else empty)."""
        data = (self.result or {}).get("data") if self.succeeded else None
        return data if isinstance(data, dict) else {}

    @property
    def error(self) -> str:
        """The result's error message, if it failed."""
        error = (self.result or {}).get("error")
        message = error.get("message") if isinstance(error, dict) else error
        return str(message or "")


def read_call(
    name: str, tool_input: dict[str, Any], block: dict[str, Any], this_turn: bool
) -> ToolCall:
    """The call's data, read in this order: a JSON-object block (structuredContent, which
    may be the envelope or its `data`), JSON in the text, else the summary's numbered lines."""
    texts = _result_texts(block)
    text = "".join(texts)
    payload = next((p for t in reversed(texts) if (p := _json_object(t)) is not None), None)
    payload = payload or _json_object(text)
    if payload is not None:  # a large result reached the model reduced: read it whole
        payload = expand_back_references(payload)
    if payload is None:
        if block.get("is_error") or not text.strip():
            return ToolCall(name, tool_input, False, {}, text.strip() or "no answer", this_turn)
        return ToolCall(name, tool_input, True, summary_data(name, text), "", this_turn)
    if block.get("is_error") or payload.get("success") is False:
        error = payload.get("error")
        message = error.get("message") if isinstance(error, dict) else error
        return ToolCall(name, tool_input, False, {}, str(message or text), this_turn)
    data = payload.get("data") if "success" in payload else payload
    return ToolCall(name, tool_input, True, data if isinstance(data, dict) else {}, "", this_turn)


def read_approval(tool_input: dict[str, Any], block: dict[str, Any]) -> ApprovalAnswer:
    """The app's JSON answer to a request_confirmation (not the usual envelope)."""
    text = _result_text(block)
    payload = _json_object(text)
    if payload is None:  # not JSON: keep the words, and know nothing about the outcome
        payload = {"approval": "unknown", "message": text}
    arguments = tool_input.get("arguments")
    result = payload.get("result")
    if isinstance(result, str):
        result = _json_object(result)
    return ApprovalAnswer(
        # The tool the model asked about (and the arguments the app was shown).
        tool=str(tool_input.get("tool") or payload.get("tool") or ""),
        arguments=dict(arguments) if isinstance(arguments, dict) else {},
        approval=str(payload.get("approval") or "unknown").strip().lower(),
        message=str(payload.get("message") or "").strip(),
        result=result if isinstance(result, dict) else None,
    )


def approval_calls(
    answer: ApprovalAnswer, tool_input: dict[str, Any], this_turn: bool, turn: int
) -> list[ToolCall]:
    """The approval as a call, plus the spending call the app made for it (if it did).

    The spending call keeps the history straight: after a placed order the cart is empty.
    """
    data = {"approval": answer.approval, "tool": answer.tool, "message": answer.message}
    asked = ToolCall(APPROVAL_TOOL_NAME, dict(tool_input), True, data, "", this_turn, turn)
    if answer.approval != "confirmed" or answer.result is None:
        return [asked]
    error = "" if answer.succeeded else (answer.error or "the outcome is unknown")
    spent = ToolCall(
        answer.tool, dict(answer.arguments), answer.succeeded, answer.data, error, this_turn, turn
    )
    return [asked, spent]


def _result_text(block: dict[str, Any]) -> str:
    return "".join(_result_texts(block))


def _result_texts(block: dict[str, Any]) -> list[str]:
    content = block.get("content")
    if isinstance(content, str):
        return [content]
    return [str(part.get("text", "")) for part in content or [] if isinstance(part, dict)]


def _json_object(text: str) -> dict[str, Any] | None:
    try:
        payload = json.loads(text)
    except ValueError:
        return None
    return payload if isinstance(payload, dict) else None
