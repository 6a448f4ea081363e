"""What the real Messages API checks in `cache_control` marks (400 otherwise).

A mark is `{"type": "ephemeral"}` with an optional `ttl` of "5m" (the default) or "1h".
Marks are read in the prompt's order (tools → system → messages): once a 5-minute mark
has been seen, a 1-hour one may not follow. An empty text block cannot carry a mark. The
wording of each refusal is the API's own.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Final

from swiggy_core.constants import BETA_EXTENDED_CACHE_TTL

TTL_5M: Final = "5m"
TTL_1H: Final = "1h"
TTL_SECONDS: Final = {TTL_5M: 300.0, TTL_1H: 3600.0}

LONGER_AFTER_SHORTER: Final = (
    "{where}.cache_control.ttl: a ttl='1h' cache_control block must not come after a "
    "ttl='5m' cache_control block. Note that blocks are processed in the following order: "
    "`tools`, `system`, `messages`."
)
EMPTY_TEXT: Final = "{where}.text: cache_control cannot be set for empty text blocks"


def mark_ttl(block: Any) -> str | None:
    """The block's cache TTL ("5m" or "1h"), None when it carries no mark."""
    mark = block.get("cache_control") if isinstance(block, dict) else None
    if not isinstance(mark, dict):
        return None
    return str(mark.get("ttl", TTL_5M))


def cache_mark_problem(body: dict[str, Any], betas: Sequence[str] = ()) -> str:
    """The first cache_control mark the API would refuse ("" when all are acceptable)."""
    shorter_seen = False
    # A 1-hour mark needs the extended-cache-ttl beta. Without it the request is refused
    # here (some report the API keeping such a mark five minutes instead): either way the
    # hour is not had, and refusing makes the missing beta show.
    for where, block in _marked_blocks(body):
        mark = block["cache_control"]
        if not isinstance(mark, dict):
            return f"{where}.cache_control: Input should be a valid dictionary"
        if mark.get("type") != "ephemeral":
            return f"{where}.cache_control.type: Input should be 'ephemeral'"
        ttl = mark.get("ttl", TTL_5M)
        if ttl not in TTL_SECONDS:
            return f"{where}.cache_control.ttl: Input should be '{TTL_5M}' or '{TTL_1H}'"
        if ttl == TTL_1H and BETA_EXTENDED_CACHE_TTL not in betas:
            return (
                f"{where}.cache_control.ttl: Extra inputs are not permitted "
                f"(requires the {BETA_EXTENDED_CACHE_TTL} beta)"
            )
        if block.get("type") == "text" and block.get("text") == "":
            return EMPTY_TEXT.format(where=where)
        if ttl == TTL_1H and shorter_seen:
            return LONGER_AFTER_SHORTER.format(where=where)
        shorter_seen = shorter_seen or ttl == TTL_5M
    return ""


def _marked_blocks(body: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(path, block) of every block carrying cache_control, in the prompt's order."""
    for index, tool in enumerate(body.get("tools") or []):
        yield from _if_marked(f"tools.{index}", tool)
    system = body.get("system")
    for index, block in enumerate(system if isinstance(system, list) else []):
        yield from _if_marked(f"system.{index}", block)
    for position, message in enumerate(body.get("messages") or []):
        content = message.get("content") if isinstance(message, dict) else None
        for index, block in enumerate(content if isinstance(content, list) else []):
            yield from _if_marked(f"messages.{position}.content.{index}", block)


def _if_marked(where: str, block: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(block, dict) and block.get("cache_control") is not None:
        yield where, block
