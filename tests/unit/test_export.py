"""Exporting a chat: what the person saw, as Markdown and JSON (which also keeps the stored
tool results its cards came from), and nothing else."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

from swiggy_core.export import build_export, local_day, local_when, to_json, to_markdown
from swiggy_core.models import ChatMessage, block_from_dict
from swiggy_core.parsers import (
    BillLine,
    CartLine,
    CartResult,
    OrderPlacedResult,
    ProductItem,
    ProductsResult,
    StatusResult,
)
from swiggy_core.store.records import ConversationInfo, StoredMessage

STARTED = datetime(2026, 11, 23, 14, 35, tzinfo=UTC)  # 8:05 PM in India
UPDATED = datetime(2026, 11, 23, 15, 0, tzinfo=UTC)
SECRET_ADDRESS_ID = "addr-9f1c2e"
RAW_MARKER = "RAW-TOOL-OUTPUT-XYZ"
APPROVAL_ANSWER = "APPROVAL-ANSWER-XYZ"


def _info() -> ConversationInfo:
    return ConversationInfo("c1", "alice@sandbox", "food", "Protein bars", UPDATED, STARTED)


def _tool_reply(tool_id: str, name: str, card, text: str = "") -> ChatMessage:
    blocks = [
        block_from_dict(
            {
                "type": "mcp_tool_use",
                "id": tool_id,
                "name": name,
                "server_name": "swiggy-instamart",
                "input": {"address_id": SECRET_ADDRESS_ID},
            }
        ),
        block_from_dict({"type": "mcp_tool_result", "tool_use_id": tool_id, "content": RAW_MARKER}),
    ]
    if text:
        blocks.append(block_from_dict({"type": "text", "text": text}))
    return ChatMessage(role="assistant", content=blocks, meta={"cards": {tool_id: card}})


def _stored(messages: list[ChatMessage]) -> list[StoredMessage]:
    """As the store hands them back; the first message predates stored message times."""
    return [
        StoredMessage(seq, message, None if seq == 0 else STARTED + timedelta(minutes=seq))
        for seq, message in enumerate(messages)
    ]


def _chat() -> list[StoredMessage]:
    return _stored(_messages())


def _messages() -> list[ChatMessage]:
    products = ProductsResult(
        items=[ProductItem(name="Yoga Bar Protein", quantity_description="60 g", price=99.0)]
    )
    stale_cart = CartResult(items=[CartLine(name="Yoga Bar Protein", quantity=1)])
    cart = CartResult(
        items=[CartLine(name="Yoga Bar Protein", quantity=2, line_total=198.0)],
        bill=[BillLine(label="Item total", amount=198.0), BillLine(label="Discount", amount=-20)],
        to_pay=178.0,
    )
    two_carts = _tool_reply("t2", "get_cart", stale_cart)
    two_carts = two_carts.model_copy(
        update={
            "content": [*two_carts.blocks(), *_tool_reply("t3", "update_cart", cart).blocks()],
            "meta": two_carts.meta.model_copy(update={"cards": {"t2": stale_cart, "t3": cart}}),
        }
    )
    answer = block_from_dict(
        {"type": "tool_result", "tool_use_id": "a1", "content": APPROVAL_ANSWER}
    )
    placed = OrderPlacedResult(order_id="ORD-42", amount=178.0, payment_method="Cash")
    outcome = ChatMessage(
        role="user", content=[answer], meta={"approval_id": "ap1", "cards": {"a1": placed}}
    )
    return [
        ChatMessage(role="user", content="Find protein bars"),
        _tool_reply("t1", "search_products", products, "Here are some bars."),
        two_carts,
        outcome,
        ChatMessage(role="assistant", content="Sorry.", meta={"usage": {"input_tokens": 1234567}}),
    ]


def test_dates_read_as_a_person_in_india_reads_them():
    assert local_day(STARTED) == "Mon 23 Nov"
    assert local_when(STARTED) == "Mon 23 Nov, 8:05 PM"


def test_json_has_roles_texts_and_card_essentials_only():
    data = json.loads(to_json(build_export(_info(), _chat(), "NutriCart")))
    assert data["title"] == "Protein bars"
    assert data["shop"] == "NutriCart"
    assert data["started"] == "Mon 23 Nov, 8:05 PM"
    roles = [m["role"] for m in data["messages"]]
    assert roles == ["user", "assistant", "assistant", "assistant", "assistant"]
    assert data["messages"][0]["text"] == "Find protein bars"
    times = [m["time"] for m in data["messages"]]
    assert times == [
        None,
        "Mon 23 Nov, 8:06 PM",
        "Mon 23 Nov, 8:07 PM",
        "Mon 23 Nov, 8:08 PM",
        "Mon 23 Nov, 8:09 PM",
    ]
    (products,) = data["messages"][1]["cards"]
    assert products["items"] == [
        {"name": "Yoga Bar Protein", "size": "60 g", "price": 99.0, "in_stock": True}
    ]
    (cart,) = data["messages"][2]["cards"]  # only the newest of the reply's two carts
    assert cart["items"] == [{"name": "Yoga Bar Protein", "quantity": 2, "total": 198.0}]
    assert cart["to_pay"] == 178.0
    assert data["messages"][3]["cards"][0]["order_id"] == "ORD-42"


def test_nothing_beyond_the_page_leaves():
    markdown = to_markdown(build_export(_info(), _chat(), "NutriCart"))
    for text in (to_json(build_export(_info(), _chat(), "NutriCart")), markdown):
        assert APPROVAL_ANSWER not in text  # the approval tool's answer is never kept
        assert "1234567" not in text
        assert "alice" not in text
    assert SECRET_ADDRESS_ID not in markdown
    assert RAW_MARKER not in markdown
    assert "search_products" not in markdown


def test_json_keeps_each_replys_stored_results_for_an_import():
    data = json.loads(to_json(build_export(_info(), _chat(), "NutriCart")))
    assert data["format"] == "swiggy-assistant-chat/2"
    found = {"tool": "search_products", "input": {"address_id": SECRET_ADDRESS_ID}}
    assert data["messages"][1]["results"] == [{**found, "result": RAW_MARKER, "is_error": False}]
    assert [r["tool"] for r in data["messages"][2]["results"]] == ["get_cart", "update_cart"]
    assert [m["results"] for m in data["messages"][3:]] == [[], []]  # the outcome, "Sorry."


def test_json_results_keep_no_credentials():
    reply = _tool_reply("t1", "search_products", ProductsResult())
    use, result = reply.blocks()
    reply = reply.model_copy(
        update={
            "content": [
                use.model_copy(update={"input": {"query": "milk", "access_token": "tok-123"}}),
                result.model_copy(update={"content": "Authorization: Bearer abc.def"}),
            ]
        }
    )
    text = to_json(build_export(_info(), _stored([reply]), "NutriCart"))
    assert "tok-123" not in text and "abc.def" not in text
    assert '"query": "milk"' in text


def test_markdown_reads_like_the_chat():
    text = to_markdown(build_export(_info(), _chat(), "NutriCart"))
    assert text.startswith("# Protein bars\n")
    assert "NutriCart · last active Mon 23 Nov, 8:30 PM · started Mon 23 Nov, 8:05 PM" in text
    assert "**You:**\n\nFind protein bars" in text  # no time stored for it
    assert "**Assistant:** · Mon 23 Nov, 8:06 PM\n\nHere are some bars." in text
    assert "Here are some bars." in text
    assert "- Yoga Bar Protein (60 g) · ₹99" in text
    assert "- 2 × Yoga Bar Protein · ₹198" in text
    assert "- Discount: -₹20" in text
    assert "**To pay: ₹178**" in text
    assert "*Order placed*: ORD-42 · ₹178" in text
    assert "1 × Yoga Bar" not in text


def test_an_action_shows_its_label_not_its_hidden_block():
    from swiggy_core.actions import action_message
    from swiggy_core.models import CardAction

    pressed = action_message(
        CardAction(kind="add_to_cart", label="Add 2 × Yoga Bar", ids={"spin_id": "s1"})
    )
    (message,) = build_export(_info(), _stored([pressed]), "NutriCart").messages
    assert message.text == "Add 2 × Yoga Bar"


# -- hostile text: the Markdown file is opened in other viewers ---------------------------
HOSTILE = """Hi <script>alert(1)</script>, <!-- hidden --> and <img src=x onerror=alert(1)>
[click](javascript:alert(1)) [d](data:text/html;base64,PHNjcmlwdD4=) [v](vbscript:msgbox(1))
[h](http://evil.example/) [f](file:///etc/passwd) [r](/relative/path) <javascript:alert(1)>
<https://autolink.example/x> ![pixel](https://tracker.example/p.png) ![ref pic][pic] ![short]
[ref link][evil] [ok](https://www.swiggy.com/help) &#x3C;b&#x3E;

[pic]: https://tracker.example/q.png
[evil]: javascript:alert(2)
   [evil2]: <data:text/html,x>
<div onclick="steal()">block</div>
"""
_UNESCAPED_LT = re.compile(r"(?<!\\)<")
_LINK = re.compile(r"(?<!\\)\[(?:[^\]\\\n]|\\.)*\]\((?P<dest>[^)\s]*)")
_DEFINITION = re.compile(r"(?m)^ {0,3}\[(?:[^\]\\\n]|\\.)+\]:")


def _hostile_chat() -> list[StoredMessage]:
    evil_name = '<img src=x onerror="alert(1)">![logo](https://tracker.example/l.png)'
    products = ProductsResult(items=[ProductItem(name=evil_name, quantity_description="1 kg")])
    status = StatusResult(success=False, message="[retry](javascript:alert(3)) <b>now</b>")
    typed = ChatMessage(role="user", content="<u>me</u> [x](data:text/html,1)")
    reply = _tool_reply("t1", "search_products", products, HOSTILE)
    told = _tool_reply("t2", "update_cart", status)
    return _stored([typed, reply, told])


def _unsafe(markdown: str) -> list[str]:
    """Everything in `markdown` that a viewer would turn into HTML, a load or a non-https link."""
    found = [f"raw '<' at {m.start()}" for m in _UNESCAPED_LT.finditer(markdown)]
    found += [f"image at {m.start()}" for m in re.finditer(r"(?<!\\)!\[", markdown)]
    found += [
        f"link to {m.group('dest')!r}"
        for m in _LINK.finditer(markdown)
        if not m.group("dest").startswith("https://")
    ]
    found += [f"link definition {m.group()!r}" for m in _DEFINITION.finditer(markdown)]
    found += [f"bare http at {m.start()}" for m in re.finditer(r"(?<!`)http://", markdown)]
    return found


def test_markdown_keeps_no_html_no_image_and_no_link_but_https():
    info = ConversationInfo("c1", "alice@sandbox", "food", "<b>Bars</b>", UPDATED, STARTED)
    text = to_markdown(build_export(info, _hostile_chat(), "NutriCart"))
    assert _unsafe(text) == []
    assert "[ok](https://www.swiggy.com/help)" in text  # an https link stays a link
    assert "\\[image: pixel\\]" in text and "\\[image: ref pic\\]" in text
    assert "tracker.example/p.png" not in text
    # A card name is literal text: its image markup shows as typed, the address as code.
    assert "\\!\\[logo\\](`https://tracker.example/l.png`)" in text
    for shown in ("click", "alert(1)", "block", "Bars", "me"):
        assert shown in text  # the words stay readable
    data = json.loads(to_json(build_export(info, _hostile_chat(), "NutriCart")))
    assert "<script>alert(1)</script>" in data["messages"][1]["text"]  # data, kept as it was


def test_each_hostile_form_alone_comes_out_safe():
    for line in [*HOSTILE.splitlines(), "<!--", "<a href='javascript:x'>a</a>", "![](x.png)"]:
        message = ChatMessage(role="assistant", content=line or " ")
        text = to_markdown(build_export(_info(), _stored([message]), "NutriCart"))
        assert _unsafe(text) == [], line
