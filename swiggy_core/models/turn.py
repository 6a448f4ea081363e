"""What one streamed turn produced: its blocks, usage, stop reason and any error."""

from __future__ import annotations

from pydantic import BaseModel, Field

from swiggy_core.models.blocks import ContentBlock, TextBlock
from swiggy_core.models.messages import ChatMessage, ErrorInfo
from swiggy_core.models.usage import Usage

StopReason = str  # the API adds new values over time; keep it open


class TurnResult(BaseModel):
    """What one streamed turn produced; partial content survives an error."""

    blocks: list[ContentBlock] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    stop_reason: StopReason | None = None
    error: ErrorInfo | None = None
    rate_limit_headers: dict[str, str] = Field(default_factory=dict)
    attempts: int = 1
    # The person pressed Stop: what arrived is kept, the rest never came.
    stopped: bool = False

    @property
    def ok(self) -> bool:
        return self.error is None

    def text(self) -> str:
        return "".join(b.text for b in self.blocks if isinstance(b, TextBlock))

    def as_message(self) -> ChatMessage:
        return ChatMessage(role="assistant", content=list(self.blocks))
