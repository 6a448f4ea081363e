"""PlannerBrain: a small deterministic agent brain for the offline demo."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from swiggy_sandbox.connector import Finish, Step, TurnContext
from swiggy_sandbox.planner.approval import approval_reply
from swiggy_sandbox.planner.common import address_chosen, addresses_step, help_reply
from swiggy_sandbox.planner.dineout import plan_dineout
from swiggy_sandbox.planner.food import plan_food
from swiggy_sandbox.planner.instamart import plan_instamart
from swiggy_sandbox.planner.intents import Intent, read_intent
from swiggy_sandbox.planner.view import ConversationView, build_view

logger = logging.getLogger(__name__)
# The offline demo cannot see: a photo's list needs a model that reads images.
PHOTO_NEEDS_VISION = (
    "I can't read photos: I'm the offline demo, and reading a photo of a list needs a "
    "model that reads images (connect your Anthropic API key on Connections). You can "
    "type or paste your list here instead, or attach it as a .txt or .csv file."
)

# Keyed by vertical id: how the planner serves each vertical (its words: common.SHOP_WORDS).
_PLANS: dict[str, Callable[[ConversationView, Intent], Step]] = {
    "food": plan_instamart,
    "style": plan_instamart,
    "foodorder": plan_food,
    "dining": plan_dineout,
}


class PlannerBrain:
    """Plans one step at a time from the conversation; plug into EmulatorServer(brain=...)."""

    def next_step(self, ctx: TurnContext) -> Step:
        """The next step of this turn (the page's badge says it is the offline demo)."""
        try:
            return self._plan(ctx)
        except Exception:  # a planner bug must not leave the person without a reply
            logger.exception("offline planner failed")
            return Finish(
                "Sorry, I got muddled there. I'm a simple offline planner: try a short request "
                "like “find oats” or “show my cart”."
            )

    def _plan(self, ctx: TurnContext) -> Step:
        if _asks_about_a_photo(ctx.messages):
            return Finish(PHOTO_NEEDS_VISION)
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


def _asks_about_a_photo(messages: list[dict[str, Any]]) -> bool:
    """The newest message is the person's and holds an image block."""
    last = messages[-1] if messages else {}
    content = last.get("content")
    return (
        last.get("role") == "user"
        and isinstance(content, list)
        and any(isinstance(block, dict) and block.get("type") == "image" for block in content)
    )
