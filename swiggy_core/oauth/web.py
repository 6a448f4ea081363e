"""Small HTTP helpers for discovery and registration: bounded, no redirects, JSON or a reason."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from swiggy_core.constants import OAUTH_HTTP_TIMEOUT_SECONDS, OAUTH_MAX_DOCUMENT_BYTES

if TYPE_CHECKING:  # the HTTP client loads with the first sign-in request, not the page
    import httpx2

JSON_ACCEPT = {"accept": "application/json"}


def new_client(timeout: float = OAUTH_HTTP_TIMEOUT_SECONDS) -> httpx2.Client:
    """A client that never follows redirects: a metadata URL must answer for itself."""
    import httpx2

    return httpx2.Client(timeout=timeout, follow_redirects=False)


def read_limited(response: httpx2.Response) -> bytes | None:
    """The body of a streamed response, or None when it is larger than a document may be."""
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_bytes():
        size += len(chunk)
        if size > OAUTH_MAX_DOCUMENT_BYTES:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def json_object(body: bytes, content_type: str) -> tuple[dict[str, Any] | None, str]:
    """The body as a JSON object, or None and why not (HTML pages are named as such)."""
    try:
        data = json.loads(body)
    except ValueError:
        looks_html = "html" in content_type.lower() or body.lstrip()[:1] == b"<"
        return None, "an HTML page, not JSON" if looks_html else "not JSON"
    if not isinstance(data, dict):
        return None, "JSON but not an object"
    return data, ""


def get_json(http: httpx2.Client, url: str) -> tuple[dict[str, Any] | None, str]:
    """GET a JSON document: the object, or None and a short reason (status, HTML, …)."""
    import httpx2  # loaded already: `http` is its client

    try:
        with http.stream("GET", url, headers=JSON_ACCEPT) as response:
            if response.status_code != 200:
                return None, f"HTTP {response.status_code}"
            body = read_limited(response)
            content_type = response.headers.get("content-type", "")
    except httpx2.HTTPError:
        return None, "unreachable"
    if body is None:
        return None, "too large"
    return json_object(body, content_type)


def post_json(
    http: httpx2.Client, url: str, payload: dict[str, Any]
) -> tuple[int, dict[str, Any] | None, str]:
    """POST a JSON body: the status, the JSON object answered (or None) and a reason."""
    import httpx2  # loaded already: `http` is its client

    try:
        with http.stream("POST", url, json=payload, headers=JSON_ACCEPT) as response:
            status = response.status_code
            body = read_limited(response)
            content_type = response.headers.get("content-type", "")
    except httpx2.HTTPError:
        return 0, None, "unreachable"
    if body is None:
        return status, None, "too large"
    data, reason = json_object(body, content_type)
    return status, data, reason
