"""Named points in a confirmation where a test can freeze the process before killing it.

`SWIGGY_FAULT_PAUSE=confirm.after_call` makes a process that reaches that point stop there
(sleeping, never returning), so a crash test can SIGKILL it at exactly that step and check
what another process makes of the state it left. Unset, a pause point does nothing.
"""

from __future__ import annotations

import logging
import os
import time
from typing import Final

FAULT_PAUSE_ENV: Final = "SWIGGY_FAULT_PAUSE"
_NAP_SECONDS: Final = 3600.0

logger = logging.getLogger(__name__)


def pause_point(name: str) -> None:
    """Stop here for good when `SWIGGY_FAULT_PAUSE` names this point (crash tests only)."""
    wanted = {part.strip() for part in os.environ.get(FAULT_PAUSE_ENV, "").split(",")}
    if name not in wanted:
        return
    logger.warning("paused at fault point %s until the process is killed", name)
    while True:
        time.sleep(_NAP_SECONDS)


FAULT_DELAY_ENV: Final = "SWIGGY_FAULT_DELAY"


def delay_point(name: str) -> None:
    """Wait here for as long as `SWIGGY_FAULT_DELAY` gives this point ("sandbox.start=10"),
    so a test sees a slow step every time however fast the machine is. Unset: no wait."""
    for part in os.environ.get(FAULT_DELAY_ENV, "").split(","):
        point, _, seconds = part.partition("=")
        if point.strip() == name:
            try:
                wait = float(seconds)
            except ValueError:
                return
            logger.warning("delayed at fault point %s for %.1f s", name, wait)
            time.sleep(max(wait, 0.0))
            return
