"""The layers import one way (UI → app → core; the sandbox beside them), with no cycle.

Every import counts: at module level and inside functions (a function-level import is
still an edge, only a later one). Imports under `if TYPE_CHECKING:` never run and are left
out. `from package import name` is an edge to the submodule when `name` is one.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("swiggy_core", "swiggy_app", "swiggy_ui")
# What each layer may import of the app's own packages.
ALLOWED = {
    "swiggy_core": {"swiggy_core"},
    "swiggy_app": {"swiggy_core", "swiggy_app", "swiggy_sandbox"},
    "swiggy_ui": {"swiggy_core", "swiggy_app", "swiggy_ui"},
}
OWN = {"swiggy_core", "swiggy_app", "swiggy_ui", "swiggy_sandbox"}


def _modules() -> dict[str, Path]:
    found = {}
    for layer in LAYERS:
        for path in ROOT.joinpath(layer).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _runtime_imports(path: Path, module: str) -> Iterator[str]:
    tree = ast.parse(path.read_text())
    type_only = {
        id(node)
        for branch in ast.walk(tree)
        if isinstance(branch, ast.If) and "TYPE_CHECKING" in ast.unparse(branch.test)
        for node in ast.walk(branch)
    }
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            yield from (f"{base}.{alias.name}" for alias in node.names)


def _graph() -> dict[str, set[str]]:
    modules = _modules()

    def resolve(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {module: set() for module in modules}
    for module, path in modules.items():
        for name in _runtime_imports(path, module):
            target = resolve(name)
            if target is not None and target != module:
                graph[module].add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return groups


def test_no_module_of_the_core_the_app_or_the_ui_imports_itself_round_a_cycle() -> None:
    assert _cycles(_graph()) == []


def test_the_cycle_finder_finds_a_cycle_through_a_function_level_import() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_each_layer_imports_only_the_layers_below_it() -> None:
    modules = _modules()
    wrong = []
    for module, path in modules.items():
        layer = module.split(".")[0]
        for name in _runtime_imports(path, module):
            top = name.split(".")[0]
            if top in OWN and top not in ALLOWED[layer]:
                wrong.append(f"{module} imports {name}")
    assert wrong == []


def test_neither_the_core_nor_the_app_imports_streamlit() -> None:
    found = [
        f"{module} imports {name}"
        for module, path in _modules().items()
        if not module.startswith("swiggy_ui")
        for name in _runtime_imports(path, module)
        if name.split(".")[0] == "streamlit"
    ]
    assert found == []
