"""A delay point waits exactly as long as SWIGGY_FAULT_DELAY gives its own name, and not at all
otherwise (unset, another point, or a value that is not a number)."""

from __future__ import annotations

import pytest

from swiggy_core import faultpoints
from swiggy_core.faultpoints import FAULT_DELAY_ENV, delay_point


@pytest.mark.parametrize(
    ("setting", "waited"),
    [
        ("sandbox.start=10", [10.0]),
        ("confirm.after_call=3, sandbox.start=2.5", [2.5]),
        ("confirm.after_call=3", []),
        ("sandbox.start=soon", []),
        ("", []),
    ],
)
def test_a_delay_point_waits_only_as_long_as_it_is_told(monkeypatch, setting, waited) -> None:
    slept: list[float] = []
    monkeypatch.setattr(faultpoints.time, "sleep", slept.append)
    monkeypatch.setenv(FAULT_DELAY_ENV, setting)
    delay_point("sandbox.start")
    assert slept == waited
