"""The pages load no SDK or driver they do not use: each loads when it is used, not before.

A cold shop page paid for 4,777 modules, 44 % of them the anthropic SDK, and for redis and
psycopg although the defaults use neither. Each probe runs in a fresh interpreter, imports
what a page imports, and reports which of the watched packages it holds; then it uses one
(a model client, a Redis URL, a PostgreSQL URL, a sign-in) and reports again. SQLAlchemy's
PostgreSQL dialect is watched too: an SQLite store never needs it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WATCHED = (
    "anthropic",
    "redis",
    "psycopg",
    "sqlalchemy.dialects.postgresql",
    "requests_oauthlib",
    "httpx2",
    "mcp",
    "msgspec",
)
# What `streamlit run app.py` imports for Home and for a shop page, before a turn.
FIRST_PAGE = (
    "swiggy_core.logsafe",
    "swiggy_core.verticals",
    "swiggy_ui.home",
    "swiggy_ui.runtime",
    "swiggy_ui.starting_page",
)
SHOP_PAGE = (*FIRST_PAGE, "swiggy_ui.vertical_page", "swiggy_ui.connections")


def _loaded(imports: tuple[str, ...], then: str = "pass") -> tuple[list[str], list[str]]:
    """The watched packages loaded after `imports`, and after running `then` as well."""
    probe = "\n".join(
        [
            "import json, sys",
            *(f"import {name}" for name in imports),
            f"watched = {WATCHED!r}",
            "before = [name for name in watched if name in sys.modules]",
            then,
            "after = [name for name in watched if name in sys.modules]",
            "print(json.dumps([before, after]))",
        ]
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    before, after = json.loads(done.stdout.strip().splitlines()[-1])
    return before, after


def test_home_and_a_shop_page_starting_load_no_sdk_driver_or_http_client() -> None:
    before, _after = _loaded(FIRST_PAGE)
    assert before == []


def test_the_full_shop_page_loads_the_mcp_client_but_no_model_sdk_or_unused_driver() -> None:
    before, _after = _loaded(SHOP_PAGE)
    # The header reads the saved addresses through MCP; the rest waits for its use.
    assert [name for name in before if name != "mcp" and name != "httpx2"] == []


def test_the_model_sdk_loads_with_the_first_client() -> None:
    use = "from swiggy_core.engine import make_client\nmake_client('sk-test', 'http://127.0.0.1:9')"
    before, after = _loaded(SHOP_PAGE, use)
    assert "anthropic" not in before
    assert "anthropic" in after


def test_redis_loads_only_when_a_redis_url_is_used() -> None:
    use = (
        "from swiggy_core.shared_state import RedisState, open_state\n"
        "open_state('')\n"  # no $REDIS_URL: memory, no driver
        "assert 'redis' not in sys.modules\n"
        "RedisState('redis://127.0.0.1:9/0')"  # a client is made; nothing connects yet
    )
    before, after = _loaded(SHOP_PAGE, use)
    assert "redis" not in before
    assert "redis" in after


def test_psycopg_loads_only_for_a_postgresql_url() -> None:
    use = (
        "from swiggy_core.store.database import Database\n"
        "Database('sqlite://', busy_timeout_ms=1000)\n"
        "assert 'psycopg' not in sys.modules\n"
        "Database('postgresql://app@127.0.0.1:9/chats', busy_timeout_ms=1000)"  # no connection
    )
    before, after = _loaded(SHOP_PAGE, use)
    assert "psycopg" not in before and "sqlalchemy.dialects.postgresql" not in before
    assert "psycopg" in after and "sqlalchemy.dialects.postgresql" in after


def test_a_postgresql_fault_is_still_told_apart_once_the_driver_is_loaded() -> None:
    # faults.py no longer imports psycopg: it finds the driver's errors once it has loaded.
    use = (
        "import psycopg\n"
        "from swiggy_core.errors import ErrorCode\n"
        "from swiggy_core.store.faults import StoreError, translated_faults\n"
        "try:\n"
        "    with translated_faults():\n"
        "        raise psycopg.OperationalError('connection refused')\n"
        "except StoreError as error:\n"
        "    assert error.code == ErrorCode.STORE_UNREACHABLE, error.code\n"
        "else:\n"
        "    raise AssertionError('not translated')"
    )
    before, after = _loaded(FIRST_PAGE, use)
    assert "psycopg" not in before
    assert "psycopg" in after


def test_the_sign_in_libraries_load_with_a_sign_in() -> None:
    use = (
        "from swiggy_core.oauth.exchange import authorize_url\n"
        "authorize_url('https://mcp.swiggy.com/auth/authorize', client_id='swiggy-mcp', "
        "redirect_uri='http://localhost:8501/callback', state='s' * 43, verifier='v' * 43, "
        "resource='https://mcp.swiggy.com/im')"
    )
    before, after = _loaded(FIRST_PAGE, use)
    assert "requests_oauthlib" not in before
    assert "requests_oauthlib" in after


def test_what_a_page_draws_before_the_app_loads_needs_none_of_it() -> None:
    # A new process's first page draws its title and chat input (Home: the offline demo's
    # note) from these modules alone, before the store, the card models or the sandbox.
    probe = (
        "import sys\n"
        "import swiggy_core.logsafe, swiggy_core.verticals, swiggy_ui.home\n"
        "heavy = ('pydantic', 'sqlalchemy', 'PIL', 'swiggy_core.store', 'swiggy_core.models',"
        " 'swiggy_ui.runtime', 'swiggy_app', 'swiggy_sandbox', 'mcp', 'anthropic')\n"
        "print(','.join(name for name in heavy if name in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == ""
