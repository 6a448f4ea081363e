"""Approvals: what a spending action acts on, and running it once after Confirm."""

from swiggy_core.approval.execute import Execution, execute, placed_ids, reconcile
from swiggy_core.approval.view import (
    ApprovalInvalid,
    ApprovalView,
    Prepared,
    Reader,
    approval_amount,
    prepare,
    recheck,
)

__all__ = [
    "ApprovalInvalid",
    "ApprovalView",
    "Execution",
    "Prepared",
    "Reader",
    "approval_amount",
    "execute",
    "placed_ids",
    "prepare",
    "recheck",
    "reconcile",
]
