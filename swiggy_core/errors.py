"""Every error a person may see: its code, its range, its class, its default message.

One hierarchy: `SwiggyAssistantError` carries a stable code and a message for the person;
each range of codes (`CODE_RANGES`) is raised as one subclass, and a class defined near
its raiser (`StoreError`, `McpCallError`, ...) derives from the class of its range.
Codes: E-10xx input and settings, E-11xx approvals and turns, E-2xxx the model API, E-3xxx
MCP tools and servers, E-40xx internal, E-41xx storage, E-50xx and E-51xx sign-in.
Only `swiggy_ui` turns these into banners; messages never contain credentials.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum, unique
from typing import Final

from swiggy_core.logsafe import redact


@unique
class ErrorCode(StrEnum):
    """Stable codes shown to people and used by tests."""

    # E-1xxx: input and configuration
    SETTING_INVALID = "E-1001"
    UNKNOWN_VERTICAL = "E-1002"
    EMPTY_MESSAGE = "E-1003"
    MESSAGE_TOO_LONG = "E-1004"
    BASE_URL_NEEDS_KEY = "E-1005"
    TOOL_FORM_INVALID = "E-1020"  # a tool bench form value that does not fit the tool's schema
    DIET_PROFILE_INVALID = "E-1021"  # a diet profile outside its limits (nothing is saved)
    LIST_TOO_LONG = "E-1031"  # a shopping list (typed or a file) over its line or byte limit
    LIST_UNREADABLE = "E-1032"  # a list file that is not text
    PHOTO_UNREADABLE = "E-1033"  # a photo that is not an image, or too big to send
    LIST_UNMATCHED = "E-1034"  # lines of a shopping list with nothing in stock to match
    IMPORT_TOO_LARGE = "E-1061"  # a chat file over the size or message limit (nothing kept)
    IMPORT_INVALID = "E-1062"  # a chat file that is not an exported chat (nothing kept)
    IMPORT_UNKNOWN_SHOP = "E-1063"  # a chat file from a shop this app does not have
    # E-11xx: approvals (the person's confirmation of a spending action)
    APPROVAL_NOT_PENDING = "E-1101"
    APPROVAL_EXPIRED = "E-1102"
    APPROVAL_CHANGED = "E-1103"
    APPROVAL_INVALID = "E-1104"
    TURN_BUSY = "E-1105"
    APPROVAL_UNKNOWN = "E-1106"
    SPENDING_LIMIT = "E-1107"  # above the person's per-order or per-day limit
    TURN_ELSEWHERE = "E-1108"  # a reply in this chat is running in another window/replica
    TURN_INTERRUPTED = "E-1109"  # the process answering this chat died mid-reply
    NOTHING_TO_REDO = "E-1111"  # edit or regenerate with no answered typed message to redo
    PAYMENT_NOT_MADE = "E-1112"  # a UPI order not paid (failed or timed out): nothing ordered
    # E-2xxx: the model API
    API_BAD_REQUEST = "E-2000"
    API_RATE_LIMIT = "E-2001"
    API_SERVER = "E-2002"
    API_OVERLOADED = "E-2003"
    API_NETWORK = "E-2004"
    API_TIMEOUT = "E-2005"
    API_STREAM = "E-2006"
    API_UNKNOWN = "E-2099"
    # E-3xxx: MCP tools
    TOOL_AUTH = "E-3001"
    TOOL_ADDRESS = "E-3002"
    TOOL_SERVER = "E-3003"
    TOOL_VALIDATION = "E-3004"
    # E-31xx: Swiggy's documented error catalogue (HTTP status / JSON-RPC code / message)
    TOOL_SESSION_REVOKED = "E-3101"  # 419: full sign-in again
    TOOL_FORBIDDEN = "E-3102"  # 403: scope too narrow
    TOOL_RATE_LIMITED = "E-3103"  # 429 with Retry-After
    TOOL_UPSTREAM = "E-3104"  # 502/503/504, upstream timeout
    TOOL_INTERNAL = "E-3105"  # 500 / -32603: retry once, then report_error
    TOOL_NOT_FOUND = "E-3106"  # 404 / -32601 unknown tool
    TOOL_DOMAIN = "E-3107"  # 200 with success:false (out of stock, slot gone, closed)
    # E-32xx: the MCP manager (configured servers over stdio, SSE, Streamable HTTP)
    SERVER_CONFIG = "E-3201"  # mcp_servers.toml / .json entry malformed (line named)
    SERVER_UNREACHABLE = "E-3202"  # URL refused / command not found / process exited at start
    SERVER_TIMEOUT = "E-3203"  # no answer within the call or connect timeout
    SERVER_GARBAGE = "E-3204"  # not MCP: junk on stdout, HTML, broken JSON-RPC
    SERVER_DIED = "E-3205"  # the transport or process died during a call
    SERVER_DISABLED = "E-3206"  # the server is switched off in the config
    HOOK_DENIED = "E-3207"  # a pre-tool hook refused the call (reason shown to the model)
    RATE_BUDGET = "E-3208"  # our own per-user, per-server call/write budget is used up
    SERVER_HOST_REFUSED = "E-3209"  # a person's server on loopback/private/link-local/metadata
    BENCH_REFUSED = "E-3220"  # a spending (or confirm-first) tool asked of the tool bench
    # E-4xxx: internal
    INTERNAL = "E-4001"
    STORE_FAILED = "E-4101"
    STORE_READ_ONLY = "E-4102"
    STORE_BUSY = "E-4103"
    STORE_MISSING = "E-4104"
    STORE_UNREACHABLE = "E-4105"  # the database server cannot be reached (down, wrong host)
    STORE_TEMPORARY = "E-4106"  # working directory not writable: a temporary database is used
    # E-5xxx: authentication
    API_AUTH = "E-5001"
    SWIGGY_SESSION_EXPIRED = "E-5002"
    # E-51xx: "Sign in with Swiggy" (OAuth 2.1)
    OAUTH_DISCOVERY = "E-5101"  # metadata unreachable, not JSON (HTML), incomplete
    OAUTH_ISSUER_MISMATCH = "E-5102"  # issuer differs from the one pinned for the host
    OAUTH_REGISTRATION = "E-5103"  # dynamic client registration failed
    OAUTH_STATE_MISMATCH = "E-5104"  # callback state unknown or for another user
    OAUTH_PENDING_EXPIRED = "E-5105"  # pending authorisation older than 10 minutes
    OAUTH_PENDING_USED = "E-5106"  # callback replayed: the authorisation was already used
    OAUTH_DENIED = "E-5107"  # the person (or Swiggy) refused consent
    OAUTH_NOT_ALLOWLISTED = "E-5108"  # Swiggy's sign-in page refused this app
    OAUTH_TOKEN_ENDPOINT = "E-5109"  # the token endpoint answered an error
    OAUTH_REDIRECT_NOT_ALLOWED = "E-5110"  # the app is not on a loopback address Swiggy allows
    OAUTH_TOKEN_VAULT = "E-5111"  # remembered token: no key configured or cannot decrypt


class SwiggyAssistantError(Exception):
    """Root of the hierarchy: a code plus a short, actionable message.

    Raised as itself only for internal faults (E-40xx); every other range has a subclass.
    """

    code: ErrorCode = ErrorCode.INTERNAL

    def __init__(self, message: str, *, code: ErrorCode | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    def __str__(self) -> str:
        return f"[{self.code}] {self.message}"


class UsageError(SwiggyAssistantError):
    """E-10xx: a setting, an id or what the person typed cannot be used as it is."""

    code = ErrorCode.SETTING_INVALID


class SettingsError(UsageError):
    """A setting is missing or malformed; the message names the setting."""

    code = ErrorCode.SETTING_INVALID


class InputError(UsageError):
    """What the person typed cannot be sent as it is (too long, nothing but markup)."""

    code = ErrorCode.EMPTY_MESSAGE
    # The words as typed, so the page can keep them on screen.
    kept_text: str | None = None


class UnknownVerticalError(UsageError, KeyError):
    """A vertical id that no entry of the catalog (verticals.VERTICALS) has."""

    code = ErrorCode.UNKNOWN_VERTICAL

    def __str__(self) -> str:  # KeyError would otherwise quote the message
        return SwiggyAssistantError.__str__(self)


class ActionRefused(SwiggyAssistantError):
    """E-11xx: what the person asked for cannot happen now: a confirmation that no longer
    applies, a reply already running, a spending limit, nothing to redo."""

    code = ErrorCode.APPROVAL_NOT_PENDING


class McpServerError(SwiggyAssistantError):
    """E-3xxx: an MCP server or tool call failed, or a server cannot be used as configured."""

    code = ErrorCode.TOOL_SERVER


class StorageError(SwiggyAssistantError):
    """E-41xx: the chat database or the shared state failed; the message names no secret."""

    code = ErrorCode.STORE_FAILED


class OAuthError(SwiggyAssistantError):
    """E-51xx: Sign in with Swiggy failed; `code` says where. Never carries a secret."""

    code = ErrorCode.OAUTH_DISCOVERY

    def __init__(self, message: str, *, code: ErrorCode) -> None:
        super().__init__(redact(message), code=code)


class PendingSignInsUnreachable(OAuthError, StorageError):
    """A sign-in stopped because the shared state keeping pending sign-ins did not answer:
    the sign-in flow handles it, and its code is the storage one (E-4101)."""

    code = ErrorCode.STORE_FAILED

    def __init__(self, message: str) -> None:
        super().__init__(message, code=ErrorCode.STORE_FAILED)


@dataclass(frozen=True, slots=True)
class CodeRange:
    """What a range of codes covers and the class its errors are raised as."""

    area: str
    # None: these codes only reach people as a banner (ErrorInfo), never as an exception.
    raised_as: type[SwiggyAssistantError] | None


# Every range, by the first four characters of its codes.
CODE_RANGES: Final[dict[str, CodeRange]] = {
    "E-10": CodeRange("input and settings", UsageError),
    "E-11": CodeRange("approvals, turns and limits", ActionRefused),
    "E-20": CodeRange("the Anthropic API", None),
    "E-30": CodeRange("MCP tools", McpServerError),
    "E-31": CodeRange("Swiggy's documented error catalogue", McpServerError),
    "E-32": CodeRange("the MCP manager", McpServerError),
    "E-40": CodeRange("internal", SwiggyAssistantError),
    "E-41": CodeRange("the chat database and the shared state", StorageError),
    "E-50": CodeRange("authentication", None),
    "E-51": CodeRange("Sign in with Swiggy (OAuth 2.1)", OAuthError),
}


def code_range(code: ErrorCode) -> CodeRange:
    """The range `code` belongs to."""
    return CODE_RANGES[code.value[:4]]


def rate_limited_message(who: str) -> str:
    """What the person reads when `who` ("Swiggy", "The server 'notes'") answered 429."""
    return f"{who} is limiting requests right now (429)."


_KEPT: Final = " Your message is kept on this page."
# The message of each code that has one fixed message (the others are worded where raised).
DEFAULT_MESSAGES: Final[dict[ErrorCode, str]] = {
    ErrorCode.API_AUTH: "The Anthropic API key was rejected. Check it on Connections.",
    ErrorCode.SWIGGY_SESSION_EXPIRED: "Your Swiggy session has expired or lacks permission. "
    "Reconnect Swiggy.",
    ErrorCode.API_RATE_LIMIT: "Too many requests right now.",
    ErrorCode.API_SERVER: "The AI service had an internal error.",
    ErrorCode.API_OVERLOADED: "The AI service is overloaded right now.",
    ErrorCode.API_NETWORK: "Could not reach the AI service. Check your connection.",
    ErrorCode.API_TIMEOUT: "The reply took too long and was stopped.",
    ErrorCode.API_BAD_REQUEST: "The AI service rejected the request.",
    ErrorCode.API_STREAM: "The reply stream broke off.",
    ErrorCode.API_UNKNOWN: "Something went wrong talking to the AI service.",
    ErrorCode.TOOL_AUTH: "Your Swiggy session has expired. "
    "Please click Reconnect to sign in again.",
    ErrorCode.TOOL_SESSION_REVOKED: "Swiggy revoked your session (419). "
    "Reconnect and sign in again with your phone and OTP.",
    ErrorCode.TOOL_FORBIDDEN: "Swiggy says your sign-in does not allow this (403). "
    "Reconnect to grant access again.",
    ErrorCode.TOOL_RATE_LIMITED: rate_limited_message("Swiggy"),
    ErrorCode.TOOL_ADDRESS: "Your saved location seems invalid for Swiggy right now. "
    "Pick another address.",
    ErrorCode.TOOL_UPSTREAM: "The Swiggy service is temporarily unavailable. "
    "Please try again in a minute.",
    ErrorCode.TOOL_INTERNAL: "Swiggy had an internal error. "
    "You can report it to Swiggy if it happens again.",
    ErrorCode.TOOL_NOT_FOUND: "Swiggy does not offer that here (not found).",
    ErrorCode.TOOL_DOMAIN: "Swiggy could not do that.",
    ErrorCode.TOOL_VALIDATION: "I hit repeated errors from the Swiggy service "
    "and stopped retrying.",
    ErrorCode.STORE_READ_ONLY: "The chat database is read-only, so nothing new can be saved."
    + _KEPT,
    ErrorCode.STORE_BUSY: "The chat database is busy with another request. "
    "Wait a moment and try again." + _KEPT,
    ErrorCode.STORE_MISSING: "The chat database is missing or cannot be opened "
    "(it may have been moved or deleted). "
    "Check the database setting and restart the app." + _KEPT,
    ErrorCode.STORE_UNREACHABLE: "The chat database server cannot be reached "
    "(it may be down, or the database setting may name the wrong host or port). "
    "Try again in a moment; if it keeps happening, check the setting and the server." + _KEPT,
    ErrorCode.STORE_FAILED: "The chat database could not complete this request. Try again;"
    " if it keeps happening, restart the app." + _KEPT,
}
