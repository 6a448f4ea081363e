"""Stable hashing helpers shared by the generators (Python's hash() is salted per process)."""

from __future__ import annotations

import hashlib


def hash_int(text: str) -> int:
    """Stable integer from text."""
    return int(hashlib.sha1(text.encode()).hexdigest()[:12], 16)


def stable_id(prefix: str, text: str, length: int = 8) -> str:
    """Readable id that stays the same when other seed rows change."""
    return prefix + hashlib.sha1(text.encode()).hexdigest()[:length].upper()
