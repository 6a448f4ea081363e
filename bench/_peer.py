"""The original demo's parser, bundled with its own esbuild and timed under `node`.

The demo (`KartikeShukla/swiggy-mcp-demo`, TypeScript) parses tool results in
`src/lib/parsers/orchestrator.ts`. `PeerParser` bundles that module with
`bench/_peer_harness.js` using the checkout's own `node_modules/.bin/esbuild` (installed
by its `npm ci`), starts one `node` process and asks it, one line at a time, to time a
corpus entry: the clock runs inside node, so the pipe costs nothing.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path
from types import TracebackType
from typing import Self

HARNESS = Path(__file__).with_name("_peer_harness.js")
ORCHESTRATOR = Path("src/lib/parsers/orchestrator.ts")
GET_IT = "git clone https://github.com/KartikeShukla/swiggy-mcp-demo <dir> && (cd <dir> && npm ci)"


class PeerError(RuntimeError):
    """The demo checkout cannot be bundled or run."""


class PeerParser:
    """`node` running the demo's parser over a corpus (a list of JSON entries)."""

    def __init__(self, checkout: Path, corpus: list[dict[str, object]], clock: str) -> None:
        self._checkout = checkout.resolve()
        self._corpus = corpus
        self._clock = clock
        self._folder = Path(tempfile.mkdtemp(prefix="peer-parser-"))
        self._node: subprocess.Popen[str] | None = None

    def __enter__(self) -> Self:
        bundle = self._bundle()
        corpus_file = self._folder / "corpus.json"
        corpus_file.write_text(json.dumps(self._corpus), encoding="utf-8")
        node = shutil.which("node")
        if node is None:
            raise PeerError("node is not installed")
        self._node = subprocess.Popen(
            [node, str(bundle), str(corpus_file), self._clock],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,  # the demo's logger warns on stderr
            text=True,
            bufsize=1,
        )
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._node is not None:
            self._node.kill()
            self._node.wait()
        shutil.rmtree(self._folder, ignore_errors=True)

    def per_call_us(self, index: int, reps: int) -> float:
        """Mean µs per call over `reps` back-to-back parses of entry `index`."""
        return float(self._ask(f"time {index} {reps}").split()[0])

    def kind(self, index: int) -> tuple[str, int]:
        """The card type the demo makes of entry `index`, and how many items it holds."""
        kind, count = self._ask(f"kind {index} 1").split()
        return kind, int(count)

    def _ask(self, line: str) -> str:
        node = self._node
        if node is None or node.stdin is None or node.stdout is None:
            raise PeerError("the peer is not running")
        node.stdin.write(line + "\n")
        node.stdin.flush()
        while True:
            answer = node.stdout.readline()
            if not answer:
                raise PeerError("node stopped")
            if answer.startswith("@@ "):
                return answer[3:].strip()

    def _bundle(self) -> Path:
        esbuild = self._checkout / "node_modules" / ".bin" / "esbuild"
        orchestrator = self._checkout / ORCHESTRATOR
        if not orchestrator.is_file() or not esbuild.exists():
            raise PeerError(
                f"{self._checkout} is not a built checkout of the original demo "
                f"(need {ORCHESTRATOR} and node_modules/.bin/esbuild). Get one with: {GET_IT}"
            )
        entry = self._folder / "entry.js"
        source = HARNESS.read_text(encoding="utf-8")
        entry.write_text(source.replace("PEER_PARSER", orchestrator.as_posix()), encoding="utf-8")
        bundle = self._folder / "peer.mjs"
        command = [
            str(esbuild),
            str(entry),
            "--bundle",
            "--platform=node",
            "--format=esm",
            "--target=node20",
            f"--tsconfig={self._checkout / 'tsconfig.app.json'}",
            "--define:import.meta.env.DEV=false",
            '--define:process.env.NODE_ENV="production"',
            f"--outfile={bundle}",
            "--log-level=error",
        ]
        built = subprocess.run(command, cwd=self._checkout, capture_output=True, text=True)
        if built.returncode != 0:
            raise PeerError(f"esbuild failed: {built.stderr.strip()[:2000]}")
        return bundle
