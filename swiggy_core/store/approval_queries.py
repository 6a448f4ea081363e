"""The approval ledger's rows and statements (built once, bound by name when they run).

Building a statement per call (and the cache key SQLAlchemy derives from it) cost more than
running it; a turn runs about ten of them. `approvals` holds the rules; this, the SQL.
"""

from __future__ import annotations

import functools
import json
import uuid
from typing import Any, Final

from sqlalchemy import Row, Select, Update, bindparam, or_, select, update

from swiggy_core.store.approval_states import ApprovalStatus
from swiggy_core.store.records import ApprovalRecord, NewApproval
from swiggy_core.store.schema import approvals, as_utc, utc_now
from swiggy_core.store.spending import ledger_columns

INSERT: Final = approvals.insert()
BY_ID: Final = select(approvals).where(approvals.c.id == bindparam("approval_id"))
OLDEST_FIRST: Final = (approvals.c.created_at, approvals.c.id)
OF_USER: Final = (
    select(approvals)
    .where(
        approvals.c.user_id == bindparam("user_id"),
        approvals.c.status.in_(bindparam("statuses", expanding=True)),
    )
    .order_by(*OLDEST_FIRST)
)
PENDING: Final = approvals.c.status == ApprovalStatus.PENDING.value
DUE: Final = select(approvals.c.id).where(PENDING, approvals.c.expires_at <= bindparam("moment"))
STALE: Final = select(approvals.c.id).where(
    PENDING, approvals.c.conversation_id == bindparam("chat_id")
)
STALE_OF_SERVER: Final = STALE.where(approvals.c.server_key == bindparam("server_key"))
# A chat's approvals in some statuses, with every one its open requests made (any status).
IN_STATUS_OR_ASKED: Final = (
    select(approvals)
    .where(
        approvals.c.conversation_id == bindparam("chat_id"),
        or_(
            approvals.c.status.in_(bindparam("statuses", expanding=True)),
            approvals.c.tool_use_id.in_(bindparam("uses", expanding=True)),
        ),
    )
    .order_by(*OLDEST_FIRST)
)


@functools.cache
def chat_query(by_status: bool, by_use: bool) -> Select[Any]:
    """A conversation's approvals, by status and by the tool use that asked, as wanted."""
    query = select(approvals).where(approvals.c.conversation_id == bindparam("chat_id"))
    if by_status:
        query = query.where(approvals.c.status.in_(bindparam("statuses", expanding=True)))
    if by_use:
        query = query.where(approvals.c.tool_use_id.in_(bindparam("uses", expanding=True)))
    return query.order_by(*OLDEST_FIRST)


@functools.cache
def move_statement(with_result: bool, with_note: bool, require_unexpired: bool) -> Update:
    """The compare-and-set UPDATE: to `to_status` only from one of `from_statuses`."""
    statement = update(approvals).where(
        approvals.c.id == bindparam("approval_id"),
        approvals.c.status.in_(bindparam("from_statuses", expanding=True)),
    )
    if require_unexpired:
        statement = statement.where(approvals.c.expires_at > bindparam("moved_at"))
    changes: dict[str, Any] = {
        "status": bindparam("to_status"),
        "updated_at": bindparam("moved_at"),
    }
    if with_result:
        changes.update(
            result=bindparam("new_result"),
            spend_day=bindparam("day"),
            spend_paise=bindparam("paise"),
        )
    if with_note:
        changes["note"] = bindparam("new_note")
    return statement.values(**changes)


def new_row(new: NewApproval) -> tuple[ApprovalRecord, dict[str, Any]]:
    """The pending record of `new` and its row."""
    now = utc_now()
    record = ApprovalRecord(
        user_id=new.user_id,
        conversation_id=new.conversation_id,
        vertical_id=new.vertical_id,
        server_key=new.server_key,
        tool=new.tool,
        arguments=new.arguments,
        digest=new.digest,
        view=new.view,
        tool_use_id=new.tool_use_id,
        expires_at=as_utc(new.expires_at),
        id=uuid.uuid4().hex,
        status=ApprovalStatus.PENDING,
        created_at=now,
        updated_at=now,
        result=None,
        note="",
    )
    stored = (column.name for column in approvals.columns if hasattr(record, column.name))
    row = {name: getattr(record, name) for name in stored}
    row.update(arguments=json.dumps(record.arguments), view=json.dumps(record.view))
    row.update(ledger_columns(record.result))
    return record, row


def record_of(row: Row[Any]) -> ApprovalRecord:
    """The record a stored row holds."""
    return ApprovalRecord(
        user_id=row.user_id,
        conversation_id=row.conversation_id,
        vertical_id=row.vertical_id,
        server_key=row.server_key,
        tool=row.tool,
        arguments=json.loads(row.arguments),
        digest=row.digest,
        view=json.loads(row.view),
        tool_use_id=row.tool_use_id,
        expires_at=row.expires_at,
        id=row.id,
        status=ApprovalStatus(row.status),
        created_at=row.created_at,
        updated_at=row.updated_at,
        result=None if row.result is None else json.loads(row.result),
        note=row.note,
    )
