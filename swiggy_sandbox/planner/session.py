"""The core's session summary and vertical profiles, read as data from a request.

The app sends its session summary (`slots=party:4, date:saturday; …; location=Home (id …
at lat,lng)`) with every request; the planner takes the person's details, the active
address and today's date from it (what the core already worked out from the whole chat)
rather than reading the words or the prompt's prose again. Which shop it is comes from the
vertical catalog: the request carries that vertical's compiled profile prompt.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from swiggy_core.conversation.summary_read import SessionSummary, read_session_summary
from swiggy_core.diet import DietProfile, read_diet_note
from swiggy_core.verticals import VERTICALS, build_system_prompt
from swiggy_core.verticals.vertical import Vertical


def request_summary(system: str, messages: Iterable[dict[str, Any]]) -> SessionSummary:
    """The summary the request carries: in the newest user message's turn context, or in
    the system prompt where the emulator lifts that context for an agent brain."""
    last_texts = _last_user_texts(list(messages))
    return read_session_summary(system, *last_texts) or SessionSummary()


def request_diet(system: str, messages: Iterable[dict[str, Any]]) -> DietProfile | None:
    """The person's standing diet the turn context carries (None when none is set)."""
    return read_diet_note(system, *_last_user_texts(list(messages)))


def profile_vertical(system: str) -> Vertical | None:
    """The vertical whose compiled profile prompt the request carries, if any."""
    return next((v for v in VERTICALS.values() if build_system_prompt(v.id) in system), None)


def _last_user_texts(messages: list[dict[str, Any]]) -> list[str]:
    for message in reversed(messages):
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            return [content]
        return [str(b.get("text", "")) for b in content or [] if isinstance(b, dict)]
    return []
