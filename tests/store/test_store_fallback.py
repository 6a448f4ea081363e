"""The default database file cannot be written: a temporary database stands in (E-4106).

A working directory that takes no new file is made for real. Root writes into a read-only
folder anyway (CAP_DAC_OVERRIDE), so as root the check runs in a child process whose
capability bounding set lacks the powers that bypass file modes; the child first proves
that it really cannot write there.
"""

from __future__ import annotations

import ctypes
import json
import os
import socket
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from swiggy_core.constants import DEFAULT_DATABASE_URL
from swiggy_core.errors import ErrorCode
from swiggy_core.store import ChatStore, StoreError
from swiggy_core.store.fallback import (
    TEMPORARY_DATABASE_NAME,
    open_chat_store,
    temporary_database_url,
)

# linux/prctl.h and linux/capability.h: the capabilities that let root ignore file modes.
PR_CAPBSET_DROP = 24
MODE_BYPASSING_CAPABILITIES = (1, 2, 3)  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER
CHILD_TIMEOUT_SECONDS = 120

CHILD = textwrap.dedent(
    """
    import json, os, sys
    from swiggy_core.store import StoreError
    from swiggy_core.store.fallback import open_chat_store

    try:
        open("probe", "w").close()
        sys.exit("this folder can be written: the test proves nothing")
    except PermissionError:
        pass
    store, temporary = open_chat_store(sys.argv[1], is_default=True)
    chat = store.create_conversation("alice", "food")
    try:
        open_chat_store(sys.argv[1], is_default=False)
        chosen = None
    except StoreError as error:
        chosen = str(error.code)
    print(json.dumps({"temporary": temporary, "url": str(store.engine.url), "chat": chat,
                      "chosen": chosen}))
    """
)


def _without_root_powers() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in MODE_BYPASSING_CAPABILITIES:
        if libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


@pytest.fixture
def temporary_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The system's temporary directory, for this test only."""
    where = tmp_path / "tmp"
    where.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(where))
    return where


def test_a_read_only_working_directory_falls_back_to_a_temporary_database(
    tmp_path: Path, temporary_dir: Path
) -> None:
    workdir = tmp_path / "app"
    workdir.mkdir()
    workdir.chmod(0o555)
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, DEFAULT_DATABASE_URL],
            cwd=workdir,
            env={**os.environ, "TMPDIR": str(temporary_dir)},
            preexec_fn=_without_root_powers if os.geteuid() == 0 else None,
            capture_output=True,
            text=True,
            timeout=CHILD_TIMEOUT_SECONDS,
        )
    finally:
        workdir.chmod(0o755)
    assert done.returncode == 0, done.stderr[-2000:]
    outcome = json.loads(done.stdout.strip().splitlines()[-1])
    assert outcome["temporary"] is True
    assert outcome["url"] == f"sqlite:///{temporary_dir / TEMPORARY_DATABASE_NAME}"
    assert outcome["chosen"] == str(ErrorCode.STORE_MISSING)  # a chosen URL fails loudly
    assert list(workdir.iterdir()) == []
    store = ChatStore(temporary_database_url())
    try:
        assert [c.id for c in store.list_conversations("alice", "food")] == [outcome["chat"]]
    finally:
        store.close()


def test_a_default_file_in_a_folder_that_is_a_file_falls_back(
    tmp_path: Path, temporary_dir: Path
) -> None:
    (tmp_path / "not-a-folder").write_text("a regular file")
    url = f"sqlite:///{tmp_path / 'not-a-folder' / 'swiggy_assistant.db'}"
    first, temporary = open_chat_store(url, is_default=True)
    second, again = open_chat_store(url, is_default=True)
    try:
        assert temporary and again
        chat = first.create_conversation("alice", "food")
        # One stable file: every session of the process sees the same chats.
        assert [c.id for c in second.list_conversations("alice", "food")] == [chat]
        assert (temporary_dir / TEMPORARY_DATABASE_NAME).is_file()
    finally:
        first.close()
        second.close()
    with pytest.raises(StoreError) as chosen:
        open_chat_store(url, is_default=False)
    assert chosen.value.code is ErrorCode.STORE_MISSING


def test_a_chosen_postgres_url_is_never_replaced(temporary_dir: Path) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"postgresql://alice@127.0.0.1:{port}/chats"
    for is_default in (False, True):
        with pytest.raises(StoreError) as caught:
            open_chat_store(url, is_default=is_default)
        assert caught.value.code is ErrorCode.STORE_UNREACHABLE
    assert list(temporary_dir.iterdir()) == []


def test_a_writable_default_is_used_and_a_broken_one_is_not_hidden(
    tmp_path: Path, temporary_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    store, temporary = open_chat_store(DEFAULT_DATABASE_URL, is_default=True)
    store.close()
    assert not temporary and (tmp_path / "swiggy_assistant.db").is_file()
    # A file that is there but is not a database is a fault to fix, not to paper over.
    (tmp_path / "swiggy_assistant.db").write_bytes(b"not SQLite " * 200)
    with pytest.raises(StoreError) as caught:
        open_chat_store(DEFAULT_DATABASE_URL, is_default=True)
    assert caught.value.code is ErrorCode.STORE_FAILED
    assert list(temporary_dir.iterdir()) == []
