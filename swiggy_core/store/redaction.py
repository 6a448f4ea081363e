"""Credential scrubbing for anything the store keeps outside the chat itself."""

from __future__ import annotations

import re
from typing import Any

# Keys that name credentials, and values that look like them (bearer tokens, Anthropic keys).
_SECRET_KEYS = re.compile(r"token|key|secret|password|authorization", re.I)
_SECRET_VALUES = re.compile(r"(sk-ant-[\w-]+|Bearer\s+[\w.~+/-]+)")


def redact(value: Any) -> Any:
    """Replace credential-like values anywhere in a JSON-like structure."""
    if isinstance(value, dict):
        return {
            key: "[redacted]" if _SECRET_KEYS.search(str(key)) else redact(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [redact(item) for item in value]
    if isinstance(value, str):
        return _SECRET_VALUES.sub("[redacted]", value)
    return value
