"""Typed chat data: content blocks, messages, usage and turn results.

Blocks mirror the Messages API wire format, so `ChatMessage.to_param()` is exactly what
the API expects back, and one `TypeAdapter` stores and restores a whole conversation
(session_state, the database and test fixtures share this format).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from swiggy_core.parsers.results import ParsedToolResult

# The parts of a tool result live in tool_content; re-exported: they are content too.
from swiggy_core.tool_content import DocumentContent as DocumentContent
from swiggy_core.tool_content import FileContent as FileContent
from swiggy_core.tool_content import ImageContent as ImageContent
from swiggy_core.tool_content import TextContent as TextContent
from swiggy_core.tool_content import ToolResultPart


class _Block(BaseModel):
    model_config = ConfigDict(extra="ignore")

    def to_param(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=True)


class _ResultBlock(_Block):
    """A tool result: text, or parts (text, image, document, file) in the order they came."""

    tool_use_id: str
    is_error: bool = False
    content: str | list[ToolResultPart] = ""

    def to_param(self) -> dict[str, Any]:
        param = super().to_param()
        if not isinstance(self.content, str):
            # A file part is the app's own: the model reads the line naming it.
            param["content"] = [part.to_param() for part in self.content]
        return param


class TextBlock(_Block):
    type: Literal["text"] = "text"
    text: str


class McpToolUseBlock(_Block):
    type: Literal["mcp_tool_use"] = "mcp_tool_use"
    id: str
    name: str
    server_name: str
    input: dict[str, Any] = Field(default_factory=dict)


class McpToolResultBlock(_ResultBlock):
    type: Literal["mcp_tool_result"] = "mcp_tool_result"


class McpToolListingBlock(_Block):
    type: Literal["mcp_tool_listing"] = "mcp_tool_listing"
    mcp_server_name: str
    tools: list[dict[str, Any]] = Field(default_factory=list)


class ToolUseBlock(_Block):
    type: Literal["tool_use"] = "tool_use"
    id: str
    name: str
    input: dict[str, Any] = Field(default_factory=dict)


class ToolResultBlock(_ResultBlock):
    type: Literal["tool_result"] = "tool_result"


ContentBlock = Annotated[
    TextBlock
    | McpToolUseBlock
    | McpToolResultBlock
    | McpToolListingBlock
    | ToolUseBlock
    | ToolResultBlock,
    Field(discriminator="type"),
]
TOOL_USE_TYPES = frozenset({"mcp_tool_use", "tool_use"})
TOOL_RESULT_TYPES = frozenset({"mcp_tool_result", "tool_result"})
CONTENT_BLOCK_TYPES = frozenset(
    {"text", "mcp_tool_use", "mcp_tool_result", "mcp_tool_listing", "tool_use", "tool_result"}
)

_block_adapter: TypeAdapter[ContentBlock] = TypeAdapter(ContentBlock)


def block_from_dict(data: dict[str, Any]) -> ContentBlock:
    """Validate one wire-format block (raises pydantic.ValidationError on bad input)."""
    return _block_adapter.validate_python(data)


def result_text(block: McpToolResultBlock | ToolResultBlock) -> str:
    """The plain text of a tool result, whichever content form it uses (an image, a PDF or
    a file gives the short line naming it, never its data)."""
    if isinstance(block.content, str):
        return block.content
    return "".join(part.text for part in block.content)


class Usage(BaseModel):
    """Token usage of one response (or a sum of several)."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cache_creation_input_tokens=self.cache_creation_input_tokens
            + other.cache_creation_input_tokens,
            cache_read_input_tokens=self.cache_read_input_tokens + other.cache_read_input_tokens,
        )

    @property
    def total_tokens(self) -> int:
        return (
            self.input_tokens
            + self.output_tokens
            + self.cache_creation_input_tokens
            + self.cache_read_input_tokens
        )


class ErrorInfo(BaseModel):
    """An error as the UI shows it: stable code, category, short message, optional wait."""

    code: str
    category: str
    message: str
    status: int | None = None
    retry_after_seconds: float | None = None
    retryable: bool = False
    # A Swiggy tool kept failing: the person may send Swiggy a report_error about it.
    report_tool: str | None = None
    report_detail: str | None = None


ActionKind = Literal[
    "add_to_cart",
    "set_quantity",
    "remove_from_cart",
    "view_cart",
    "request_checkout",
    "show_menu",
    "show_slots",
    "pick_slot",
    "choose_address",
    "clear_cart",
]


class CardAction(BaseModel):
    """One card button press: what it means and the ids the tools need.

    Actions never confirm anything: spending happens only through a stored approval.
    """

    kind: ActionKind
    label: str = Field(description="The human sentence shown in the chat.")
    ids: dict[str, Any] = Field(default_factory=dict)


class MessageMeta(BaseModel):
    """What the app keeps about a message besides its content; never sent to the API."""

    model_config = ConfigDict(extra="ignore")

    usage: Usage | None = None
    action: CardAction | None = None
    # Parsed cards by tool_use_id: each tool result is parsed once, when it arrives.
    cards: dict[str, ParsedToolResult] = Field(default_factory=dict)
    error: ErrorInfo | None = None
    stopped: bool = False
    # Kept on screen but not sent to the model (the partial reply of a failed turn).
    excluded: bool = False
    approval_id: str | None = None
    turn_id: str | None = None
    # The person asked again: their edited words ("edit"), or the same words for a fresh
    # reply ("regenerate"); the earlier turn stays (messages are only ever appended).
    redo: Literal["edit", "regenerate"] | None = None

    def merged(self, other: MessageMeta) -> MessageMeta:
        """Both messages' facts in one (used when two same-role messages are joined)."""
        usage = (
            self.usage + other.usage if self.usage and other.usage else self.usage or other.usage
        )
        return self.model_copy(
            update={
                "usage": usage,
                "action": self.action or other.action,
                "cards": {**self.cards, **other.cards},
                "error": other.error or self.error,
                "stopped": self.stopped or other.stopped,
                "excluded": self.excluded and other.excluded,
                "approval_id": self.approval_id or other.approval_id,
            }
        )


class ChatMessage(BaseModel):
    """One message of a conversation; `meta` stays local and is never sent to the API."""

    role: Literal["user", "assistant"]
    content: str | list[ContentBlock]
    meta: MessageMeta = Field(default_factory=MessageMeta)

    def blocks(self) -> list[ContentBlock]:
        if isinstance(self.content, str):
            return [TextBlock(text=self.content)]
        return list(self.content)

    def text(self) -> str:
        return "".join(b.text for b in self.blocks() if isinstance(b, TextBlock))

    def to_param(self) -> dict[str, Any]:
        if isinstance(self.content, str):
            return {"role": self.role, "content": self.content}
        return {"role": self.role, "content": [b.to_param() for b in self.content]}


ToolUse = McpToolUseBlock | ToolUseBlock
ToolResult = McpToolResultBlock | ToolResultBlock


@dataclass(frozen=True, slots=True)
class ToolPair:
    """A tool call and its result (None while unanswered), wherever each one sits."""

    use: ToolUse
    result: ToolResult | None
    # Position of the result: (message index, block index); (-1, -1) while unanswered.
    message_index: int = -1
    block_index: int = -1


def tool_pairs(messages: Sequence[ChatMessage]) -> list[ToolPair]:
    """Every tool use paired with its result by id (same message or a later one), in order.

    The one way to walk tool calls: MCP results sit beside their use; client results
    arrive in the next user message.
    """
    uses: dict[str, ToolUse] = {}
    answered: dict[str, ToolPair] = {}
    order: list[str] = []
    for message_index, message in enumerate(messages):
        for block_index, block in enumerate(message.blocks()):
            if isinstance(block, McpToolUseBlock | ToolUseBlock):
                if block.id not in uses:
                    uses[block.id] = block
                    order.append(block.id)
            elif isinstance(block, McpToolResultBlock | ToolResultBlock):
                use = uses.get(block.tool_use_id)
                if use is not None and block.tool_use_id not in answered:
                    answered[block.tool_use_id] = ToolPair(use, block, message_index, block_index)
    return [answered.get(use_id) or ToolPair(uses[use_id], None) for use_id in order]


def block_pairs(blocks: Sequence[ContentBlock]) -> list[ToolPair]:
    """`tool_pairs` of one message's blocks."""
    return tool_pairs([ChatMessage(role="assistant", content=list(blocks))])


conversation_adapter: TypeAdapter[list[ChatMessage]] = TypeAdapter(list[ChatMessage])


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
