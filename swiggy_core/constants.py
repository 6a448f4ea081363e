"""Canonical constants: every other module imports these, none redefines them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta, timezone
from typing import Final


@dataclass(frozen=True, slots=True)
class McpServerSpec:
    """One Swiggy MCP server as the connector and the local engine know it."""

    key: str
    name: str
    url: str
    path: str


SWIGGY_MCP_BASE_URL: Final = "https://mcp.swiggy.com"

MCP_SERVERS: Final[dict[str, McpServerSpec]] = {
    "instamart": McpServerSpec("instamart", "swiggy-instamart", f"{SWIGGY_MCP_BASE_URL}/im", "/im"),
    "food": McpServerSpec("food", "swiggy-food", f"{SWIGGY_MCP_BASE_URL}/food", "/food"),
    "dineout": McpServerSpec(
        "dineout", "swiggy-dineout", f"{SWIGGY_MCP_BASE_URL}/dineout", "/dineout"
    ),
}

# Model request defaults.
DEFAULT_MODEL: Final = "claude-haiku-4-5"
KNOWN_MODELS: Final = (
    "claude-haiku-4-5",
    "claude-haiku-5-5",
    "claude-sonnet-5-5",
    "claude-opus-5-5",
)
DEFAULT_ANTHROPIC_BASE_URL: Final = "https://api.anthropic.com"
MAX_TOKENS: Final = 800
BETA_MCP_CLIENT: Final = "mcp-client-2025-11-20"
BETA_PROMPT_CACHING: Final = "prompt-caching-2024-07-31"
BETA_CONTEXT_MANAGEMENT: Final = "context-management-2025-06-27"
# Without it a `ttl: "1h"` breakpoint is refused (or, by other accounts, kept 5 minutes).
BETA_EXTENDED_CACHE_TTL: Final = "extended-cache-ttl-2025-04-11"
BETAS: Final = (
    BETA_MCP_CLIENT,
    BETA_PROMPT_CACHING,
    BETA_CONTEXT_MANAGEMENT,
    BETA_EXTENDED_CACHE_TTL,
)
CACHE_CONTROL_EPHEMERAL: Final = {"type": "ephemeral"}
MAX_CONTEXT_MESSAGES: Final = 40

# Context management: clear old tool uses once the prompt grows large. An edit rewrites the
# prompt on every request it applies to (a prompt-cache miss each turn), so it triggers above
# the size the capped message window usually reaches: a safety net for outsized results.
CONTEXT_EDIT_TYPE: Final = "clear_tool_uses_20250919"
CONTEXT_TRIGGER_INPUT_TOKENS: Final = 50_000
CONTEXT_KEEP_TOOL_USES: Final = 5
CONTEXT_CLEAR_AT_LEAST_TOKENS: Final = 2_000

# Streaming and tool-error limits.
STREAM_TIMEOUT_SECONDS: Final = 90.0
CONNECT_TIMEOUT_SECONDS: Final = 10.0
MCP_TOOL_ERROR_LIMIT: Final = 2
MCP_AUTH_ERROR_LIMIT: Final = 1
# A paused turn (stop_reason pause_turn) is sent back at most this many times.
MAX_PAUSE_CONTINUATIONS: Final = 3

# Retry policy for the Messages API (the SDK's own retries are switched off).
RETRYABLE_STATUSES: Final = frozenset({429, 500, 502, 503, 504, 529})
MAX_RETRIES: Final = 2
RETRY_BASE_DELAY_SECONDS: Final = 0.5
RETRY_MULTIPLIER: Final = 2.0
RETRY_JITTER_RATIO: Final = 0.2
RETRY_MAX_DELAY_SECONDS: Final = 5.0
RATE_LIMIT_HEADER_PREFIX: Final = "anthropic-ratelimit-"

# Old tool results in history are cut to this many characters (JSON kept valid).
TOOL_RESULT_TRUNCATE_CHARS: Final = 4_000
# Tool-heavy turns older than this many messages from the end are compacted.
COMPACT_AFTER_MESSAGES: Final = 8

# Swiggy session facts.
SWIGGY_TOKEN_TTL_SECONDS: Final = 432_000
SWIGGY_TOKEN_STALE_DAYS: Final = 4

# Local storage.
DEFAULT_DATABASE_URL: Final = "sqlite:///swiggy_assistant.db"

# Session-summary field names, in the order they are written.
SUMMARY_FIELDS: Final = ("slots", "intent", "confirm", "datetime", "restaurant", "location")

# Tool-result parsing: bounds that keep hostile or huge payloads fast (never a hang).
PARSER_MAX_INPUT_CHARS: Final = 4_000_000
PARSER_MAX_DEPTH: Final = 14
PARSER_MAX_NODES: Final = 20_000
PARSER_MAX_ITEMS: Final = 60
PARSER_MAX_TEXT_CHARS: Final = 300
PARSER_MAX_RAW_CHARS: Final = 4_000
SWIGGY_IMAGE_BASE_URL: Final = (
    "https://media-assets.swiggy.com/swiggy/image/upload/fl_lossy,f_auto,q_auto,w_264,h_288,c_fill/"
)
# Swiggy serves India: epoch times become IST dates and clock times.
SWIGGY_UTC_OFFSET_MINUTES: Final = 330
SWIGGY_TZ_LABEL: Final = "IST"
SWIGGY_TZ: Final = timezone(timedelta(minutes=SWIGGY_UTC_OFFSET_MINUTES), SWIGGY_TZ_LABEL)
PAISE_PER_RUPEE: Final = 100
# No single line, price or bill on Swiggy comes near ₹10,00,000: a larger amount is a fault
# in the data, shown as unknown rather than as a number.
MAX_RUPEES: Final = 1_000_000

# The compact session-state summary sent each turn stays under this many characters.
SESSION_SUMMARY_MAX_CHARS: Final = 400
# Opens the session summary in the per-turn context; the offline planner finds it by it.
SESSION_SUMMARY_PREFIX: Final = (
    "Session state (derived by the app from this conversation; when it disagrees with "
    "the latest tool result, trust the tool result):\n"
)

# The client tool through which the model asks the person to approve a spending action.
APPROVAL_TOOL_NAME: Final = "request_confirmation"
# A pending approval lives this long; any newer cart change ends it sooner.
APPROVAL_TTL_SECONDS: Final = 600
# A typed message longer than this is refused with a coded message, not sent.
MAX_MESSAGE_CHARS: Final = 8_000

# Sign in with Swiggy (OAuth 2.1 + PKCE).
# Swiggy serves its authorization-server metadata at the host root while naming the issuer
# `…/auth`; the expected issuer is pinned per host instead of dropping the issuer check.
OAUTH_PINNED_ISSUERS: Final = {SWIGGY_MCP_BASE_URL: f"{SWIGGY_MCP_BASE_URL}/auth"}
# Loopback (sandbox) hosts follow the same layout: their pinned issuer is `{origin}` + this.
OAUTH_LOOPBACK_ISSUER_PATH: Final = "/auth"
# Loopback meaning 1, sign-in: the hosts Swiggy accepts in a loopback redirect URI (and the
# only plain-http OAuth endpoints); Swiggy's allow-list names these two, not ::1.
OAUTH_LOOPBACK_HOSTS: Final = ("localhost", "127.0.0.1")
# Loopback meaning 2, trust: this machine's names; plain http is accepted only for these
# (127.0.0.0/8 counts too).
LOOPBACK_HOSTS: Final = frozenset({"127.0.0.1", "localhost", "::1"})
# Loopback meaning 3, listening: the address the sandbox's own servers (MCP servers, API
# emulator, shop) bind to and put in the URLs they hand out.
LOOPBACK_BIND_ADDRESS: Final = "127.0.0.1"
OAUTH_SCOPE: Final = "mcp:tools"
OAUTH_SCOPES_SUPPORTED: Final = ("mcp:tools", "mcp:resources", "mcp:prompts")
OAUTH_PENDING_TTL_SECONDS: Final = 600
# Used or expired pending authorisations are remembered this long, so a replay is told apart.
OAUTH_PENDING_MEMORY_SECONDS: Final = 86_400
# A sign-in that expires within this is shown with a warning (tokens last five days).
OAUTH_EXPIRY_WARNING: Final = timedelta(days=1)
OAUTH_CALLBACK_PATH: Final = "/callback"
OAUTH_CLIENT_NAME: Final = "Swiggy MCP Assistant"
# Swiggy's dynamic registration hands every app this one public client id.
OAUTH_SHARED_CLIENT_ID: Final = "swiggy-mcp"
OAUTH_HTTP_TIMEOUT_SECONDS: Final = 10.0
# Metadata and registration answers larger than this are not read.
OAUTH_MAX_DOCUMENT_BYTES: Final = 256_000
# Authorization codes are single use and live this long (Swiggy: 120 s).
OAUTH_CODE_TTL_SECONDS: Final = 120

# Shared state across app replicas (Redis when REDIS_URL is set, else this process's memory).
REDIS_URL_ENV: Final = "REDIS_URL"
SHARED_STATE_KEY_PREFIX: Final = "swiggy:"
REDIS_SOCKET_TIMEOUT_SECONDS: Final = 3.0
# Our own budget, per person and server, under Swiggy's planned limits.
RATE_CALLS_PER_MINUTE: Final = 120
RATE_WRITES_PER_MINUTE: Final = 30
RATE_WINDOW_SECONDS: Final = 60.0
# Server health: one probe per server at most this often (Swiggy asks for 10 s), shared by
# every replica; a status older than the TTL is dropped as stale.
HEALTH_MIN_INTERVAL_SECONDS: Final = 10.0
HEALTH_STATUS_TTL_SECONDS: Final = 3_600.0
# Refresh while another thread or replica is probing a server waits this long for its answer.
HEALTH_REFRESH_WAIT_SECONDS: Final = 30.0
# The background health poller runs unless this is "off" (tests: no probe leaves the machine).
HEALTH_POLL_ENV: Final = "SWIGGY_HEALTH_POLL"
# A placed order's tracking: read again at the server's interval, never more often than every
# 10 s (Swiggy's rule for track_*); this when the server names no interval.
TRACK_MIN_INTERVAL_SECONDS: Final = 10.0
TRACK_DEFAULT_INTERVAL_SECONDS: Final = 30.0

# MCP server configuration (`mcp_servers.toml`; JSON accepted).
MCP_CONFIG_FILENAME: Final = "mcp_servers.toml"
MCP_CONFIG_ENV: Final = "SWIGGY_MCP_CONFIG"
# Servers a person adds from the UI: stored per user and world, at most this many each.
USER_SERVERS_PREFERENCE: Final = "mcp_servers"
USER_SERVERS_MAX: Final = 20
# A person may add a stdio server (a command run on the host) only when this is true.
ALLOW_USER_STDIO_ENV: Final = "SWIGGY_ALLOW_USER_STDIO"

# Tool results longer than this are reduced by importance before the model sees them
# (ids, names, prices and availability stay; the cards always get the full result).
LARGE_RESULT_CHARS: Final = 5_000

# Prompt caching (documented limits): at most four cache_control breakpoints per request;
# the cache entry for a prefix lives five minutes, refreshed whenever it is read; a hit is
# also found at block boundaries up to this many blocks before a breakpoint.
CACHE_MAX_BREAKPOINTS: Final = 4
CACHE_TTL_SECONDS: Final = 300.0
CACHE_LOOKBACK_BLOCKS: Final = 20
# The lifetimes the app's breakpoints ask for (see cache_points.POLICY_TTLS): "5m" for all,
# "1h" for all, or "1h-prefix" (tools and system for an hour, the conversation for five
# minutes). 5-minute writes bill 1.25× input, 1-hour ones 2×; reads are 0.1× either way and
# refresh the entry. "1h-prefix" because it saved the most in bench/tokens.py over a minute-
# apart chat and one with a person's pauses, 12 and 100 turns each: 90.2 % of the naive
# client's billed input, against 90.0 % for "5m" and 87.2 % for "1h". An hour-long entry
# pays for itself where it is written rarely and read after pauses of 5 to 60 minutes (the
# tools and system prompt); the conversation grows every turn, so its writes stay cheap.
CACHE_POLICY: Final = "1h-prefix"
# A prefix shorter than its model's minimum is never cached (tokens; documented per model).
CACHE_MIN_TOKENS_BY_MODEL: Final = {
    "claude-haiku-4-5": 4_096,
    "claude-haiku-5-5": 4_096,
    "claude-sonnet-5-5": 1_024,
    "claude-opus-5-5": 1_024,
}
CACHE_MIN_TOKENS_DEFAULT: Final = 4_096
# Prompt sizes are estimated at about four characters of JSON a token (as the emulator counts).
CHARS_PER_TOKEN_ESTIMATE: Final = 4
# The message window opens at a multiple of this many messages, so it moves (and the cached
# history is written again) once per this many messages instead of every turn. Each move
# writes the whole window again: moving by 24 within 40 (16 to 40 messages sent) costs a
# 100-turn chat a quarter less than by 8 within 24 (16 to 24), and never sends fewer.
CACHE_WINDOW_STEP_MESSAGES: Final = 24
# The tool results in the window's oldest messages are truncated when it moves, once: as
# many as before the window grew, so the model sees every later result in full.
CACHE_WINDOW_TRUNCATED_MESSAGES: Final = 8
# The clock and session summary ride in the newest user message, after its cached part,
# in one text block opening with this line (the offline planner finds them by it).
TURN_CONTEXT_HEADER: Final = "[Context from the app for this turn; not written by the person]"

# The page name the audit gives calls made from Connections (not a shop page).
CONNECTIONS_AUDIT_PAGE: Final = "connections"

# A person's own MCP servers may not live on loopback, private, link-local, CGNAT,
# multicast or metadata addresses unless the operator sets this to true (checked when the
# server is added and again on the address actually dialled).
ALLOW_PRIVATE_SERVERS_ENV: Final = "SWIGGY_ALLOW_PRIVATE_SERVERS"
# The offline demo's shop (carts, orders, bookings) lives in the app's database, in tables
# with this prefix, so every replica serves one shop.
SANDBOX_TABLE_PREFIX: Final = "sandbox_"
# A running reply holds its chat's lease in the database and renews it this often; a lease
# not renewed for the TTL belongs to a process that died (its reply shows as interrupted).
TURN_LEASE_TTL_SECONDS: Final = 30.0
TURN_LEASE_HEARTBEAT_SECONDS: Final = 5.0
TURN_LEASE_TTL_ENV: Final = "SWIGGY_TURN_LEASE_SECONDS"
# Where a person sees their Swiggy orders (an outcome nobody could read is checked there).
SWIGGY_ORDERS_URL: Final = "https://www.swiggy.com/my-account/orders"

# What the grocery shops' chat input takes as an attachment: a list file or a photo (the
# photo is resized before it is sent), and how large a file it takes in.
LIST_FILE_TYPES: Final = ("txt", "csv")
PHOTO_FILE_TYPES: Final = ("jpg", "jpeg", "png", "gif", "webp")
MAX_UPLOAD_BYTES: Final = 15_000_000
