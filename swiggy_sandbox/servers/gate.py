"""ASGI gate in front of the MCP endpoints: bearer auth (401/419) and rate limits (429).

Wire behaviour (mirrors the Swiggy docs: docs/reference/errors, docs/operate/rate-limits):
- No token, an unknown or an expired token: HTTP 401 with `WWW-Authenticate: Bearer ...,
  resource_metadata=` pointing where the app says (Swiggy, and so the sandbox, point at the
  root protected-resource URL, which is not JSON); a revoked token: HTTP 419. Both bodies are
  JSON-RPC errors with code -32001 (Swiggy's "unauthenticated/expired session" code), so MCP
  clients surface a readable message.
- Too many calls: HTTP 429 with `Retry-After` (seconds). Swiggy's planned contract puts the
  standard `success: false` envelope in the body; we send a JSON-RPC error (code -32000) whose
  message says when to retry and whose `data` carries that envelope, so both raw HTTP callers
  and MCP clients see it. Every counted request gets `X-RateLimit-Limit/Remaining/Reset`.
- Why a gate and not MCPServer's `token_verifier`: its RequireAuthMiddleware can only answer
  401/403 (no 419 for revoked sessions) and never sees which tool a request calls.
- Counting: each JSON-RPC request in a POST counts once (initialize, tools/list, tools/call...);
  `tools/call` of a state-changing tool also counts as a write. Notifications, the GET event
  stream and DELETE are not counted.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from swiggy_sandbox.servers.auth import TokenState, TokenStore
from swiggy_sandbox.servers.envelope import USER_SCOPE_KEY, fail
from swiggy_sandbox.servers.ratelimit import RateLimiter, Verdict

UNAUTHENTICATED_CODE = -32001
RATE_LIMITED_CODE = -32000
SESSION_REVOKED_STATUS = 419


class McpGate:
    """Authenticates and rate-limits requests to the MCP endpoint paths; passes others through."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        store: TokenStore,
        limiter: RateLimiter,
        endpoints: Mapping[str, str],
        write_tools: Mapping[str, frozenset[str]],
        metadata_url: Mapping[str, str],
    ) -> None:
        self.app = app
        self.store = store
        self.limiter = limiter
        self.endpoints = endpoints  # path → server key
        self.write_tools = write_tools
        self.metadata_url = metadata_url  # path → protected-resource metadata URL

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "").rstrip("/") if scope["type"] == "http" else ""
        key = self.endpoints.get(path)
        if key is None:
            await self.app(scope, receive, send)
            return
        body = await _read_body(receive) if scope["method"] == "POST" else b""
        ids, requests, writes = _count(body, self.write_tools[key])
        token = _bearer(scope)
        state = self.store.state(token) if token else TokenState.UNKNOWN
        user = self.store.user_for(token) if token else None
        if state is not TokenState.VALID or user is None:
            await self._deny_auth(send, path, state, bool(token), ids)
            return
        verdict = (
            self.limiter.check(user, key, requests=requests, writes=writes) if requests else None
        )
        if verdict is not None and not verdict.allowed:
            await _send_json(
                send,
                429,
                _rpc_error(
                    ids,
                    RATE_LIMITED_CODE,
                    verdict.reason,
                    {**json.loads(fail(verdict.reason)), "retryAfter": verdict.retry_after},
                ),
                [("retry-after", str(verdict.retry_after)), *_limit_headers(verdict)],
            )
            return
        inner = {**scope, USER_SCOPE_KEY: user}
        await self.app(inner, _replay(body, receive), _with_headers(send, verdict))

    async def _deny_auth(
        self, send: Send, path: str, state: TokenState, had_token: bool, ids: list[Any]
    ) -> None:
        revoked = state is TokenState.REVOKED
        if revoked:
            status, error, text = SESSION_REVOKED_STATUS, "invalid_token", "Session revoked (419)"
        elif had_token:
            status, error, text = 401, "invalid_token", "Invalid or expired token (401)"
        else:
            status, error, text = 401, "", "Authentication required (401): send a bearer token"
        challenge = 'Bearer realm="swiggy-sandbox"'
        if error:
            challenge += f', error="{error}", error_description="{text}"'
        challenge += f', resource_metadata="{self.metadata_url[path]}"'
        body = _rpc_error(ids, UNAUTHENTICATED_CODE, f"{text}; sign in to Swiggy again.", None)
        await _send_json(send, status, body, [("www-authenticate", challenge)])


def _bearer(scope: Scope) -> str:
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            return token.strip() if scheme.lower() == "bearer" else ""
    return ""


async def _read_body(receive: Receive) -> bytes:
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            break
    return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A receive that hands the already-read body to the app once, then defers to the client."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


def _count(body: bytes, write_tools: frozenset[str]) -> tuple[list[Any], int, int]:
    """JSON-RPC request ids, how many requests, how many are writes."""
    try:
        parsed = json.loads(body) if body else []
    except ValueError:
        return [], 1, 0  # malformed bodies still cost a request
    messages = parsed if isinstance(parsed, list) else [parsed]
    calls = [m for m in messages if isinstance(m, dict) and "method" in m and "id" in m]
    writes = sum(
        1
        for m in calls
        if m["method"] == "tools/call"
        and isinstance(m.get("params"), dict)
        and m["params"].get("name") in write_tools
    )
    return [m["id"] for m in calls], len(calls), writes


def _rpc_error(ids: list[Any], code: int, message: str, data: Any) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": ids[0] if len(ids) == 1 else None, "error": error}


def _limit_headers(verdict: Verdict) -> list[tuple[str, str]]:
    return [
        ("x-ratelimit-limit", str(verdict.limit)),
        ("x-ratelimit-remaining", str(verdict.remaining)),
        ("x-ratelimit-reset", str(verdict.reset_at)),
    ]


def _with_headers(send: Send, verdict: Verdict | None) -> Send:
    if verdict is None:
        return send

    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            extra = [(k.encode(), v.encode()) for k, v in _limit_headers(verdict)]
            message = {**message, "headers": [*message.get("headers", []), *extra]}
        await send(message)

    return wrapped


async def _send_json(
    send: Send, status: int, payload: dict[str, Any], headers: list[tuple[str, str]]
) -> None:
    body = json.dumps(payload).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    raw += [(k.encode(), v.encode()) for k, v in headers]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})
