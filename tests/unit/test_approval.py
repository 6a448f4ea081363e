"""The approval tool and the request builder: spenders are never offered, in either mode."""

from swiggy_core.approval.request_tool import ApprovalAnswer, approval_tool, spending_tools_for
from swiggy_core.constants import APPROVAL_TOOL_NAME
from swiggy_core.engine import TurnSetup, build_turn_params
from swiggy_core.models import ChatMessage
from swiggy_core.verticals import get_vertical


def test_spending_tool_per_vertical():
    names = {v: spending_tools_for(get_vertical(v)) for v in ("food", "style", "foodorder")}
    assert names == {
        "food": ("checkout",),
        "style": ("checkout",),
        "foodorder": ("place_food_order",),
    }
    assert spending_tools_for(get_vertical("dining")) == ("book_table",)


def test_the_approval_tool_names_only_this_verticals_spender():
    tool = approval_tool(get_vertical("dining"))
    assert tool["name"] == APPROVAL_TOOL_NAME
    assert tool["input_schema"]["properties"]["tool"]["enum"] == ["book_table"]


def _messages(text: str = "yes, confirm checkout") -> list[ChatMessage]:
    return [ChatMessage(role="user", content=text)]


def test_connector_requests_switch_every_spender_off_and_offer_the_approval_tool():
    setup = TurnSetup(vertical_id="food", model="claude-haiku-4-5", swiggy_token="tok")
    params = build_turn_params(setup, _messages())
    toolset, client = params["tools"]
    assert toolset["type"] == "mcp_toolset"
    assert {"checkout", "place_food_order", "book_table"} <= set(toolset["configs"])
    assert all(config == {"enabled": False} for config in toolset["configs"].values())
    assert client["name"] == APPROVAL_TOOL_NAME


def test_local_requests_never_offer_a_spending_tool():
    setup = TurnSetup(vertical_id="foodorder", model="m", swiggy_token="tok", engine="local")
    listing = [
        {"name": name, "input_schema": {"type": "object"}}
        for name in ("search_menu", "place_food_order", "pay_now", "get_food_orders")
    ]
    params = build_turn_params(setup, _messages(), client_tools=listing)
    offered = [tool["name"] for tool in params["tools"]]
    assert offered == ["search_menu", "get_food_orders", APPROVAL_TOOL_NAME]
    assert "mcp_servers" not in params and all("mcp" not in beta for beta in params["betas"])


def test_without_swiggy_there_are_no_tools_to_ask_with():
    setup = TurnSetup(vertical_id="food", model="m", swiggy_token=None)
    assert "tools" not in build_turn_params(setup, _messages())


def test_answers_are_json_the_model_can_read():
    answer = ApprovalAnswer(approval="declined", tool="checkout", message="No.")
    assert answer.as_text() == '{"approval": "declined", "tool": "checkout", "message": "No."}'
