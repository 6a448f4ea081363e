"""The base of every card model: unknown fields ignored, the tool's name kept."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class CardModel(BaseModel):
    """A card or a part of one; a payload's extra fields are dropped, never an error."""

    model_config = ConfigDict(extra="ignore")


class ToolResultCard(CardModel):
    """One tool result as a card; each kind is tagged on its own `type`."""

    tool_name: str = ""
