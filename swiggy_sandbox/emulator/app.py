"""The Starlette app: records each request, asks the brain, answers like the Messages API."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

# The connector imports this package's sse/script modules: only attributes used at call
# time, so either package may be imported first.
from swiggy_sandbox import connector
from swiggy_sandbox.emulator import sse
from swiggy_sandbox.emulator.cache_marks import cache_mark_problem
from swiggy_sandbox.emulator.content_check import message_image_problem, tool_result_problem
from swiggy_sandbox.emulator.faults import error_response, fault_response, rate_limit_headers
from swiggy_sandbox.emulator.script import (
    PRE_RESPONSE_FAULT_KINDS,
    Brain,
    Fault,
    RecordedRequest,
    ScriptedTurn,
)
from swiggy_sandbox.emulator.streaming import FaultyResponse, wait_quietly
from swiggy_sandbox.emulator.tool_pairing import tool_pairing_problem

# Keys with this prefix are refused like a revoked or mistyped key (tests of bad keys).
INVALID_KEY_PREFIX = "sk-ant-invalid"
# Listed by GET /v1/models; the ids the SDK knows (see swiggy_core.constants.KNOWN_MODELS).
LISTED_MODELS: tuple[tuple[str, str], ...] = (
    ("claude-haiku-4-5", "Claude Haiku 4.5"),
    ("claude-haiku-5-5", "Claude Haiku 5.5"),
    ("claude-sonnet-5-5", "Claude Sonnet 5.5"),
    ("claude-opus-5-5", "Claude Opus 5.5"),
)
MODELS_CREATED_AT = "2025-10-01T00:00:00Z"

Answer = ScriptedTurn | Fault

# (field, type, wording) the real API validates first; bool is excluded from int by hand.
REQUIRED_FIELDS: tuple[tuple[str, type, str], ...] = (
    ("model", str, "a valid string"),
    ("max_tokens", int, "a valid integer"),
    ("messages", list, "a valid list"),
)


def create_app(
    brain: Brain | connector.AgentBrain,
    recorder: list[RecordedRequest],
    *,
    clock: Callable[[], float] = time.monotonic,
) -> Starlette:
    """Build the emulator app; every request is appended to `recorder` before it is answered.

    A brain with `next_step` (an AgentBrain) runs behind the MCP connector emulation;
    one with `respond` (ScriptedBrain, FunctionBrain) answers each request itself.
    `clock` (seconds) decides when prompt-cache entries expire: a bench passes its own to
    let a person pause for minutes or hours without waiting.
    """
    prompt_cache = connector.PromptCache(clock=clock)
    agent = connector.McpConnector(brain) if isinstance(brain, connector.AgentBrain) else None

    def answer_for(recorded: RecordedRequest, prepared: connector.PreparedPrompt) -> Answer:
        if agent is not None:
            return agent.respond(_with_turn_context(recorded, prepared), prepared.messages)
        assert not isinstance(brain, connector.AgentBrain)
        return brain.respond(recorded)

    async def messages(request: Request) -> Response:
        body, json_problem = _parse_json(await request.body())
        recorded = _record(request, body)
        recorder.append(recorded)
        if recorded.api_key is None or recorded.api_key.startswith(INVALID_KEY_PREFIX):
            return _missing_key(recorded.api_key)
        problem = json_problem or _invalid_field(body)
        problem = problem or connector.request_problem(body, recorded.betas)
        problem = problem or tool_pairing_problem(body)
        problem = problem or connector.breakpoint_problem(body)
        problem = problem or cache_mark_problem(body, recorded.betas)
        problem = problem or tool_result_problem(body)
        problem = problem or message_image_problem(body)
        if problem:
            return error_response(400, "invalid_request_error", problem)
        prepared = connector.prepare_prompt(body, prompt_cache)
        # Brains may block (a planner, an MCP call): keep them off the event loop.
        answer = await run_in_threadpool(answer_for, recorded, prepared)
        answer = connector.wire.with_usage(answer, prepared.usage)
        edits = prepared.applied_edits
        cancel: asyncio.Event = request.app.state.stall_cancel
        if isinstance(answer, Fault) and answer.kind in PRE_RESPONSE_FAULT_KINDS:
            # No status line yet, so a client read timeout surfaces as APITimeoutError.
            await wait_quietly(cancel, request.receive, answer.stall_seconds)
            return fault_response(answer)
        if body.get("stream") is True:
            return _stream_answer(answer, body, cancel, edits)
        return _json_answer(answer, body, cancel, edits)

    async def models(request: Request) -> Response:
        recorded = _record(request, {})
        recorder.append(recorded)
        if recorded.api_key is None or recorded.api_key.startswith(INVALID_KEY_PREFIX):
            return _missing_key(recorded.api_key)
        data = [
            {"type": "model", "id": model_id, "display_name": name, "created_at": MODELS_CREATED_AT}
            for model_id, name in LISTED_MODELS
        ]
        page = {
            "data": data,
            "has_more": False,
            "first_id": data[0]["id"],
            "last_id": data[-1]["id"],
        }
        return JSONResponse(page, headers=_success_headers())

    async def not_found(request: Request, exc: Exception) -> Response:
        # Clients classify errors by JSON body, so even unknown routes answer in API shape.
        if isinstance(exc, HTTPException) and exc.status_code == 405:
            return error_response(405, "invalid_request_error", "Method not allowed")
        return error_response(404, "not_found_error", f"Not found: {request.url.path}")

    app = Starlette(
        routes=[
            Route("/v1/messages", messages, methods=["POST"]),
            Route("/v1/models", models, methods=["GET"]),
        ],
        exception_handlers={404: not_found, 405: not_found},
    )
    # Stalled streams wait on this so a shutdown can end them at once (EmulatorServer sets it).
    app.state.stall_cancel = asyncio.Event()
    return app


def _stream_answer(
    answer: Answer, body: dict[str, Any], cancel: asyncio.Event, edits: list[dict[str, Any]]
) -> Response:
    if isinstance(answer, ScriptedTurn):
        events = list(connector.wire.turn_events(answer, body, edits))
        return FaultyResponse(events, cancel=cancel, headers=_sse_headers())
    if answer.is_http:
        return fault_response(answer)
    # A stream fault: a normal start, the complete blocks promised, then the failure.
    chunks = [sse.message_start(answer.partial, body, sse.new_message_id()), sse.ping()]
    blocks = answer.partial.content[: answer.after_blocks] if answer.partial else []
    for index, block in enumerate(blocks):
        chunks.extend(sse.block_events(index, block))
    return FaultyResponse(chunks, cancel=cancel, fault=answer, headers=_sse_headers())


def _json_answer(
    answer: Answer, body: dict[str, Any], cancel: asyncio.Event, edits: list[dict[str, Any]]
) -> Response:
    if isinstance(answer, ScriptedTurn):
        message = connector.wire.message_json(answer, body, edits)
        return JSONResponse(message, headers=_success_headers())
    if answer.is_http or answer.kind == "error_event":
        return fault_response(answer)
    # cut / stall / malformed without a stream: a body that breaks off or is not JSON.
    turn = answer.partial or ScriptedTurn(content=[])
    encoded = json.dumps(sse.message_json(turn, body)).encode()
    headers = _success_headers()
    if answer.kind == "malformed":
        chunk, fault = encoded[: len(encoded) // 2], None
        headers["content-length"] = str(len(chunk))
    else:
        # Promise the full length, deliver half, then drop: the client sees a short read.
        chunk, fault = encoded[: len(encoded) // 2], answer
        headers["content-length"] = str(len(encoded))
    return FaultyResponse(
        [chunk], cancel=cancel, fault=fault, headers=headers, media_type="application/json"
    )


def _with_turn_context(
    recorded: RecordedRequest, prepared: connector.PreparedPrompt
) -> RecordedRequest:
    """The request as an agent brain reads it: the app's turn context joins the system."""
    if not prepared.turn_context:
        return recorded
    system = recorded.body.get("system") or []
    if isinstance(system, str):
        system = [{"type": "text", "text": system}]
    context = {"type": "text", "text": prepared.turn_context}
    return replace(recorded, body={**recorded.body, "system": [*system, context]})


def _parse_json(raw: bytes) -> tuple[dict[str, Any], str]:
    """The body as a dict, plus a problem description ("" when it parsed to an object)."""
    try:
        parsed = json.loads(raw or b"null")
    except ValueError:
        return {}, "Request body is not valid JSON."
    if not isinstance(parsed, dict):
        return {}, "Request body must be a JSON object."
    return parsed, ""


def _invalid_field(body: dict[str, Any]) -> str:
    for name, expected, wording in REQUIRED_FIELDS:
        if name not in body:
            return f"{name}: Field required"
        value = body[name]
        if not isinstance(value, expected) or isinstance(value, bool):
            return f"{name}: Input should be {wording}"
    return ""


def _record(request: Request, body: dict[str, Any]) -> RecordedRequest:
    headers: dict[str, str] = {}
    for name, value in request.headers.items():
        # Repeated headers are folded the way HTTP allows, so none is lost.
        headers[name] = f"{headers[name]}, {value}" if name in headers else value
    return RecordedRequest(
        method=request.method,
        path=request.url.path,
        headers=headers,
        body=body,
        query=dict(request.query_params),
    )


def _missing_key(api_key: str | None = None) -> Response:
    if api_key is None:
        return error_response(401, "authentication_error", "x-api-key header is required")
    return error_response(401, "authentication_error", "invalid x-api-key")


def _success_headers() -> dict[str, str]:
    return {"request-id": sse.new_request_id(), **rate_limit_headers()}


def _sse_headers() -> dict[str, str]:
    return {**_success_headers(), "cache-control": "no-cache"}
