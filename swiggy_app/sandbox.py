"""Starting the sandbox for the app: its shop in the app's database, or in this process."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

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
