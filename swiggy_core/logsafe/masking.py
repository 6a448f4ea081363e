"""What a secret looks like, and the values registered as secrets: `redact` masks both."""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

MASK = "***"
# Registered values shorter than this are ignored: redacting every "demo" would wreck logs.
MIN_SECRET_LENGTH = 6
# Environment variables (and Streamlit secrets) whose values are secrets.
SECRET_SETTING_NAMES = (
    "ANTHROPIC_API_KEY",
    "SWIGGY_TOKEN",
    "SWIGGY_SANDBOX_TOKEN",
    "SWIGGY_TOKEN_KEY",
)
URL_SETTING_NAMES = ("SWIGGY_DATABASE_URL", "ANTHROPIC_BASE_URL")

# Names whose value is a credential wherever it appears as `name: value` or `name=value`.
_KEY_NAMES = (
    r"authorization_token|authorization|proxy-authorization|x-api-key|api[_-]?key|"
    r"access_token|refresh_token|id_token|client_secret|token|secret|password|passwd"
)
_KEY = rf"(?<![\w-])(?:{_KEY_NAMES})(?![\w-])"
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # `Bearer <token>` (not a WWW-Authenticate challenge's parameters); `Authorization: <scheme> …`.
    (re.compile(r"(?i)\b(bearer\s+)(?![\w-]+=\")[A-Za-z0-9._~+/-]{8,}=*"), rf"\1{MASK}"),
    (
        re.compile(r"(?i)(authorization[\"']?\s*[:=,]\s*b?[\"']?[a-z]+\s+)[^\s\"',;)}\]]+"),
        rf"\1{MASK}",
    ),
    # `"key": "value"`, `'key': 'value'`, `key='value'`, `(b'key', b'value')`, `\"key\": \"v\"`.
    (
        re.compile(rf"(?i)({_KEY}(?:\\?[\"'])?\s*[:=,]\s*b?)(\\?[\"'])(?:(?!\2).)*\2"),
        rf"\1\2{MASK}\2",
    ),
    # Unquoted `key: value` / `key=value` (headers, query strings, kwargs-like text).
    (
        re.compile(
            rf"(?i)({_KEY}\s*[:=]\s*)"
            r"(?![\s\"'*]|bearer\s|basic\s|(?:none|null|true|false)\b)[^\s\"'&,;)}\]]+"
        ),
        rf"\1{MASK}",
    ),
    # Anthropic keys and sandbox tokens, anywhere.
    (re.compile(r"sk-ant-[A-Za-z0-9_-]+"), f"sk-ant-{MASK}"),
    (re.compile(r"(?<![\w-])sbx_[A-Za-z0-9_-]+"), f"sbx_{MASK}"),
    (re.compile(r"sandbox-demo-token"), MASK),
    # user:password@ in any URL.
    (
        re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://[^\s:/@?#]*:)[^\s/?#]+(@)"),
        rf"\1{MASK}\2",
    ),
)

_lock = threading.Lock()
_secrets: set[str] = set()
_secret_pattern: re.Pattern[str] | None = None
_version = 0  # bumped when a secret is registered: records checked before are re-checked


def secrets_version() -> int:
    """Changes whenever a secret is registered (a record checked before needs a new look)."""
    return _version


def redact(text: str) -> str:
    """`text` with every known secret shape and every registered secret masked."""
    pattern = _secret_pattern
    if pattern is not None:
        text = pattern.sub(MASK, text)
    for regex, replacement in _PATTERNS:
        text = regex.sub(replacement, text)
    return text


def mask_url_password(url: str) -> str:
    """`scheme://user:***@host/db`: the password of a URL (user info or query) masked."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return redact(url)
    if password is not None:
        userinfo, _, hostport = parts.netloc.rpartition("@")
        user = userinfo.split(":", 1)[0]
        url = parts._replace(netloc=f"{user}:{MASK}@{hostport}").geturl()
    return re.sub(r"(?i)([?&](?:password|passwd|pwd)=)[^&#]*", rf"\1{MASK}", url)


def register_secret(value: str | None) -> None:
    """Mask this exact string (and a URL's password) in every later log record."""
    global _secret_pattern, _version
    if not value or not isinstance(value, str):
        return
    found = {value}
    if "://" in value:  # a URL: only its password is secret
        try:
            password = urlsplit(value).password
        except ValueError:
            password = None
        found = {password} if password else set()
    found = {item for item in found if len(item) >= MIN_SECRET_LENGTH}
    with _lock:
        if found <= _secrets:
            return
        _secrets.update(found)
        ordered = sorted(_secrets, key=len, reverse=True)
        _secret_pattern = re.compile("|".join(re.escape(item) for item in ordered))
        _version += 1


def register_secrets_from(*sources: Mapping[str, Any] | None) -> None:
    """Register the secret settings found in mappings such as `os.environ`, `st.secrets`."""
    for source in sources:
        if source is None:
            continue
        for name in SECRET_SETTING_NAMES + URL_SETTING_NAMES:
            for key in (name, name.lower()):
                try:
                    value = source.get(key)
                except Exception:  # Streamlit raises when there is no secrets.toml
                    return
                if isinstance(value, str):
                    register_secret(value.strip())
