"""The order test files are run in: one folder at a time, in turn.

scripts/test hands whole files to its workers in collection order (`--dist loadfile
--no-loadscope-reorder`). Dealt out as e2e, integration, redis, store, ui, unit, e2e, ...,
the long browser and subprocess files start early and side by side with quick ones:
neither all at once (a cold app server and a browser per worker at the same moment) nor
all at the end (a long file left running alone while the other workers sit idle).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, TypeVar


class InFile(Protocol):
    @property
    def path(self) -> Path: ...


Test = TypeVar("Test", bound=InFile)


def dealt_by_folder(tests: Sequence[Test]) -> list[Test]:
    """`tests` with each file's tests together and in order, the files taken one folder
    at a time in turn (each folder's files in their own order)."""
    files: dict[Path, list[Test]] = {}
    for test in tests:
        files.setdefault(test.path, []).append(test)
    folders: dict[Path, list[list[Test]]] = {}
    for path, in_file in files.items():
        folders.setdefault(path.parent, []).append(in_file)
    rounds = itertools.chain.from_iterable(itertools.zip_longest(*folders.values()))
    return [test for in_file in rounds if in_file for test in in_file]
