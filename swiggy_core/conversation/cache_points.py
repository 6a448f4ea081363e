"""Where a request's prompt-cache breakpoints go: at most four, each on a stable prefix.

The cache matches the exact prompt prefix (tools → system → messages) up to a breakpoint,
so a breakpoint is only worth its place on content sent again unchanged next turn:

1. the end of the tools (the pinned listing and the approval tool);
2. the end of the static system prompt (profile and address; the clock and the session
   summary ride in the newest user message instead, after its breakpoint);
3. the previous user message: the prefix the last request wrote, read back now;
4. the newest user message (before the turn context): written now, read next turn.

A prefix shorter than the model's documented minimum is never cached, so no breakpoint
goes there (it would only count against the four).

Each breakpoint asks for the lifetime the app's cache policy gives its part: the tools
and system prompt (1 and 2) may live an hour, written rarely and read again after a pause;
the conversation (3 and 4, and the local engine's tool rounds) five minutes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, Final, Literal

from swiggy_core.constants import (
    BETA_EXTENDED_CACHE_TTL,
    CACHE_CONTROL_EPHEMERAL,
    CACHE_MAX_BREAKPOINTS,
    CACHE_MIN_TOKENS_BY_MODEL,
    CACHE_MIN_TOKENS_DEFAULT,
    CACHE_POLICY,
    CHARS_PER_TOKEN_ESTIMATE,
    TURN_CONTEXT_HEADER,
)

Block = dict[str, Any]
CacheTtl = Literal["5m", "1h"]
# What each cache policy asks for: (tools and static system prompt, the conversation). A
# 1-hour mark may not follow a 5-minute one, so the prefix never lives shorter.
POLICY_TTLS: Final[dict[str, tuple[CacheTtl, CacheTtl]]] = {
    "5m": ("5m", "5m"),
    "1h": ("1h", "1h"),
    "1h-prefix": ("1h", "5m"),
}
# A cache_control key with its value and one comma beside it, as compact JSON writes it.
_CACHE_MARK: Final = re.compile(r',"cache_control":\{[^{}]*\}|"cache_control":\{[^{}]*\},?')


def cache_mark(ttl: CacheTtl) -> dict[str, str]:
    """The cache_control of one breakpoint; five minutes is the API's default, so only a
    one-hour mark spells its ttl out."""
    if ttl == "5m":
        return dict(CACHE_CONTROL_EPHEMERAL)
    return {**CACHE_CONTROL_EPHEMERAL, "ttl": ttl}


def conversation_mark() -> dict[str, str]:
    """The cache_control of a breakpoint in the messages, under the app's policy."""
    return cache_mark(POLICY_TTLS[CACHE_POLICY][1])


def min_cacheable_tokens(model: str) -> int:
    """The documented minimum cacheable prompt length of `model`, in tokens."""
    return CACHE_MIN_TOKENS_BY_MODEL.get(model, CACHE_MIN_TOKENS_DEFAULT)


def estimated_tokens(value: Any) -> int:
    """About how many tokens `value` costs as JSON (cache_control keys not counted)."""
    encoded = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    # The marks are cut from the text rather than from a copy of `value`: copying a whole
    # request on every estimate cost more than encoding it. A mark is a flat object, and
    # a string holding the same words is encoded with escaped quotes, so never matches.
    return len(_CACHE_MARK.sub("", encoded)) // CHARS_PER_TOKEN_ESTIMATE


def is_turn_context(block: Any) -> bool:
    """True for the app's per-turn context block (clock, session summary)."""
    return (
        isinstance(block, dict)
        and block.get("type") == "text"
        and str(block.get("text", "")).startswith(TURN_CONTEXT_HEADER)
    )


def mark_cache_breakpoints(
    model: str,
    tools: Sequence[Block],
    system: Sequence[Block],
    messages: list[dict[str, Any]],
) -> None:
    """Put cache_control on the (at most four) stable ends above that are long enough.

    `system` must hold only static blocks; `messages` are wire messages, edited in place
    (a marked message's string content becomes one text block, the same prompt).
    """
    minimum = min_cacheable_tokens(model)
    prefix_ttl, conversation_ttl = POLICY_TTLS[CACHE_POLICY]
    prefix = _PrefixSize(minimum)
    prefix.add(tools)
    spots: list[tuple[int, Block, CacheTtl]] = []
    if tools:
        spots.append((prefix.tokens, tools[-1], prefix_ttl))
    prefix.add(system)
    if system:
        spots.append((prefix.tokens, system[-1], prefix_ttl))
    users = [index for index, message in enumerate(messages) if message["role"] == "user"]
    sized_to = 0
    for index in users[-2:]:
        prefix.add(messages[sized_to:index])
        sized_to = index
        block = _last_stable_block(messages[index])
        if block is not None:
            spots.append((prefix.through(messages[index], block), block, conversation_ttl))
    for tokens, block, ttl in spots[-CACHE_MAX_BREAKPOINTS:]:
        if tokens >= minimum:
            block["cache_control"] = cache_mark(ttl)


class _PrefixSize:
    """The estimated size of a growing prompt prefix, counted only until it reaches the
    cacheable minimum: every longer prefix reaches it too, so the rest (most of a long
    chat) is never encoded just to be measured."""

    def __init__(self, minimum: int) -> None:
        self.minimum = minimum
        self.tokens = 0

    def add(self, parts: Sequence[Any]) -> None:
        for part in parts:
            if self.tokens >= self.minimum:
                return
            self.tokens += estimated_tokens(part)

    def through(self, message: dict[str, Any], block: Block) -> int:
        """The size of the prefix that ends with `block` of `message` (not added)."""
        if self.tokens >= self.minimum:
            return self.tokens
        return self.tokens + _tokens_through(message, block)


def _last_stable_block(message: dict[str, Any]) -> Block | None:
    """The message's last block before the turn context; string content becomes a block."""
    if isinstance(message["content"], str):
        message["content"] = [{"type": "text", "text": message["content"]}]
    content: list[Block] = message["content"]
    # Only the app's own closing block is the context, never words that merely look like it.
    if len(content) > 1 and is_turn_context(content[-1]):
        return content[-2]
    return content[-1] if content else None


def _tokens_through(message: dict[str, Any], block: Block) -> int:
    through: list[Block] = []
    for each in message["content"]:
        through.append(each)
        if each is block:
            break
    return estimated_tokens({"role": message["role"], "content": through})


def without_cache_marks(value: Any) -> Any:
    """A copy of a request (or any part of it) with every `cache_control` key left out."""
    if isinstance(value, dict):
        return {k: without_cache_marks(v) for k, v in value.items() if k != "cache_control"}
    if isinstance(value, list):
        return [without_cache_marks(item) for item in value]
    return value


def with_cache_policy(params: dict[str, Any], policy: str) -> dict[str, Any]:
    """A copy of a request whose breakpoints (and betas) ask for `policy`'s lifetimes."""
    prefix_ttl, conversation_ttl = POLICY_TTLS[policy]
    ttls = {"tools": prefix_ttl, "system": prefix_ttl, "messages": conversation_ttl}
    other = {
        key: _with_ttl(value, ttls[key]) if key in ttls else value for key, value in params.items()
    }
    betas = list(params.get("betas", []))
    if "1h" in POLICY_TTLS[policy] and BETA_EXTENDED_CACHE_TTL not in betas:
        other["betas"] = [*betas, BETA_EXTENDED_CACHE_TTL]  # what a 1-hour mark needs
    return other


def _with_ttl(value: Any, ttl: CacheTtl) -> Any:
    if isinstance(value, dict):
        return {
            k: cache_mark(ttl) if k == "cache_control" else _with_ttl(v, ttl)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_with_ttl(item, ttl) for item in value]
    return value
