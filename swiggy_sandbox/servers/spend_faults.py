"""A fault a crash test can ask of the sandbox: hold a spending tool's answer after the order
or booking is stored, as a real server that placed it and then went quiet would.

`SWIGGY_SANDBOX_STALL_AFTER_SPEND=SECONDS` makes checkout, place_food_order and book_table
wait that long (once the order is in the shop's database) before answering, so a test can
kill the app "during the call" and check that the order is settled, never placed twice.
"""

from __future__ import annotations

import os
import time
from typing import Final

STALL_AFTER_SPEND_ENV: Final = "SWIGGY_SANDBOX_STALL_AFTER_SPEND"


def stall_after_spend() -> None:
    """Wait as configured (nothing when unset or not a number)."""
    raw = os.environ.get(STALL_AFTER_SPEND_ENV, "").strip()
    try:
        seconds = float(raw) if raw else 0.0
    except ValueError:
        return
    if seconds > 0:
        time.sleep(seconds)
