"""Every setting the app reads is documented, in README.md and in secrets.toml.example.

The names are found in the source, not listed here: a new `*_ENV` constant, a new entry
in `settings.ENV_NAMES` or a new `os.environ.get("NAME")` that is not documented fails.
"""

from __future__ import annotations

import re
from pathlib import Path

from swiggy_core.settings import ENV_NAMES

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("swiggy_core", "swiggy_ui", "swiggy_sandbox")
# `SOMETHING_ENV = "NAME"` or `SOMETHING_ENV_VAR: Final = "NAME"` at the start of a line.
_ENV_CONSTANT_RE = re.compile(r'^\w*_ENV(?:_VAR)?\b(?::\s*\w+)?\s*=\s*"([A-Z][A-Z0-9_]*)"', re.M)
# `os.environ.get("NAME")`, `os.environ["NAME"]`, `os.getenv("NAME")`.
_ENV_LITERAL_RE = re.compile(r'(?:environ(?:\.get)?\(|environ\[|getenv\()\s*"([A-Z][A-Z0-9_]*)"')
# Streamlit's OIDC sign-in, read by st.login from the [auth] table.
AUTH_KEYS = ("[auth]", "redirect_uri", "cookie_secret", "client_id", "client_secret",
             "server_metadata_url")  # fmt: skip


def settings_read() -> set[str]:
    """Every environment or secrets name the app's packages read."""
    names = set(ENV_NAMES.values())
    for package in PACKAGES:
        for source in (ROOT / package).rglob("*.py"):
            text = source.read_text(encoding="utf-8")
            names |= set(_ENV_CONSTANT_RE.findall(text)) | set(_ENV_LITERAL_RE.findall(text))
    return names


def test_every_setting_is_in_the_readme_and_the_secrets_example() -> None:
    found = settings_read()
    # The scan sees settings read through a constant and through settings.py alike.
    assert {"SWIGGY_DATABASE_URL", "REDIS_URL", "SWIGGY_HEALTH_POLL"} <= found
    assert {"SWIGGY_SANDBOX_NOW", "SWIGGY_SANDBOX_AUTH_AUTO_APPROVE"} <= found
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    example = (ROOT / ".streamlit" / "secrets.toml.example").read_text(encoding="utf-8")
    settings_table = readme.split("\n## Settings\n", 1)[-1].split("\n## ", 1)[0]
    for name in sorted(found):
        assert f"`{name}`" in settings_table, f"{name} is not in README.md's Settings table"
        assert re.search(rf"^#? ?{name} =", example, re.M), f"{name} is not in the example"
    for key in AUTH_KEYS:
        assert key in settings_table and key in example, key


def test_the_readme_warns_where_sqlite_does_not_last_and_what_replicas_need() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    settings_table = readme.split("\n## Settings\n", 1)[-1].split("\n## ", 1)[0]
    assert "Streamlit Community Cloud" in settings_table and "reboot" in settings_table
    assert "replicas" in settings_table and "PostgreSQL" in settings_table


def test_sqlite_side_files_are_ignored_by_git() -> None:
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    assert {"*.db", "*.db-wal", "*.db-shm", "*.db-journal"} <= set(ignored)
