"""CI runs every property at full strength; everyday runs use the light profile.

Each case imports the real root conftest in a fresh interpreter with a given environment
and reads what Hypothesis then holds as its default settings.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS_DIR = Path(__file__).resolve().parents[1]
CHOOSING_VARIABLES = ("CI", "HYPOTHESIS_PROFILE")
PROBE = (
    "import conftest, hypothesis, hypothesis_profiles\n"
    "print(hypothesis.settings.default.max_examples, hypothesis.settings.default.deadline,"
    " hypothesis_profiles.examples(600))"
)


def loaded_settings(**chosen: str) -> str:
    """What the root conftest loads with only `chosen` of the choosing variables set."""
    env = {name: value for name, value in os.environ.items() if name not in CHOOSING_VARIABLES}
    run = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=TESTS_DIR,
        env=env | chosen,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


# max_examples, deadline, and what a property asking for 600 in the full run gets.
FULL = "300 None 600"
QUICK = "25 None 50"


@pytest.mark.parametrize(
    ("chosen", "expected"),
    [
        ({"CI": "true"}, FULL),
        ({}, QUICK),
        ({"CI": "false"}, QUICK),
        ({"CI": "true", "HYPOTHESIS_PROFILE": "dev"}, QUICK),
    ],
)
def test_ci_loads_the_full_profile_and_elsewhere_the_light_one(
    chosen: dict[str, str], expected: str
) -> None:
    assert loaded_settings(**chosen) == expected
