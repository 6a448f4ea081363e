"""A Food server over a real in-memory MCP client, in both result forms, with a movable clock."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import anyio
from food_scenarios import Call
from mcp import Client

from swiggy_sandbox.servers import build_server
from swiggy_sandbox.servers.summary import RESULT_FORMS, ResultForm
from swiggy_sandbox.shop import Shop

# 13:00 IST on a Tuesday: lunch is on and most restaurants are open.
LUNCH = datetime(2026, 11, 24, 7, 30, tzinfo=UTC)


class MovableClock:
    """A clock tests can move forward."""

    def __init__(self, start: datetime = LUNCH) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def envelope_of(result: Any, form: ResultForm) -> dict[str, Any]:
    """The `{success, data, message}` envelope of a result in either form.

    The summary form answers a success with prose in the text and the data in
    `structuredContent`; failures are the envelope text in both forms.
    """
    text = result.content[0].text
    try:
        envelope: dict[str, Any] = json.loads(text)
    except ValueError:
        envelope = {}
    if envelope.get("success") is False or form == "envelope":
        return envelope
    structured = result.structured_content
    assert not envelope and isinstance(structured, dict), "a summary carries structuredContent"
    data = structured.get("data") if "success" in structured else structured
    return {"success": True, "data": data, "message": text}


Body = Callable[[Call, dict[str, dict[str, Any]], MovableClock], Awaitable[None]]


def run_food(body: Body) -> None:
    """Run `body(call, tool schemas, clock)` on a fresh shop's Food server in each result form."""

    async def main(form: ResultForm) -> None:
        clock = MovableClock()
        shop = Shop(clock=clock)
        try:
            async with Client(build_server("food", shop, result_form=form)) as client:
                tools = {t.name: t.input_schema for t in (await client.list_tools()).tools}

                async def call(name: str, arguments: dict[str, Any]) -> tuple[dict[str, Any], bool]:
                    result = await client.call_tool(name, arguments)
                    return envelope_of(result, form), bool(result.is_error)

                await body(call, tools, clock)
        finally:
            shop.close()

    for form in RESULT_FORMS:
        anyio.run(main, form)
