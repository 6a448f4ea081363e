"""Database faults on the page: a coded banner (E-41xx), and the typed text is kept."""

from __future__ import annotations

import sqlite3
import tempfile

from uihelpers import buttons, new_app, open_page, texts

from swiggy_core.store import ChatStore
from swiggy_core.store.fallback import TEMPORARY_DATABASE_NAME
from swiggy_ui import runtime

TYPED = "find high protein snacks please"


def _errors(at) -> str:
    """The banners' words and, under them, their codes for support."""
    return texts(at.error) + texts(at.warning) + texts(at.caption)


def _seeded(path) -> None:
    ChatStore(f"sqlite:///{path}").close()  # a database with its tables, as after first use


def test_a_read_only_database_gives_a_coded_banner_and_keeps_the_text(tmp_path, monkeypatch):
    path = tmp_path / "ro.db"
    _seeded(path)
    monkeypatch.setenv("SWIGGY_DATABASE_URL", f"sqlite:///file:{path}?mode=ro&uri=true")
    at = open_page(new_app(), "nutricart")
    assert not at.exception
    at.chat_input[0].set_value(TYPED).run()
    assert not at.exception
    assert "E-4102" in _errors(at)
    assert TYPED in texts(at.markdown)  # kept on the page
    assert buttons(at, "Send again")


def test_a_locked_database_gives_a_coded_banner_and_keeps_the_text(tmp_path, monkeypatch):
    path = tmp_path / "locked.db"
    _seeded(path)
    monkeypatch.setenv("SWIGGY_DATABASE_URL", f"sqlite:///{path}")
    at = open_page(new_app(), "nutricart")
    holder = sqlite3.connect(path, timeout=0, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        at.chat_input[0].set_value(TYPED).run()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert not at.exception
    assert "E-4103" in _errors(at)
    assert TYPED in texts(at.markdown)
    # Once the lock is gone, Send again delivers the very same words.
    buttons(at, "Send again")[0].click().run()
    assert not at.exception
    assert TYPED in texts(at.chat_message[0].markdown)
    assert not buttons(at, "Send again")


def test_a_deleted_database_file_gives_a_coded_banner_and_keeps_the_text(tmp_path, monkeypatch):
    path = tmp_path / "gone.db"
    monkeypatch.setenv("SWIGGY_DATABASE_URL", f"sqlite:///{path}")
    at = open_page(new_app(), "nutricart")
    at.chat_input[0].set_value("show my cart").run()
    assert not at.exception and len(at.chat_message) == 2
    for leftover in tmp_path.glob("gone.db*"):
        leftover.unlink()
    at.chat_input[0].set_value(TYPED).run()
    assert not at.exception
    assert "E-4104" in _errors(at)
    assert TYPED in texts(at.markdown)


def test_an_unwritable_default_database_is_replaced_by_a_temporary_one_with_a_banner(
    tmp_path, monkeypatch
):
    monkeypatch.delenv("SWIGGY_DATABASE_URL")  # the person chose no database: the default
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    workdir = tmp_path / "app"
    workdir.mkdir()
    # The default file cannot be created: its name leads into a folder that does not exist.
    # (A read-only folder would not stop root, whom the tests may run as.)
    (workdir / "swiggy_assistant.db").symlink_to(tmp_path / "gone" / "swiggy_assistant.db")
    monkeypatch.chdir(workdir)
    try:
        at = open_page(new_app(), "nutricart")
        assert not at.exception
        assert "E-4106" in texts(at.caption) and "E-4104" not in _errors(at)
        at.chat_input[0].set_value("show my cart").run()
        assert not at.exception and len(at.chat_message) == 2
        assert not buttons(at, "Send again")
        assert (temporary / TEMPORARY_DATABASE_NAME).is_file()
        at.switch_page("app_pages/home.py").run()
        assert not at.exception and "E-4106" in texts(at.caption)  # on every page
    finally:
        runtime._store.clear()  # the next test's default would otherwise be this one
