"""A shop page's rerun at 50 turns, this tree against an earlier commit, interleaved.

Each trial is a fresh process per tree (A = the earlier commit, checked out to a temporary
worktree; B = this tree), alternating A, B, A, B…; each prints the median wall and CPU time
of 9 AppTest reruns of NutriCart holding a 50-turn grocery chat. Prints each tree's median
over the trials and the verdict: met when this tree's CPU median is no more than the
earlier one's (a refactor must not make reruns dearer).

    python bench/rerun_against.py d2298bd [trials]
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ONE_TREE = Path(__file__).with_name("_rerun_once.py")
TRIALS = 5


def _run_once(tree: Path) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree), "SWIGGY_HEALTH_POLL": "off"}
    done = subprocess.run(
        [sys.executable, str(ONE_TREE)],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"{tree}: the page failed:\n{done.stderr[-2000:]}")
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def main() -> None:
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    commit, trials = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else TRIALS
    with tempfile.TemporaryDirectory() as folder:
        earlier = Path(folder) / "earlier"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach",
                        str(earlier), commit], check=True)  # fmt: skip
        try:
            trees = {f"A {commit}": earlier, "B this tree": ROOT}
            found: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
            for trial in range(trials):
                for name, tree in trees.items():
                    figures = _run_once(tree)
                    found[name].append(figures)
                    print(f"trial {trial}  {name:20s} wall {figures['wall']:6.1f} ms  "
                          f"cpu {figures['cpu']:6.1f} ms", flush=True)  # fmt: skip
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(earlier)], check=False)  # fmt: skip
    medians = {
        name: statistics.median(f["cpu"] for f in figures) for name, figures in found.items()
    }
    for name, median in medians.items():
        print(f"{name}: {median:.1f} ms CPU per rerun at 50 turns (median of {trials} trials)")
    before, after = medians.values()
    print(f"this tree: {after:.1f} ms   target ≤ {before:.1f} ms (the earlier commit, same run)")
    print("met" if after <= before else "MISSED")


if __name__ == "__main__":
    main()
