"""Discovery as Swiggy serves it: every candidate tried, HTML skipped, the issuer pinned."""

from __future__ import annotations

from collections.abc import Iterator

import httpx2
import pytest
from oauth_peers import CALLBACK, Answer, MetadataSite, metadata_site, query_of

from swiggy_core.errors import ErrorCode
from swiggy_core.oauth import OAuthError, SignInService, discover
from swiggy_core.oauth.urls import pinned_issuer
from swiggy_sandbox.servers import SandboxHttpServer

PR = "/.well-known/oauth-protected-resource"
AS = "/.well-known/oauth-authorization-server"


@pytest.fixture
def site() -> Iterator[MetadataSite]:
    with metadata_site() as running:
        yield running


def swiggy_like(site: MetadataSite) -> None:
    """Swiggy's layout: 401 hint at the root (HTML), JSON per server, metadata at the root."""
    hint = f'Bearer error="invalid_token", resource_metadata="{site.origin}{PR}"'
    site.answer("POST", "/food", Answer(401, "{}", headers=(("www-authenticate", hint),)))
    site.html(PR)
    site.json(
        f"/food{PR}",
        {"resource": f"{site.origin}/food", "authorization_servers": [f"{site.origin}/auth"]},
    )
    site.answer("GET", f"{AS}/auth", Answer(401, '{"error":"unauthorized"}'))
    site.json(AS, site.swiggy_metadata())


def find(site: MetadataSite):
    with httpx2.Client() as http:
        return discover(f"{site.origin}/food", http, pinned_issuer)


def test_swiggys_awkward_layout_is_found_through_every_candidate(site: MetadataSite) -> None:
    swiggy_like(site)
    metadata = find(site)
    assert metadata.issuer == f"{site.origin}/auth"
    assert metadata.token_endpoint == f"{site.origin}/auth/token"
    # No revocation endpoint named: Swiggy's documented /auth/logout.
    assert metadata.revocation_endpoint == f"{site.origin}/auth/logout"
    assert site.requests == [
        ("POST", "/food"),  # the unauthenticated probe and its hint
        ("GET", PR),  # the hint: an HTML page, skipped
        ("GET", f"{PR}/food"),  # RFC 9728 path form: 404 here
        ("GET", f"/food{PR}"),  # Swiggy's per-server form: JSON
        ("GET", f"{AS}/auth"),  # RFC 8414 path form: 401 on Swiggy
        ("GET", AS),  # the host root, where Swiggy serves it
    ]


def test_the_sandbox_serves_the_same_layout() -> None:
    with SandboxHttpServer() as sandbox, httpx2.Client() as http:
        base = sandbox.base_url
        assert http.get(f"{base}{PR}").headers["content-type"].startswith("text/html")
        assert http.get(f"{base}{AS}/auth").status_code == 401
        root = http.get(f"{base}{AS}").json()
        assert root["issuer"] == f"{base}/auth" and root["code_challenge_methods_supported"] == [
            "S256"
        ]
        assert set(root["scopes_supported"]) == {"mcp:tools", "mcp:resources", "mcp:prompts"}
        assert root["grant_types_supported"] == ["authorization_code", "refresh_token"]
        challenge = http.post(sandbox.url_for("dineout"), json={}).headers["www-authenticate"]
        assert f'resource_metadata="{base}{PR}"' in challenge
        metadata = discover(sandbox.url_for("dineout"), http, pinned_issuer)
        assert (metadata.issuer, metadata.registration_endpoint) == (
            f"{base}/auth",
            f"{base}/auth/register",
        )


def test_html_everywhere_is_e5101_naming_what_was_tried(site: MetadataSite) -> None:
    for path in (
        PR,
        f"{PR}/food",
        f"/food{PR}",
        f"{AS}/auth",
        AS,
        "/auth/.well-known/openid-configuration",
    ):
        site.html(path)
    with pytest.raises(OAuthError) as caught:
        find(site)
    assert caught.value.code == ErrorCode.OAUTH_DISCOVERY
    message = caught.value.message
    for path in (f"/food{PR}", f"{AS}/auth", AS):
        assert f"{site.origin}{path} (an HTML page, not JSON)" in message
    assert f"{site.origin}/.well-known/openid-configuration (HTTP 404)" in message


def test_a_different_issuer_in_the_metadata_is_e5102(site: MetadataSite) -> None:
    swiggy_like(site)
    site.json(AS, site.swiggy_metadata(issuer=f"{site.origin}/elsewhere"))
    with pytest.raises(OAuthError) as caught:
        find(site)
    assert caught.value.code == ErrorCode.OAUTH_ISSUER_MISMATCH
    assert f"{site.origin}/auth" in caught.value.message


def test_a_resource_naming_another_authorization_server_is_e5102_before_contacting_it(
    site: MetadataSite,
) -> None:
    swiggy_like(site)
    site.json(f"/food{PR}", {"authorization_servers": [f"{site.origin}/evil"]})
    with pytest.raises(OAuthError) as caught:
        find(site)
    assert caught.value.code == ErrorCode.OAUTH_ISSUER_MISMATCH
    assert not any("evil" in path for path in site.asked())


def test_metadata_without_pkce_s256_is_refused(site: MetadataSite) -> None:
    swiggy_like(site)
    site.json(AS, site.swiggy_metadata(code_challenge_methods_supported=["plain"]))
    with pytest.raises(OAuthError) as caught:
        find(site)
    assert caught.value.code == ErrorCode.OAUTH_DISCOVERY and "S256" in caught.value.message


def test_a_hint_to_another_origin_is_not_followed(site: MetadataSite) -> None:
    swiggy_like(site)
    hint = 'Bearer resource_metadata="http://localhost:9/.well-known/oauth-protected-resource"'
    site.answer("POST", "/food", Answer(401, "{}", headers=(("www-authenticate", hint),)))
    assert find(site).issuer == f"{site.origin}/auth"
    assert site.asked()[0] == f"{PR}/food"  # went straight to the candidates


def test_no_protected_resource_metadata_falls_back_to_the_pinned_issuer(
    site: MetadataSite,
) -> None:
    site.json(AS, site.swiggy_metadata())
    assert find(site).issuer == f"{site.origin}/auth"


def test_a_server_that_is_neither_https_nor_loopback_is_refused_without_a_request() -> None:
    with httpx2.Client() as http, pytest.raises(OAuthError) as caught:
        discover("http://mcp.swiggy.com/food", http, pinned_issuer)
    assert caught.value.code == ErrorCode.OAUTH_DISCOVERY


def test_registration_is_remembered_per_server_and_sent_as_a_public_client(
    site: MetadataSite,
) -> None:
    swiggy_like(site)
    site.answer("POST", "/auth/register", Answer(201, '{"client_id": "swiggy-mcp"}'))
    service = SignInService()
    servers = {"food": f"{site.origin}/food"}
    first = query_of(service.start("alice", servers, CALLBACK))
    second = query_of(service.start("bob", servers, CALLBACK))
    assert site.asked("POST").count("/auth/register") == 1
    assert first["client_id"] == second["client_id"] == "swiggy-mcp"
    assert first["state"] != second["state"]
    assert first["code_challenge"] != second["code_challenge"]
    assert (first["code_challenge_method"], first["scope"], first["resource"]) == (
        "S256",
        "mcp:tools",
        f"{site.origin}/food",
    )


def test_a_failed_registration_is_e5103(site: MetadataSite) -> None:
    swiggy_like(site)
    site.answer("POST", "/auth/register", Answer(500, "<html>oops</html>", "text/html"))
    with pytest.raises(OAuthError) as caught:
        SignInService().start("alice", {"food": f"{site.origin}/food"}, CALLBACK)
    assert caught.value.code == ErrorCode.OAUTH_REGISTRATION
