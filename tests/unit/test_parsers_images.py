"""Image references: absolute https, expanded Swiggy ids, loopback http only."""

from __future__ import annotations

import json

import pytest

from swiggy_core.parsers import ProductsResult, RestaurantsResult, parse_tool_result, safe_image_url

CDN = (
    "https://media-assets.swiggy.com/swiggy/image/upload/fl_lossy,f_auto,q_auto,w_264,h_288,c_fill/"
)


@pytest.mark.parametrize(
    ("ref", "url"),
    [
        ("https://cdn.example.com/a.png", "https://cdn.example.com/a.png"),
        ("  https://cdn.example.com/a.png ", "https://cdn.example.com/a.png"),
        ("//cdn.example.com/a.png", "https://cdn.example.com/a.png"),
        ("xqwpuhgnsaf18te7zvtv", CDN + "xqwpuhgnsaf18te7zvtv"),
        ("NI_CATALOG/IMAGES/CIW/2025/1/2/a-b.png", CDN + "NI_CATALOG/IMAGES/CIW/2025/1/2/a-b.png"),
        ("http://127.0.0.1:8765/static/milk.svg", "http://127.0.0.1:8765/static/milk.svg"),
        ("http://localhost:9000/img/dosa.svg", "http://localhost:9000/img/dosa.svg"),
        ("http://[::1]:9000/img/dosa.svg", "http://[::1]:9000/img/dosa.svg"),
        ({"url": "https://x.example/1.jpg"}, "https://x.example/1.jpg"),
        (["javascript:alert(1)", "https://x.example/2.jpg"], "https://x.example/2.jpg"),
    ],
)
def test_allowed_images(ref: object, url: str) -> None:
    assert safe_image_url(ref) == url


@pytest.mark.parametrize(
    "ref",
    [
        "http://example.com/a.png",
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
        ]
    }
    result = parse_tool_result("search_products", json.dumps(payload), "food")
    assert isinstance(result, ProductsResult)
    assert [p.image_url for p in result.items] == [None, "http://127.0.0.1:8000/curd.svg"]


def test_restaurant_cloudinary_id_is_expanded() -> None:
    payload = {
        "restaurants": [
            {"id": "9", "name": "CTR", "cuisines": ["South Indian"], "cloudinaryImageId": "abc123"}
        ]
    }
    result = parse_tool_result("search_restaurants", json.dumps(payload), "foodorder")
    assert isinstance(result, RestaurantsResult)
    assert result.items[0].image_url == CDN + "abc123"
