"""A small error hierarchy; every error carries a stable code and a message for people.

Codes: E-1xxx input, E-2xxx model API, E-3xxx MCP tool, E-4xxx internal, E-5xxx auth.
Only `swiggy_ui` turns these into banners; messages never contain credentials.
"""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """Stable codes shown to people and used by tests."""

    # E-1xxx: input and configuration
    SETTING_INVALID = "E-1001"
    UNKNOWN_VERTICAL = "E-1002"
    EMPTY_MESSAGE = "E-1003"
    MESSAGE_TOO_LONG = "E-1004"
    BASE_URL_NEEDS_KEY = "E-1005"
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
    APPROVAL_SETTLED = "E-1110"  # a confirm cut off by a crash, settled by reading orders
    NOTHING_TO_REDO = "E-1111"  # edit or regenerate with no answered typed message to redo
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
    """Base class: a code plus a short, actionable message."""

    code: ErrorCode = ErrorCode.INTERNAL

    def __init__(self, message: str, *, code: ErrorCode | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    def __str__(self) -> str:
        return f"[{self.code}] {self.message}"


class SettingsError(SwiggyAssistantError):
    """A setting is missing or malformed; the message names the setting."""

    code = ErrorCode.SETTING_INVALID


class InputError(SwiggyAssistantError):
    """What the person typed cannot be sent as it is (too long, nothing but markup)."""

    code = ErrorCode.EMPTY_MESSAGE
    # The words as typed, so the page can keep them on screen.
    kept_text: str | None = None


class UnknownVerticalError(SwiggyAssistantError, KeyError):
    """A vertical id that is not one of VERTICAL_IDS."""

    code = ErrorCode.UNKNOWN_VERTICAL

    def __str__(self) -> str:  # KeyError would otherwise quote the message
        return SwiggyAssistantError.__str__(self)
