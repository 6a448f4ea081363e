"""PlannerBrain: a small deterministic agent brain for the offline demo."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace

from swiggy_core.constants import APPROVAL_TOOL_NAME
from swiggy_sandbox.connector import CallClientTool, CallTool, Finish, Say, Step, TurnContext
from swiggy_sandbox.planner.approval import approval_reply
from swiggy_sandbox.planner.common import address_chosen, addresses_step, help_reply
from swiggy_sandbox.planner.dineout import plan_dineout
from swiggy_sandbox.planner.food import plan_food
from swiggy_sandbox.planner.instamart import plan_instamart
from swiggy_sandbox.planner.intents import Intent, read_intent
from swiggy_sandbox.planner.view import ConversationView, build_view

logger = logging.getLogger(__name__)

# Every turn says what it is, once: this is not Claude, it is a scripted stand-in.
DEMO_LABEL = "_Offline demo_ · "
_LABEL_WORDS = "Offline demo"

_PLANS: dict[str, Callable[[ConversationView, Intent], Step]] = {
    "NutriCart": plan_instamart,
    "StyleKit": plan_instamart,
    "FeedMe": plan_food,
    "TableScout": plan_dineout,
}


class PlannerBrain:
    """Plans one step at a time from the conversation; plug into EmulatorServer(brain=...)."""

    def next_step(self, ctx: TurnContext) -> Step:
        """The next step of this turn, labelled as the offline demo."""
        try:
            step = self._plan(ctx)
        except Exception:  # a planner bug must not leave the person without a reply
            logger.exception("offline planner failed")
            step = Finish(
                "Sorry, I got muddled there. I'm a simple offline planner: try a short request "
                "like “find oats” or “show my cart”."
            )
        return _labelled(step, ctx)

    def _plan(self, ctx: TurnContext) -> Step:
        view = build_view(ctx)
        if view.approval is not None:
            # The app answered an approval request: the person's decision, and what it did.
            return approval_reply(view.approval)
        if not (ctx.tools or ctx.disabled_tools or ctx.client_tools):
            return Finish(
                "Swiggy isn't connected, so I can't search or order yet. "
                "Connect Swiggy (or the sandbox) on the Connections page."
            )
        text = view.user_texts[-1] if view.user_texts else ""
        intent = read_intent(text, view.action, view.vertical)
        if intent.kind == "help":
            return help_reply(view)
        if intent.kind == "addresses":
            return addresses_step(view)
        if intent.kind == "choose_address":
            return address_chosen(view, intent.ids)
        return _PLANS[view.vertical](view, intent)


def _labelled(step: Step, ctx: TurnContext) -> Step:
    """Put the demo label on the turn's first text (once per turn)."""
    if _already_labelled(ctx):
        return step
    if isinstance(step, Finish | Say):
        return replace(step, text=DEMO_LABEL + (step.text or "Done."))
    if isinstance(step, CallTool | CallClientTool) and step.say_before:
        return replace(step, say_before=DEMO_LABEL + step.say_before)
    return step


def _already_labelled(ctx: TurnContext) -> bool:
    """True when this turn's assistant text (across tool round trips) carries the label.

    The answer to an approval request starts a new reply (the person decided in between),
    so it is labelled again.
    """
    transcript = ctx.transcript()
    approvals = _approval_use_ids(transcript)
    for message in reversed(transcript):
        content = message.get("content")
        if message.get("role") == "user" and (_typed(content) or _answers(content, approvals)):
            return False
        if message.get("role") == "assistant" and _LABEL_WORDS in _text_of(content):
            return True
    return False


def _typed(content: object) -> bool:
    if isinstance(content, str):
        return True
    return isinstance(content, list) and any(
        isinstance(b, dict) and b.get("type") == "text" for b in content
    )


def _text_of(content: object) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return " ".join(str(b.get("text", "")) for b in content if isinstance(b, dict))


def _approval_use_ids(transcript: list[dict[str, object]]) -> set[str]:
    """Ids of every request_confirmation call in the conversation."""
    return {
        str(block.get("id"))
        for message in transcript
        if isinstance(content := message.get("content"), list)
        for block in content
        if isinstance(block, dict)
        and block.get("type") in ("tool_use", "mcp_tool_use")
        and block.get("name") == APPROVAL_TOOL_NAME
    }


def _answers(content: object, use_ids: set[str]) -> bool:
    """True when a user message answers one of `use_ids`."""
    return isinstance(content, list) and any(
        isinstance(b, dict)
        and b.get("type") in ("tool_result", "mcp_tool_result")
        and b.get("tool_use_id") in use_ids
        for b in content
    )
