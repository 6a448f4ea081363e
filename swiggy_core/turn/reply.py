"""The model's reply, on the turn's thread: streamed, stored whatever happens, and an
approval it asks for opened (a refused request is answered and the model tries again)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from swiggy_core.engine import StreamFailed, TurnDone
from swiggy_core.errors import ErrorCode, SwiggyAssistantError
from swiggy_core.models import TurnResult
from swiggy_core.parsers.cards import latest_request
from swiggy_core.turn.approval_requests import (
    approval_request,
    error_info,
    refusal_message,
    reply_message,
    retire_on_cart_change,
)
from swiggy_core.turn.handle import TurnHandle
from swiggy_core.turn.model_turn import stream_turn

if TYPE_CHECKING:
    from swiggy_core.turn.session import ChatSession

# A refused approval request is answered and the model tries again, at most this often.
MAX_APPROVAL_ROUNDS = 3


def guarded(handle: TurnHandle, body: Callable[[TurnHandle], None]) -> None:
    """Any failure ends as a coded event, never as a silent thread death."""
    try:
        body(handle)
    except SwiggyAssistantError as error:
        handle.publish(StreamFailed(error=error_info(error.code, error.message)))
    except Exception as error:  # a bug must not leave the page waiting forever
        message = f"Something went wrong inside the app ({type(error).__name__})."
        handle.publish(StreamFailed(error=error_info(ErrorCode.INTERNAL, message)))


def model_turn(session: ChatSession, handle: TurnHandle) -> None:
    """Stream the model's reply; store it whatever happens; open an approval it asks for."""
    conversation_id = session.conversation_id
    for _ in range(MAX_APPROVAL_ROUNDS):
        result = session._stream_and_store(handle)
        retire_on_cart_change(session.store, session.user_id, session.vertical_id, result)
        request = approval_request(result)
        if request is None:
            return
        conversation_id = session.conversation_id
        assert conversation_id is not None  # the reply was stored in it
        answer = session.approval_steps().open_approval(request, conversation_id, handle)
        if answer is None:
            return  # a pending approval waits for the person
        session.store.append_messages(conversation_id, [refusal_message(request[0], answer)])


def stream_and_store(session: ChatSession, handle: TurnHandle) -> TurnResult:
    """One model reply, published as it streams and stored in a `finally`."""
    result = TurnResult()
    asked: str | None = None  # what search cards are ranked against
    try:
        messages = session.history()
        asked = latest_request(messages)
        events = stream_turn(
            session.client(),
            session.hooked_setup(),
            messages,
            now=session.moment() if session.moment is not None else None,
            manager=session.manager,
            retry_policy=session.retry_policy,
            sleep=session.sleep,
            should_stop=handle.stop_requested,
            on_abortable=handle.set_abort,
            scope=session.scope(),
        )
        for event in events:
            if isinstance(event, TurnDone):
                result = event.result
            else:
                handle.publish(event)
    except Exception:
        result.error = result.error or error_info(ErrorCode.INTERNAL, "The reply broke off.")
        raise
    finally:
        handle.usage = handle.usage + result.usage
        if result.stopped:
            handle.mark_cut()
        reply = reply_message(result, handle.id, session.vertical_id, asked)
        session.store.append_messages(session.conversation_id_or_new(), [reply])
    return result
