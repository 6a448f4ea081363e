"""AppTest fixtures: the real app, the in-process sandbox, a scripted emulator for faults."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from sandbox_clock import FIXED_SANDBOX_NOW, SANDBOX_NOW_ENV
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.testing.v1 import AppTest, app_test
from uihelpers import new_app

from swiggy_sandbox.emulator import EmulatorServer, ScriptedBrain
from swiggy_sandbox.servers.summary import RESULT_FORMS

ROOT = Path(__file__).resolve().parents[2]
# The app's sandbox lives for the whole test process: its clock is frozen on a known day.
os.environ.setdefault(SANDBOX_NOW_ENV, FIXED_SANDBOX_NOW)


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path, monkeypatch):
    """Nothing configured, and a fresh chat database per test."""
    for name in (
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL",
        "ANTHROPIC_MODEL",
        "SWIGGY_ENGINE",
        "SWIGGY_TOKEN",
        "SWIGGY_SANDBOX",
        "SWIGGY_RESULT_FORM",
        "SWIGGY_SANDBOX_RESULT_FORM",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SWIGGY_DATABASE_URL", f"sqlite:///{tmp_path / 'chats.db'}")
    # No background health probes: a real-Swiggy test would otherwise reach mcp.swiggy.com.
    monkeypatch.setenv("SWIGGY_HEALTH_POLL", "off")
    monkeypatch.chdir(ROOT)


@pytest.fixture
def app() -> AppTest:
    return new_app()


@pytest.fixture(params=RESULT_FORMS)
def result_form(request: pytest.FixtureRequest, monkeypatch, tmp_path) -> Iterator[str]:
    """A main flow runs against the sandbox in each result form; summary picks the local
    engine under `auto` (the app calls the tools and keeps structuredContent).

    Afterwards the stored tool results show which form the flow really went through.
    """
    monkeypatch.setenv("SWIGGY_SANDBOX_RESULT_FORM", request.param)
    yield str(request.param)
    results = _stored_tool_results(tmp_path / "chats.db")
    assert results, "the flow stored no tool result"
    two_blocks = [texts for texts in results if len(texts) == 2]
    if request.param == "envelope":
        assert not two_blocks, "the envelope form has no structuredContent to keep"
        return
    assert two_blocks, "no result kept its structuredContent"
    for summary, document in two_blocks:
        assert isinstance(json.loads(document), dict)
        assert not summary.lstrip().startswith("{"), "the first block is the summary prose"


def _stored_tool_results(path: Path) -> list[list[str]]:
    """The text blocks of every stored MCP tool result."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        bodies = [json.loads(row[0]) for row in db.execute("SELECT body FROM messages")]
    return [
        [part["text"] for part in block["content"]]
        for body in bodies
        if isinstance(body.get("content"), list)
        for block in body["content"]
        if block.get("type") == "mcp_tool_result" and isinstance(block.get("content"), list)
    ]


@pytest.fixture(scope="session")
def scripted_emulator() -> Iterator[EmulatorServer[ScriptedBrain]]:
    with EmulatorServer() as server:
        yield server


@pytest.fixture
def scripted(scripted_emulator, monkeypatch) -> Iterator[EmulatorServer[ScriptedBrain]]:
    # The scripted model plays Anthropic's connector, also for real Swiggy, whose results it
    # makes up as envelopes: say so, or `auto` would run the tools here (on mcp.swiggy.com).
    monkeypatch.setenv("SWIGGY_RESULT_FORM", "envelope")
    scripted_emulator.brain.clear()
    scripted_emulator.requests.clear()
    yield scripted_emulator


class RecordingFiles(MediaFileManager):
    """The run's media manager, kept so a test can press a download as a browser would."""

    latest: MediaFileManager | None = None

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        RecordingFiles.latest = self


@pytest.fixture
def downloads(monkeypatch):
    monkeypatch.setattr(app_test, "MediaFileManager", RecordingFiles)

    def fetch(button) -> str:
        stored = _pressed(button)
        return stored.content.decode() if isinstance(stored.content, bytes) else stored.content

    return fetch


@pytest.fixture
def download_names(downloads):
    """The file name a browser would save a pressed download button's file under."""

    def name(button) -> str:
        return str(_pressed(button).filename)

    return name


def _pressed(button):
    manager = RecordingFiles.latest
    assert manager is not None
    url = manager.execute_deferred(button.proto.deferred_file_id)
    stored = manager.read_file(url.rsplit("/", 1)[-1].split(".")[0])
    assert stored is not None
    return stored
