"""Token counts, prompt caching and context editing, estimated the way the real API reports them."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from swiggy_sandbox.connector.context_edits import apply_context_edits
from swiggy_sandbox.emulator.sse import CHARS_PER_TOKEN, estimate_input_tokens

# The ephemeral cache lives five minutes, refreshed each time it is read.
CACHE_TTL_SECONDS = 300.0


@dataclass(frozen=True)
class PreparedPrompt:
    """The prompt as the model sees it, plus the usage and edits the response reports."""

    messages: list[dict[str, Any]]
    usage: dict[str, int]
    applied_edits: list[dict[str, Any]] = field(default_factory=list)


class PromptCache:
    """Prefixes seen recently, keyed by model and content (thread-safe)."""

    def __init__(self, ttl_seconds: float = CACHE_TTL_SECONDS) -> None:
        self.ttl_seconds = ttl_seconds
        self._expiry: dict[str, float] = {}
        self._lock = threading.Lock()

    def hit(self, key: str) -> bool:
        """True (and the entry refreshed) when `key` was written within the TTL."""
        now = time.monotonic()
        with self._lock:
            expires = self._expiry.get(key)
            if expires is None or expires < now:
                self._expiry.pop(key, None)
                return False
            self._expiry[key] = now + self.ttl_seconds
            return True

    def write(self, key: str) -> None:
        """Remember a prefix for the next TTL."""
        with self._lock:
            self._expiry[key] = time.monotonic() + self.ttl_seconds


def prepare_prompt(body: dict[str, Any], cache: PromptCache) -> PreparedPrompt:
    """Apply context edits, then count tokens and look the cached prefixes up."""
    messages, edits = apply_context_edits(body, estimate_input_tokens(body))
    edited = {**body, "messages": messages}
    return PreparedPrompt(messages=messages, usage=prompt_usage(edited, cache), applied_edits=edits)


def prompt_usage(body: dict[str, Any], cache: PromptCache) -> dict[str, int]:
    """input / cache_creation / cache_read tokens for this prompt, updating the cache."""
    total = estimate_input_tokens(body)
    breakpoints = _breakpoint_prefixes(body)
    if not breakpoints:
        return {
            "input_tokens": total,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
        }
    model = str(body.get("model", ""))
    # Tokens are capped so that something is always left outside the cache, as in real counts.
    sized = [
        (_key(model, prefix), min(len(prefix) // CHARS_PER_TOKEN, total - 1))
        for prefix in breakpoints
    ]
    read = next((tokens for key, tokens in reversed(sized) if cache.hit(key)), 0)
    for key, _ in sized:
        cache.write(key)
    cached = max(read, sized[-1][1])
    return {
        "input_tokens": max(1, total - cached),
        "cache_creation_input_tokens": cached - read,
        "cache_read_input_tokens": read,
    }


def _breakpoint_prefixes(body: dict[str, Any]) -> list[str]:
    """The serialised prompt up to each cache_control breakpoint (tools, system, messages)."""
    pieces: list[str] = []
    prefixes: list[str] = []
    for piece, marked in _pieces(body):
        pieces.append(piece)
        if marked:
            prefixes.append("\n".join(pieces))
    return prefixes


def _pieces(body: dict[str, Any]) -> list[tuple[str, bool]]:
    pieces = [_piece("tool", tool) for tool in body.get("tools") or []]
    system = body.get("system")
    if isinstance(system, str):
        pieces.append((f"system:{system}", False))
    elif isinstance(system, list):
        pieces.extend(_piece("system", block) for block in system)
    for message in body.get("messages") or []:
        role = message.get("role", "")
        content = message.get("content")
        if isinstance(content, list):
            pieces.extend(_piece(role, block) for block in content)
        else:
            pieces.append((f"{role}:{content}", False))
    return pieces


def _piece(tag: str, block: Any) -> tuple[str, bool]:
    if not isinstance(block, dict):
        return f"{tag}:{block}", False
    # Moving a breakpoint must not change the content it covers.
    content = {key: value for key, value in block.items() if key != "cache_control"}
    encoded = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return f"{tag}:{encoded}", block.get("cache_control") is not None


def _key(model: str, prefix: str) -> str:
    return hashlib.sha256(f"{model}\n{prefix}".encode()).hexdigest()
