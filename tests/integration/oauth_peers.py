"""Peers for the Sign in with Swiggy tests: a settable clock, the sign-in page driven over
HTTP, a real MCP client call, and a tiny metadata site that can serve whatever a test needs."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import anyio
import httpx2
from http_thread import served
from mcp_http import initialize_request, mcp_session

CALLBACK = "http://localhost:8501/callback"
INIT = initialize_request("oauth-test")
# One address tool per server (Dineout calls its saved addresses "locations").
ADDRESS_TOOLS = {
    "instamart": "get_addresses",
    "food": "get_addresses",
    "dineout": "get_saved_locations",
}


class Clock:
    """A clock tests move by hand; `epoch()` for the sandbox, `now()` for the sign-in."""

    def __init__(self) -> None:
        self._at = datetime.now(UTC)
        self._lock = threading.Lock()

    def now(self) -> datetime:
        with self._lock:
            return self._at

    def epoch(self) -> float:
        return self.now().timestamp()

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._at += timedelta(seconds=seconds)


def query_of(url: str) -> dict[str, str]:
    """The query parameters of a URL, one value each (what the callback page reads)."""
    return {key: values[0] for key, values in parse_qs(urlsplit(url).query).items()}


def approve_at_once(authorize_url: str) -> dict[str, str]:
    """Open the sign-in URL on an auto-approving sandbox; the callback's parameters."""
    response = httpx2.get(authorize_url)
    assert response.status_code in (302, 303), response.text
    return query_of(response.headers["location"])


@dataclass
class SignInPage:
    """The sandbox sign-in page driven step by step, as a browser would."""

    authorize_url: str

    def __post_init__(self) -> None:
        self.http = httpx2.Client(follow_redirects=False)
        parts = urlsplit(self.authorize_url)
        self.action = f"{parts.scheme}://{parts.netloc}/auth/authorize"
        self.first = self.http.get(self.authorize_url)
        found = re.search(r'name="request_id" value="([^"]+)"', self.first.text)
        self.request_id = found.group(1) if found else ""

    def post(self, **fields: str) -> httpx2.Response:
        return self.http.post(self.action, data={"request_id": self.request_id, **fields})

    def through_otp(self, phone: str = "9812345678") -> httpx2.Response:
        """Phone → read the OTP the sandbox shows → enter it; the consent page."""
        otp_page = self.post(step="phone", phone=phone)
        assert otp_page.status_code == 200, otp_page.text
        otp = re.search(r'id="sandbox-otp">(\d{6})<', otp_page.text)
        assert otp is not None, otp_page.text
        consent = self.post(step="otp", otp=otp.group(1))
        assert consent.status_code == 200 and "Approve" in consent.text, consent.text
        return consent

    def decide(self, step: str) -> dict[str, str]:
        """Approve or deny on the consent page; the callback's parameters."""
        answer = self.post(step=step)
        assert answer.status_code == 303, answer.text
        return query_of(answer.headers["location"])

    def close(self) -> None:
        self.http.close()


def sign_in_by_hand(authorize_url: str, step: str = "approve") -> dict[str, str]:
    page = SignInPage(authorize_url)
    try:
        assert page.first.status_code == 200 and page.request_id, page.first.text
        page.through_otp()
        return page.decide(step)
    finally:
        page.close()


def mcp_status(url: str, access_token: str) -> httpx2.Response:
    """A raw `initialize` with this bearer token (200, 401 or 419)."""
    headers = {
        "accept": "application/json, text/event-stream",
        "authorization": f"Bearer {access_token}",
    }
    return httpx2.post(url, json=INIT, headers=headers)


def call_tool(url: str, access_token: str, tool: str) -> Any:
    """Call `tool` through the real MCP client with this bearer token; the result."""

    async def main() -> Any:
        async with mcp_session(url, access_token) as session:
            return await session.call_tool(tool, {})

    return anyio.run(main)


@dataclass(frozen=True)
class Answer:
    status: int
    body: str
    content_type: str = "application/json"
    headers: tuple[tuple[str, str], ...] = ()


class MetadataSite:
    """A loopback HTTP site answering each path as told; it records what was asked."""

    def __init__(self) -> None:
        self.answers: dict[tuple[str, str], Answer] = {}
        self.requests: list[tuple[str, str]] = []
        site = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                self.rfile.read(length)
                path = urlsplit(self.path).path
                site.requests.append((self.command, path))
                missing = Answer(404, "not found", "text/plain")
                answer = site.answers.get((self.command, path), missing)
                body = answer.body.encode()
                self.send_response(answer.status)
                self.send_header("content-type", answer.content_type)
                self.send_header("content-length", str(len(body)))
                for name, value in answer.headers:
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = _answer

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self._server.server_address[1]}"

    def json(self, path: str, document: dict[str, Any], status: int = 200) -> None:
        self.answers[("GET", path)] = Answer(status, json.dumps(document))

    def html(self, path: str, status: int = 200) -> None:
        self.answers[("GET", path)] = Answer(status, "<!doctype html><p>Swiggy</p>", "text/html")

    def answer(self, method: str, path: str, answer: Answer) -> None:
        self.answers[(method, path)] = answer

    def asked(self, method: str = "GET") -> list[str]:
        return [path for verb, path in self.requests if verb == method]

    def swiggy_metadata(self, issuer: str | None = None, **changes: Any) -> dict[str, Any]:
        """Authorization-server metadata as Swiggy's fields go, for this site."""
        issuer = issuer or f"{self.origin}/auth"
        return {
            "issuer": issuer,
            "authorization_endpoint": f"{self.origin}/auth/authorize",
            "token_endpoint": f"{self.origin}/auth/token",
            "registration_endpoint": f"{self.origin}/auth/register",
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "code_challenge_methods_supported": ["S256"],
            "scopes_supported": ["mcp:tools", "mcp:resources", "mcp:prompts"],
            **changes,
        }


@contextmanager
def metadata_site() -> Iterator[MetadataSite]:
    site = MetadataSite()
    with served(site._server):
        yield site
