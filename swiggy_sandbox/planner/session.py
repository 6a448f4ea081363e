"""The core's session summary, read as data from the system prompt.

The app sends `slots=party:4, date:saturday; intent=book; …` after a fixed prefix on the
local engine's requests; the planner takes the person's details from it (what the core
already read from the whole chat) rather than reading the words again.
"""

from __future__ import annotations

from swiggy_core.constants import SESSION_SUMMARY_PREFIX, SUMMARY_FIELDS
from swiggy_core.conversation.summary import NONE


def session_fields(system: str) -> dict[str, str]:
    """Field → value of the session summary line (empty when the request carries none)."""
    start = system.find(SESSION_SUMMARY_PREFIX)
    if start < 0:
        return {}
    line = system[start + len(SESSION_SUMMARY_PREFIX) :].split("\n", 1)[0]
    fields: dict[str, str] = {}
    for part in line.split("; "):
        key, _, value = part.partition("=")
        if key in SUMMARY_FIELDS and value and value != NONE:
            fields[key] = value
    return fields


def session_slots(system: str) -> dict[str, str]:
    """Slot → value from the summary's `slots` field ("party" → "4", "skin" → "oily")."""
    slots: dict[str, str] = {}
    for pair in session_fields(system).get("slots", "").split(", "):
        name, _, value = pair.partition(":")
        if name and value:
            slots[name.strip()] = value.strip()
    return slots
