"""Content blocks as the Messages API sends and takes them (text, tool uses and results)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

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
