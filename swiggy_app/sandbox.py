"""Starting the sandbox for the app: its shop in the app's database, on its own thread.

Loading the sandbox (its MCP servers, the Messages emulator and its planner) takes
seconds, longer than drawing a page; so a page does not wait for it unless it needs it.
`SandboxStart.begin` starts it on a thread (the UI does so once the first page is drawn),
and whatever needs the running sandbox asks `services()`, which waits for it.
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING

from swiggy_core.faultpoints import delay_point

if TYPE_CHECKING:
    from swiggy_sandbox.runtime import SandboxServices
    from swiggy_sandbox.servers.summary import ResultForm

logger = logging.getLogger(__name__)


def start_sandbox(result_form: ResultForm, database_url: str) -> SandboxServices:
    """The sandbox, its shop in the app's database: every replica serves the same carts."""
    from sqlalchemy.exc import SQLAlchemyError

    from swiggy_sandbox.runtime import SandboxServices

    try:
        return SandboxServices.start(result_form=result_form, db_url=database_url)
    except SQLAlchemyError:
        # E.g. a database role that may not create tables: the demo still works, with a
        # shop of this process only, rather than not at all.
        logger.warning(
            "The sandbox shop could not open the app's database; it keeps its carts and "
            "orders in this process only.",
            exc_info=True,
        )
        return SandboxServices.start(result_form=result_form)


class SandboxStart:
    """One sandbox, started once on its own thread; `services()` waits until it runs."""

    def __init__(self, result_form: ResultForm, database_url: str) -> None:
        self._result_form: ResultForm = result_form
        self._database_url = database_url
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._done = threading.Event()
        self._services: SandboxServices | None = None
        self._error: BaseException | None = None
        self._stopped = False

    def __repr__(self) -> str:
        return f"SandboxStart(ready={self.ready}, services={self._services!r})"

    @property
    def ready(self) -> bool:
        """True once the sandbox runs (asking for it no longer waits)."""
        return self._services is not None

    @property
    def failed(self) -> bool:
        """True when the last start ended in an error (`services()` raises it, and tries
        again on the next call)."""
        with self._lock:
            return self._error is not None and self._done.is_set()

    def begin(self) -> None:
        """Start the sandbox on its own thread, unless it is running or starting already."""
        with self._lock:
            if self._services is not None or self._stopped:
                return
            if self._thread is not None and not self._done.is_set():
                return  # starting now
            self._done.clear()
            self._error = None
            self._thread = threading.Thread(target=self._start, name="sandbox-start", daemon=True)
            self._thread.start()

    def services(self) -> SandboxServices:
        """The running sandbox: started now if nobody has, waited for if it is starting.

        A start that failed raises its error here; the next call tries again.
        """
        while True:
            self.begin()
            self._done.wait()
            with self._lock:
                if self._services is not None:
                    return self._services
                if self._stopped:
                    raise RuntimeError("the sandbox was stopped")
                if self._error is not None:
                    raise self._error
            # Someone began a new attempt between the wake-up and the lock: wait for it.

    def wait(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for a start begun already; True once it has ended
        (running, or failed: `services()` then raises why)."""
        return self._done.wait(timeout)

    def stop(self) -> None:
        """Stop the sandbox (once it has started, if it is starting now)."""
        with self._lock:
            self._stopped = True
            thread = self._thread
        if thread is not None:
            thread.join()
        with self._lock:
            services, self._services = self._services, None
        if services is not None:
            services.stop()

    def _start(self) -> None:
        try:
            delay_point("sandbox.start")  # tests only: a start that is slow every time
            started = start_sandbox(self._result_form, self._database_url)
        except BaseException as error:  # handed to the waiters, who show it
            with self._lock:
                self._error = error
        else:
            with self._lock:
                self._services = started
        finally:
            self._done.set()
