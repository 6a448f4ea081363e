"""AppTest fixtures: the real app, the in-process sandbox, a scripted emulator for faults."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from uihelpers import new_app

from swiggy_sandbox.emulator import EmulatorServer, ScriptedBrain

ROOT = Path(__file__).resolve().parents[2]
# The app's sandbox lives for the whole test process: freeze its clock at 1 pm IST today so
# restaurants are open and "tomorrow" means the same date to the planner and the shop.
IST = timezone(timedelta(hours=5, minutes=30))
os.environ.setdefault(
    "SWIGGY_SANDBOX_NOW",
    datetime.now(IST).replace(hour=13, minute=0, second=0, microsecond=0).isoformat(),
)


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
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SWIGGY_DATABASE_URL", f"sqlite:///{tmp_path / 'chats.db'}")
    monkeypatch.chdir(ROOT)


@pytest.fixture
def app() -> AppTest:
    return new_app()


@pytest.fixture(scope="session")
def scripted_emulator() -> Iterator[EmulatorServer[ScriptedBrain]]:
    with EmulatorServer() as server:
        yield server


@pytest.fixture
def scripted(scripted_emulator) -> Iterator[EmulatorServer[ScriptedBrain]]:
    scripted_emulator.brain.clear()
    scripted_emulator.requests.clear()
    yield scripted_emulator
