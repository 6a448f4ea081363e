"""The MCP SDK is used through its public API only, within the version range pyproject names.

A private module (`mcp.client._memory`) may change or vanish in any release; the range's
lower bound is the oldest SDK whose public API the app uses, the upper the next major.
"""

from __future__ import annotations

import ast
import tomllib
from importlib.metadata import version
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("swiggy_core", "swiggy_sandbox", "swiggy_ui", "swiggy_app", "app_pages")
SDK_PACKAGES = ("mcp", "mcp_types")


def mcp_requirement() -> Requirement:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    found = [Requirement(line) for line in project["dependencies"]]
    (mcp,) = [requirement for requirement in found if requirement.name == "mcp"]
    return mcp


def private_sdk_imports(source: str) -> list[str]:
    """Every import in `source` of an SDK module, or a name from one, that starts with `_`."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if _private(alias.name)]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if _private(node.module):
                found.append(node.module)
                continue
            names = [f"{node.module}.{alias.name}" for alias in node.names]
            found += [name for name in names if _private(name)]
    return found


def _private(dotted: str) -> bool:
    parts = dotted.split(".")
    return parts[0] in SDK_PACKAGES and any(part.startswith("_") for part in parts[1:])


def test_pyproject_bounds_mcp_below_the_next_major() -> None:
    specifiers = {spec.operator: Version(spec.version) for spec in mcp_requirement().specifier}

    assert set(specifiers) == {">=", "<"}, "mcp needs a tested range: mcp>=A,<B"
    assert specifiers["<"] == Version(f"{specifiers['>='].major + 1}")


def test_the_installed_mcp_lies_in_the_range_pyproject_names() -> None:
    requirement = mcp_requirement()

    assert requirement.specifier.contains(version("mcp")), (version("mcp"), str(requirement))


def test_no_module_of_the_app_imports_a_private_sdk_module() -> None:
    sources = [ROOT / "app.py"]
    for package in SCANNED:
        sources += sorted((ROOT / package).rglob("*.py"))
    offenders = {
        str(path.relative_to(ROOT)): found
        for path in sources
        if (found := private_sdk_imports(path.read_text()))
    }

    assert offenders == {}


def test_the_scan_finds_each_form_of_private_import() -> None:
    source = (
        "import mcp.client._memory\n"
        "from mcp.client._memory import InMemoryTransport\n"
        "from mcp.client import _transport\n"
        "from mcp import Client, ClientSession\n"
        "from mcp.client.stdio import stdio_client\n"
        "from ._private import nothing_of_the_sdk\n"
    )

    assert private_sdk_imports(source) == [
        "mcp.client._memory",
        "mcp.client._memory",
        "mcp.client._transport",
    ]
