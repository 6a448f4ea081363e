"""Test files are dealt out one folder at a time, and no test is lost or moved out of its
file (see tests/file_order.py)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from file_order import dealt_by_folder


@dataclass(frozen=True)
class Case:
    path: Path
    name: str


def _cases(*files: tuple[str, int]) -> list[Case]:
    return [Case(Path(file), f"{file}#{i}") for file, count in files for i in range(count)]


def test_folders_take_turns_and_each_files_tests_stay_together_in_order() -> None:
    collected = _cases(
        ("tests/e2e/test_a.py", 2), ("tests/e2e/test_b.py", 1),
        ("tests/ui/test_c.py", 1),
        ("tests/unit/test_d.py", 3), ("tests/unit/test_e.py", 1), ("tests/unit/test_f.py", 1),
    )  # fmt: skip

    dealt = dealt_by_folder(collected)

    assert [case.name for case in dealt] == [
        "tests/e2e/test_a.py#0", "tests/e2e/test_a.py#1",
        "tests/ui/test_c.py#0",
        "tests/unit/test_d.py#0", "tests/unit/test_d.py#1", "tests/unit/test_d.py#2",
        "tests/e2e/test_b.py#0",
        "tests/unit/test_e.py#0",
        "tests/unit/test_f.py#0",
    ]  # fmt: skip
