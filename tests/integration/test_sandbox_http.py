"""The sandbox servers over Streamable HTTP through the real MCP client: tools, auth, limits."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import anyio
import httpx2
import pytest
from mcp.shared.exceptions import MCPError
from mcp_http import initialize_request, mcp_session
from test_sandbox_scenarios import EXERCISES, EXPECTED_TOOLS, FIXED_NOW, HOME, call_via, ok

from swiggy_sandbox.servers import DEMO_TOKEN, RateLimits, SandboxHttpServer

INIT = initialize_request("raw")
ACCEPT = {"accept": "application/json, text/event-stream"}


@pytest.fixture(scope="module")
def sandbox() -> Iterator[SandboxHttpServer]:
    with SandboxHttpServer(clock=lambda: FIXED_NOW) as server:
        yield server


def fresh_token(sandbox: SandboxHttpServer) -> str:
    """A token for a brand-new user, so tests never share carts."""
    return sandbox.store.issue(f"user-{uuid.uuid4().hex[:8]}")


def post(url: str, payload: dict[str, Any], token: str | None = None) -> httpx2.Response:
    headers = {**ACCEPT, **({"Authorization": f"Bearer {token}"} if token else {})}
    return httpx2.post(url, json=payload, headers=headers)


@pytest.mark.parametrize("key", ["instamart", "food", "dineout"])
def test_every_tool_over_http(sandbox: SandboxHttpServer, key: str) -> None:
    async def main() -> None:
        async with mcp_session(sandbox.url_for(key), fresh_token(sandbox)) as session:
            tools = (await session.list_tools()).tools
            assert {t.name for t in tools} == EXPECTED_TOOLS[key]
            assert all(t.input_schema["type"] == "object" for t in tools)
            await EXERCISES[key](call_via(session))

    anyio.run(main)


def test_endpoints_are_the_swiggy_paths(sandbox: SandboxHttpServer) -> None:
    assert sandbox.url_for("instamart") == f"{sandbox.base_url}/im"
    assert sandbox.url_for("dineout") == f"{sandbox.base_url}/dineout"
    assert sandbox.base_url.startswith("http://127.0.0.1:")
    response = post(sandbox.url_for("food"), INIT, DEMO_TOKEN)
    assert response.status_code == 200 and response.headers["mcp-session-id"]
    assert int(response.headers["x-ratelimit-remaining"]) < int(
        response.headers["x-ratelimit-limit"]
    )


def test_missing_and_unknown_tokens_get_401_with_metadata(sandbox: SandboxHttpServer) -> None:
    for token in (None, "not-a-token"):
        response = post(sandbox.url_for("food"), INIT, token)
        assert response.status_code == 401
        challenge = response.headers["www-authenticate"]
        # As on Swiggy: the challenge names the root form (not JSON); per-server forms are JSON.
        metadata_url = f"{sandbox.base_url}/.well-known/oauth-protected-resource"
        assert (
            challenge.startswith("Bearer ") and f'resource_metadata="{metadata_url}"' in challenge
        )
        assert ('error="invalid_token"' in challenge) is (token is not None)
        assert response.json()["error"]["code"] == -32001
    assert httpx2.get(sandbox.url_for("instamart")).status_code == 401
    metadata = httpx2.get(f"{sandbox.base_url}/.well-known/oauth-protected-resource/food").json()
    assert metadata["resource"] == sandbox.url_for("food") and metadata["authorization_servers"]
    per_path = httpx2.get(f"{sandbox.url_for('dineout')}/.well-known/oauth-protected-resource")
    assert per_path.json()["resource"] == sandbox.url_for("dineout")


def test_mcp_client_sees_401_as_an_error(sandbox: SandboxHttpServer) -> None:
    async def main() -> None:
        async with mcp_session(sandbox.url_for("instamart"), "wrong"):
            pass  # pragma: no cover - initialize must fail

    with pytest.raises(Exception) as caught:
        anyio.run(main)
    assert "401" in repr(caught.value) or "-32001" in repr(caught.value)


def test_revoked_token_gets_419(sandbox: SandboxHttpServer) -> None:
    token = fresh_token(sandbox)

    async def main() -> None:
        async with mcp_session(sandbox.url_for("instamart"), token) as session:
            await ok(call_via(session), "get_cart")
            sandbox.store.revoke(token)
            with pytest.raises(MCPError) as caught:
                await session.call_tool("get_cart", {})
            assert caught.value.code == -32001 and "419" in caught.value.message

    anyio.run(main)
    response = post(sandbox.url_for("instamart"), INIT, token)
    assert (
        response.status_code == 419 and "resource_metadata" in response.headers["www-authenticate"]
    )


def test_two_users_keep_their_carts_apart(sandbox: SandboxHttpServer) -> None:
    tokens = {"alice": fresh_token(sandbox), "bob": fresh_token(sandbox)}
    queries = {"alice": "paneer", "bob": "sunscreen"}
    carts: dict[str, dict[str, Any]] = {}

    async def shop_as(name: str) -> None:
        async with mcp_session(sandbox.url_for("instamart"), tokens[name]) as session:
            call = call_via(session)
            found = await ok(call, "search_products", addressId=HOME, query=queries[name])
            pack = next(
                v for p in found["products"] for v in p["variations"] if v["isInStockAndAvailable"]
            )
            items = [{"spinId": pack["spinId"], "quantity": 1}]
            await ok(call, "update_cart", selectedAddressId=HOME, items=items)
            await anyio.sleep(0.05)  # let the other user write in between
            carts[name] = await ok(call, "get_cart")

    async def main() -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(shop_as, "alice")
            group.start_soon(shop_as, "bob")

    anyio.run(main)
    assert "Paneer" in carts["alice"]["items"][0]["itemName"]
    assert "Sunscreen" in carts["bob"]["items"][0]["itemName"]
    assert len(carts["alice"]["items"]) == len(carts["bob"]["items"]) == 1


def test_images_are_served_from_the_base_url(sandbox: SandboxHttpServer) -> None:
    async def main() -> str:
        async with mcp_session(sandbox.url_for("food"), fresh_token(sandbox)) as session:
            found = await ok(call_via(session), "search_restaurants", addressId=HOME, query="dosa")
            return found["restaurants"][0]["imageUrl"]

    image_url = anyio.run(main)
    assert image_url.startswith(f"{sandbox.base_url}/img/restaurant/")
    response = httpx2.get(image_url)
    assert response.status_code == 200 and response.headers["content-type"] == "image/svg+xml"
    assert response.text.startswith("<svg")
    assert httpx2.get(f"{sandbox.base_url}/img/product/NOPE.svg").status_code == 404
    assert httpx2.get(f"{sandbox.base_url}/img/secrets/x.svg").status_code == 404


class FakeTime:
    """A limiter clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def _tool_call(name: str, request_id: int = 7) -> dict[str, Any]:
    params = {"name": name, "arguments": {}}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def test_rate_limits_answer_429_with_retry_after() -> None:
    clock = FakeTime()
    limits = RateLimits(requests=6, writes=2)
    with SandboxHttpServer(limits=limits, limiter_clock=clock, clock=lambda: FIXED_NOW) as box:
        url, token = box.url_for("instamart"), box.store.issue("busy")

        async def main() -> None:
            async with mcp_session(url, token) as session:  # request 1: initialize
                call = call_via(session)
                await ok(call, "clear_cart")  # 2, write 1
                await ok(call, "clear_cart")  # 3, write 2
                with pytest.raises(MCPError) as caught:
                    await session.call_tool("clear_cart", {})  # third write: refused
                assert "Rate limit exceeded" in caught.value.message
                assert caught.value.data["success"] is False
                await ok(call, "get_cart")  # reads still pass (4)

        anyio.run(main)
        refused = post(url, _tool_call("clear_cart"), token)
        assert refused.status_code == 429
        assert 1 <= int(refused.headers["retry-after"]) <= 60
        body = refused.json()
        assert body["id"] == 7 and body["error"]["data"]["error"]["message"].startswith("Rate")
        # Reads keep passing until the 6-requests window is full (the client may also have
        # listed tools on its own), then they are refused too.
        statuses = [post(url, _tool_call("get_cart"), token) for _ in range(limits.requests)]
        assert statuses[-1].status_code == 429
        assert "6 requests per minute" in statuses[-1].json()["error"]["message"]
        other = box.store.issue("calm")
        assert post(url, _tool_call("clear_cart"), other).status_code != 429
        assert post(box.url_for("food"), _tool_call("flush_food_cart"), token).status_code != 429
        clock.now += 61
        assert post(url, _tool_call("clear_cart"), token).status_code != 429


def test_http_bad_input_is_an_envelope(sandbox: SandboxHttpServer) -> None:
    async def main() -> list[tuple[dict[str, Any], bool]]:
        async with mcp_session(sandbox.url_for("dineout"), fresh_token(sandbox)) as session:
            call = call_via(session)
            return [
                await call("book_a_table", {}),
                await call("book_table", {"restaurantId": "1", "slotId": "soon"}),
                await call(
                    "get_restaurant_details", {"restaurantId": "0", "latitude": 1, "longitude": 2}
                ),
            ]

    (unknown, unknown_err), (typed, typed_err), (missing, missing_err) = anyio.run(main)
    assert unknown_err and "Invalid tool 'book_a_table'" in unknown["error"]["message"]
    assert typed_err and "Invalid slotId" in typed["error"]["message"]
    assert "Missing itemId" in typed["error"]["message"]
    assert not missing_err and "Invalid restaurantId" in missing["error"]["message"]
    assert json.dumps(missing).startswith('{"success": false')
