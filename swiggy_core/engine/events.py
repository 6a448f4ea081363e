"""Typed UI events yielded while a turn streams (pages render them as they arrive)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from swiggy_core.engine.errors import ToolError
from swiggy_core.models import ErrorInfo, TurnResult


@dataclass(frozen=True, slots=True)
class TextDelta:
    text: str
    kind: Literal["text"] = "text"


@dataclass(frozen=True, slots=True)
class ToolStarted:
    tool_use_id: str
    name: str
    server_name: str | None
    input: dict[str, Any] = field(default_factory=dict)
    kind: Literal["tool_started"] = "tool_started"


@dataclass(frozen=True, slots=True)
class ToolFinished:
    tool_use_id: str
    name: str
    is_error: bool
    content_text: str
    error: ToolError | None = None
    kind: Literal["tool_finished"] = "tool_finished"


@dataclass(frozen=True, slots=True)
class RetryScheduled:
    attempt: int
    delay_seconds: float
    error: ErrorInfo
    kind: Literal["retry"] = "retry"


@dataclass(frozen=True, slots=True)
class StreamFailed:
    error: ErrorInfo
    kind: Literal["error"] = "error"


@dataclass(frozen=True, slots=True)
class TurnDone:
    result: TurnResult
    kind: Literal["done"] = "done"


StreamEvent = TextDelta | ToolStarted | ToolFinished | RetryScheduled | StreamFailed | TurnDone
