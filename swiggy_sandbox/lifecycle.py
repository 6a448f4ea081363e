"""The `with` protocol the sandbox's services share: stopped on the way out, however it ends."""

from __future__ import annotations

from abc import ABC, abstractmethod
from types import TracebackType
from typing import Self


class StopsOnExit(ABC):
    """A service already running when the `with` block opens; stopped when it closes."""

    @abstractmethod
    def stop(self) -> None:
        """Stop the service; safe to call twice."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


class StartsOnEnter(StopsOnExit):
    """A service the `with` block starts, and stops when it closes."""

    @abstractmethod
    def start(self) -> Self:
        """Start the service and return it once it is ready."""

    def __enter__(self) -> Self:
        return self.start()
