"""Token counts, prompt caching and context editing, reported the way the real API does.

The documented caching rules, followed here:
- the prompt is tools → system → messages, a sequence of blocks; a `cache_control`
  breakpoint stands for the exact prefix through its block (cache_control itself is not
  part of the content);
- a request reads the longest cached prefix that ends at a breakpoint, or at one of the
  CACHE_LOOKBACK_BLOCKS block boundaries before a breakpoint;
- it writes the prefix through each breakpoint; an entry lives for its breakpoint's TTL
  (5 minutes, or 1 hour with `ttl: "1h"`), and each read refreshes it; entries belong to
  one model;
- a prefix shorter than the model's minimum cacheable length is neither written nor read;
- usage, with A the prefix read, B the last 1-hour breakpoint after A (A when none) and
  C the last breakpoint (A when none is after A): `cache_read_input_tokens` is A,
  `cache_creation_input_tokens` is C - A, of which B - A went to 1-hour entries and C - B
  to 5-minute ones (`cache_creation`), and `input_tokens` is the rest (after C).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from swiggy_core.constants import (
    CACHE_LOOKBACK_BLOCKS,
    CACHE_MAX_BREAKPOINTS,
    CACHE_MIN_TOKENS_BY_MODEL,
    CACHE_MIN_TOKENS_DEFAULT,
    CACHE_TTL_SECONDS,
    TURN_CONTEXT_HEADER,
)
from swiggy_sandbox.connector.context_edits import apply_context_edits
from swiggy_sandbox.emulator.cache_marks import TTL_1H, TTL_SECONDS, mark_ttl
from swiggy_sandbox.emulator.sse import CHARS_PER_TOKEN

TOO_MANY_BREAKPOINTS = (
    "A maximum of {limit} blocks with cache_control may be provided. Found {found}."
)


@dataclass(frozen=True)
class PreparedPrompt:
    """The prompt as the model sees it, plus the usage and edits the response reports."""

    messages: list[dict[str, Any]]
    usage: dict[str, Any]
    applied_edits: list[dict[str, Any]] = field(default_factory=list)
    # The app's per-turn context (clock, session summary), lifted out of the messages.
    turn_context: str = ""


class PromptCache:
    """Cached prefixes by key (model and content), each with its TTL and expiry (thread-safe).

    `clock` gives seconds; a test or bench may pass its own to let minutes or hours pass
    without waiting.
    """

    def __init__(
        self,
        ttl_seconds: float = CACHE_TTL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.ttl_seconds = ttl_seconds
        self._clock = clock
        self._entries: dict[str, tuple[float, float]] = {}  # key -> (expiry, ttl)
        self._lock = threading.Lock()

    def hit(self, key: str) -> bool:
        """True (and the entry refreshed for its TTL) when `key` is still cached."""
        now = self._clock()
        with self._lock:
            expires, ttl = self._entries.get(key, (0.0, 0.0))
            if expires <= now:
                self._entries.pop(key, None)
                return False
            self._entries[key] = (now + ttl, ttl)
            return True

    def refresh(self, key: str) -> None:
        """Keep a live entry for its own TTL again (a prefix read through a longer one)."""
        self.hit(key)

    def write(self, key: str, ttl_seconds: float | None = None) -> None:
        """Remember a prefix for `ttl_seconds` (the cache's default when None)."""
        ttl = self.ttl_seconds if ttl_seconds is None else ttl_seconds
        with self._lock:
            self._entries[key] = (self._clock() + ttl, ttl)


@dataclass(frozen=True)
class _Block:
    """One block of the prompt: its tokens, its running key, and its breakpoint's TTL."""

    tokens: int
    key: str
    ttl: str | None  # the breakpoint's TTL ("5m" or "1h"); None for an unmarked block


def breakpoint_problem(body: dict[str, Any]) -> str:
    """The API's refusal of more than four cache_control blocks ("" when within the limit)."""
    found = sum(1 for _, ttl in _pieces(body) if ttl)
    if found <= CACHE_MAX_BREAKPOINTS:
        return ""
    return TOO_MANY_BREAKPOINTS.format(limit=CACHE_MAX_BREAKPOINTS, found=found)


def prepare_prompt(body: dict[str, Any], cache: PromptCache) -> PreparedPrompt:
    """Apply context edits, then count tokens and look the cached prefixes up."""
    # The edit's trigger compares the same count the usage reports.
    messages, edits = apply_context_edits(body, prompt_tokens(body))
    usage = prompt_usage({**body, "messages": messages}, cache)
    spoken, context = lift_turn_context(messages)
    return PreparedPrompt(spoken, usage, applied_edits=edits, turn_context=context)


def lift_turn_context(messages: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], str]:
    """The messages without the app's turn-context blocks, and the newest one's text.

    The offline brains read the clock and the session summary as context, not as words
    the person wrote; the real model simply reads them where they are. Only a user
    message's closing block after some other block counts, as the app sends it.
    """
    lifted: list[dict[str, Any]] = []
    context = ""
    for message in messages:
        content = message.get("content")
        if (
            message.get("role") == "user"
            and isinstance(content, list)
            and len(content) > 1
            and _is_turn_context(content[-1])
        ):
            context = str(content[-1]["text"])
            message = {**message, "content": content[:-1]}
        lifted.append(message)
    return lifted, context


def _is_turn_context(block: Any) -> bool:
    return (
        isinstance(block, dict)
        and block.get("type") == "text"
        and str(block.get("text", "")).startswith(TURN_CONTEXT_HEADER)
    )


def prompt_tokens(body: dict[str, Any]) -> int:
    """The prompt's input tokens, cached or not."""
    return sum(block.tokens for block in _blocks(body))


def prompt_usage(body: dict[str, Any], cache: PromptCache) -> dict[str, Any]:
    """input / cache_creation / cache_read tokens for this prompt, updating the cache."""
    blocks = _blocks(body)
    running = _running_totals(blocks)
    total = running[-1] if running else 0
    minimum = CACHE_MIN_TOKENS_BY_MODEL.get(str(body.get("model", "")), CACHE_MIN_TOKENS_DEFAULT)
    marks = [i for i, block in enumerate(blocks) if block.ttl and running[i] >= minimum]
    read_end = _longest_hit(blocks, running, marks, minimum, cache)
    read = running[read_end] if read_end >= 0 else 0
    written = [i for i in marks if i > read_end]
    long_lived = [i for i in written if blocks[i].ttl == TTL_1H]
    through_long = running[long_lived[-1]] if long_lived else read
    through_all = running[written[-1]] if written else read
    # Only the marks after the prefix read are written (and billed); those inside it keep
    # the lifetime they were written with: reading through a 1-hour mark does not make a
    # 5-minute entry live an hour, nor create an entry no request wrote.
    for index in marks:
        if index > read_end:
            cache.write(blocks[index].key, TTL_SECONDS[str(blocks[index].ttl)])
        else:
            cache.refresh(blocks[index].key)
    return {
        "input_tokens": total - through_all,
        "cache_creation_input_tokens": through_all - read,
        "cache_read_input_tokens": read,
        "cache_creation": {
            "ephemeral_5m_input_tokens": through_all - through_long,
            "ephemeral_1h_input_tokens": through_long - read,
        },
    }


def _longest_hit(
    blocks: list[_Block], running: list[int], marks: list[int], minimum: int, cache: PromptCache
) -> int:
    """Index of the last block of the longest cached prefix found, -1 when none is."""
    looked: set[int] = set()
    for mark in marks:
        looked.update(range(max(mark - CACHE_LOOKBACK_BLOCKS, 0), mark + 1))
    for index in sorted(looked, reverse=True):
        if running[index] >= minimum and cache.hit(blocks[index].key):
            return index
    return -1


def _running_totals(blocks: list[_Block]) -> list[int]:
    totals: list[int] = []
    for block in blocks:
        totals.append((totals[-1] if totals else 0) + block.tokens)
    return totals


def _blocks(body: dict[str, Any]) -> list[_Block]:
    """Every block with the key of the prefix through it (model included)."""
    digest = hashlib.sha256(str(body.get("model", "")).encode())
    blocks: list[_Block] = []
    for piece, ttl in _pieces(body):
        digest.update(piece.encode())
        tokens = max(1, len(piece) // CHARS_PER_TOKEN)
        blocks.append(_Block(tokens, digest.copy().hexdigest(), ttl))
    return blocks


def _pieces(body: dict[str, Any]) -> list[tuple[str, str | None]]:
    """The prompt's blocks in order, serialised, each with its cache_control TTL (or None)."""
    pieces = [_piece("tool", tool) for tool in body.get("tools") or []]
    system = body.get("system")
    if isinstance(system, str):
        pieces.append(_piece("system", {"type": "text", "text": system}))
    elif isinstance(system, list):
        pieces.extend(_piece("system", block) for block in system)
    for message in body.get("messages") or []:
        role = str(message.get("role", ""))
        content = message.get("content")
        if isinstance(content, str):
            # A string is the same prompt as one text block holding it.
            content = [{"type": "text", "text": content}]
        if isinstance(content, list):
            pieces.extend(_piece(role, block) for block in content)
    return pieces


def _piece(tag: str, block: Any) -> tuple[str, str | None]:
    if not isinstance(block, dict):
        return f"{tag}:{block}\n", None
    # Moving a breakpoint must not change the content it covers.
    content = {key: value for key, value in block.items() if key != "cache_control"}
    encoded = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return f"{tag}:{encoded}\n", mark_ttl(block)
