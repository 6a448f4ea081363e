"""Image references: https on Swiggy's image hosts, expanded Swiggy ids, loopback http only;
cards show a loopback image only from the exact sandbox origin they are given."""

from __future__ import annotations

import json

import pytest

from swiggy_core.parsers import ProductsResult, RestaurantsResult, parse_tool_result, safe_image_url
from swiggy_core.parsers.images import IMAGE_HOSTS, displayable_image_url

CDN = (
    "https://media-assets.swiggy.com/swiggy/image/upload/fl_lossy,f_auto,q_auto,w_264,h_288,c_fill/"
)


@pytest.mark.parametrize(
    ("ref", "url"),
    [
        ("https://media-assets.swiggy.com/a.png", "https://media-assets.swiggy.com/a.png"),
        ("  https://media-assets.swiggy.com/a.png ", "https://media-assets.swiggy.com/a.png"),
        ("//media-assets.swiggy.com/a.png", "https://media-assets.swiggy.com/a.png"),
        (
            "https://instamart-media-assets.swiggy.com/swiggy/image/upload/x.png",
            "https://instamart-media-assets.swiggy.com/swiggy/image/upload/x.png",
        ),
        (
            "https://dineout-media-assets.swiggy.com/toit.jpg",
            "https://dineout-media-assets.swiggy.com/toit.jpg",
        ),
        (
            "https://res.cloudinary.com/swiggy/image/upload/a.png",
            "https://res.cloudinary.com/swiggy/image/upload/a.png",
        ),
        ("HTTPS://MEDIA-ASSETS.SWIGGY.COM/a.png", "HTTPS://MEDIA-ASSETS.SWIGGY.COM/a.png"),
        ("xqwpuhgnsaf18te7zvtv", CDN + "xqwpuhgnsaf18te7zvtv"),
        ("NI_CATALOG/IMAGES/CIW/2025/1/2/a-b.png", CDN + "NI_CATALOG/IMAGES/CIW/2025/1/2/a-b.png"),
        ("http://127.0.0.1:8765/static/milk.svg", "http://127.0.0.1:8765/static/milk.svg"),
        ("http://localhost:9000/img/dosa.svg", "http://localhost:9000/img/dosa.svg"),
        ("http://[::1]:9000/img/dosa.svg", "http://[::1]:9000/img/dosa.svg"),
        ({"url": "https://media-assets.swiggy.com/1.jpg"}, "https://media-assets.swiggy.com/1.jpg"),
        (
            ["javascript:alert(1)", "https://x.example/2.jpg", "https://media-assets.swiggy.com/2"],
            "https://media-assets.swiggy.com/2",
        ),
    ],
)
def test_allowed_images(ref: object, url: str) -> None:
    assert safe_image_url(ref) == url


@pytest.mark.parametrize(
    "ref",
    [
        "http://example.com/a.png",
        # https, but not one of Swiggy's image hosts: a tracking pixel, or anyone's CDN.
        "https://cdn.example.com/a.png",
        "https://tracker.example/pixel.gif?chat=secret",
        "https://media-assets.swiggy.com.evil.example/a.png",
        "https://evilmedia-assets.swiggy.com/a.png",
        "http://media-assets.swiggy.com/a.png",
        # Cloudinary is shared by everyone: only Swiggy's own account path.
        "https://res.cloudinary.com/someone-else/image/upload/a.png",
        "https://res.cloudinary.com/swiggyx/a.png",
        "https://res.cloudinary.com/swiggy/../someone-else/a.png",
        "https://res.cloudinary.com/swiggy/%2e%2e/someone-else/a.png",
        "http://127.0.0.1.evil.com/a.png",
        "http://localhost@evil.com/a.png",
        "https://user:pw@example.com/a.png",
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        " javascript:alert(1)",
        "data:image/svg+xml;base64,PHN2Zz4=",
        "file:///etc/passwd",
        "ftp://example.com/a.png",
        "vbscript:msgbox",
        "https://exa mple.com/a.png",
        'https://example.com/a.png" onerror="alert(1)',
        "https://example.com/\x00a.png",
        "https://",
        "https://example.com:99999/a.png",
        "/relative/path.png",
        "../../etc/passwd",
        "",
        "   ",
        None,
        42,
        True,
        "https://example.com/" + "a" * 5_000,
    ],
)
def test_rejected_images(ref: object) -> None:
    assert safe_image_url(ref) is None


def test_cards_carry_only_safe_images() -> None:
    payload = {
        "products": [
            {
                "displayName": "Milk",
                "productId": "1",
                "price": 30,
                "imageUrl": "data:image/png;base64,AAAA",
            },
            {
                "displayName": "Curd",
                "productId": "2",
                "price": 40,
                "imageUrl": "http://127.0.0.1:8000/curd.svg",
            },
            {
                "displayName": "Ghee",
                "productId": "3",
                "price": 500,
                "imageUrl": "https://tracker.example/ghee.png",
            },
        ]
    }
    result = parse_tool_result("search_products", json.dumps(payload), "food")
    assert isinstance(result, ProductsResult)
    assert [p.image_url for p in result.items] == [None, "http://127.0.0.1:8000/curd.svg", None]


def test_restaurant_cloudinary_id_is_expanded() -> None:
    payload = {
        "restaurants": [
            {"id": "9", "name": "CTR", "cuisines": ["South Indian"], "cloudinaryImageId": "abc123"}
        ]
    }
    result = parse_tool_result("search_restaurants", json.dumps(payload), "foodorder")
    assert isinstance(result, RestaurantsResult)
    assert result.items[0].image_url == CDN + "abc123"


def test_allow_list_is_swiggy_image_hosts_only() -> None:
    assert set(IMAGE_HOSTS) == {
        "media-assets.swiggy.com",
        "instamart-media-assets.swiggy.com",
        "dineout-media-assets.swiggy.com",
        "res.cloudinary.com",
    }


SANDBOX = "http://127.0.0.1:8765"


@pytest.mark.parametrize(
    ("url", "origin", "shown"),
    [
        ("https://media-assets.swiggy.com/a.png", None, True),
        ("https://media-assets.swiggy.com/a.png", SANDBOX, True),
        ("http://127.0.0.1:8765/img/product/p1.svg", SANDBOX, True),
        ("http://127.0.0.1:8765/img/product/p1.svg", SANDBOX + "/", True),
        # Loopback is allowed only as the exact sandbox origin the page passes in.
        ("http://127.0.0.1:8765/img/product/p1.svg", None, False),
        ("http://127.0.0.1:8766/img/product/p1.svg", SANDBOX, False),
        ("http://127.0.0.1/img/product/p1.svg", SANDBOX, False),
        ("http://localhost:8765/img/product/p1.svg", SANDBOX, False),
        ("http://[::1]:8765/img/product/p1.svg", SANDBOX, False),
        ("https://127.0.0.1:8765/img/product/p1.svg", SANDBOX, False),
        # Stored cards are checked again: whatever a card holds must pass the rules now.
        ("https://cdn.example.com/a.png", None, False),
        ("data:image/svg+xml;base64,PHN2Zz4=", SANDBOX, False),
        ("javascript:alert(1)", SANDBOX, False),
        (None, SANDBOX, False),
        (42, SANDBOX, False),
    ],
)
def test_displayable_image_url(url: object, origin: str | None, shown: bool) -> None:
    assert displayable_image_url(url, origin) == (url if shown else None)


def test_a_malformed_sandbox_origin_allows_no_loopback_image() -> None:
    url = "http://127.0.0.1:8765/img/a.svg"
    for origin in ("", "127.0.0.1:8765", "http://127.0.0.1:99999", "ftp://127.0.0.1:8765"):
        assert displayable_image_url(url, origin) is None
