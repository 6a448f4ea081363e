"""A fixture's factory that closes, at the end of the test, everything it opened."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar


class Closable(Protocol):
    def close(self) -> None: ...


T = TypeVar("T", bound=Closable)


@contextmanager
def closing_factory(open_one: Callable[..., T]) -> Iterator[Callable[..., T]]:
    """`open_one`, remembering each thing it opened; all of them are closed on exit."""
    opened: list[T] = []

    def _open(**options: Any) -> T:
        thing = open_one(**options)
        opened.append(thing)
        return thing

    try:
        yield _open
    finally:
        for thing in opened:
            thing.close()
