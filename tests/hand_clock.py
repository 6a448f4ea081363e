"""A clock a test moves by hand, in seconds since the epoch."""

from __future__ import annotations


class HandClock:
    def __init__(self, at: float) -> None:
        self.at = at

    def __call__(self) -> float:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += seconds
