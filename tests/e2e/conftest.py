"""Browser-test plumbing: how long the cold app took, printed at the end of the run."""

from __future__ import annotations

import pytest

_TIMINGS = pytest.StashKey[dict[str, float]]()


@pytest.fixture(scope="session")
def timings(pytestconfig: pytest.Config) -> dict[str, float]:
    """Seconds per named phase (server healthy, first page, ...), shown in the summary."""
    return pytestconfig.stash.setdefault(_TIMINGS, {})


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    recorded = config.stash.get(_TIMINGS, {})
    if recorded:
        phases = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in recorded.items())
        terminalreporter.write_line(f"browser timings: {phases}")
