"""The offline demo's planner: a deterministic AgentBrain for each vertical's main flows."""

from swiggy_sandbox.planner.brain import PlannerBrain
from swiggy_sandbox.planner.intents import Intent, read_intent
from swiggy_sandbox.planner.tool_calls import ToolCall
from swiggy_sandbox.planner.view import ConversationView, build_view

__all__ = [
    "ConversationView",
    "Intent",
    "PlannerBrain",
    "ToolCall",
    "build_view",
    "read_intent",
]
