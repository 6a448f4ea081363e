"""When the app starts: settle every confirmation a crash or deploy left running.

In the sandbox world the process can read any person's orders (it issues the sandbox
tokens), so each cut-off confirmation is settled at start, by reading orders, never by
calling again. A real Swiggy confirmation needs that person's own sign-in: it is settled
when they open the chat (or before their next message is answered). A chat a live turn
holds is left alone.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from swiggy_app.visitor import world_of
from swiggy_core.errors import SwiggyAssistantError
from swiggy_core.store import ChatStore

if TYPE_CHECKING:
    import anthropic

    from swiggy_sandbox.runtime import SandboxServices

logger = logging.getLogger(__name__)


def settle_stranded(
    store: ChatStore,
    sandbox: SandboxServices | None,
    client: Callable[[], anthropic.Anthropic],
) -> int:
    """Settle the sandbox world's cut-off confirmations; returns how many chats it looked at.

    `client` is never called to answer (settling only reads orders); a session needs one.
    """
    if sandbox is None:
        return 0
    chats: dict[str, tuple[str, str]] = {}
    for record in store.unsettled_approvals():
        if world_of(record.user_id) == "sandbox":
            chats[record.conversation_id] = (record.user_id, record.vertical_id)
    if not chats:  # the usual start: nothing was cut off, so the turn machinery stays unloaded
        return 0
    from swiggy_core.engine import TurnSetup
    from swiggy_core.mcp.manager import shared_manager
    from swiggy_core.turn.session import ChatSession

    for conversation_id, (user_id, vertical_id) in chats.items():
        setup = TurnSetup(
            vertical_id=vertical_id,
            model="",  # no model call: settling only reads orders
            swiggy_token=sandbox.token_for(user_id),
            server_urls=sandbox.server_urls,
            engine="local",
        )
        session = ChatSession(
            store=store,
            user_id=user_id,
            vertical_id=vertical_id,
            client=client,
            setup=setup,
            manager=shared_manager(),
            conversation_id=conversation_id,
        )
        try:
            session.settle_on_sight()
        except SwiggyAssistantError as error:  # this chat waits for its next opening
            logger.warning("a cut-off confirmation was not settled at start (%s)", error.code)
    return len(chats)
