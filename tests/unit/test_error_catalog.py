"""The code catalog (swiggy_core.errors) holds every code once, each code is raised as the
class of its range, and no code in it is unused."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from collections import Counter
from functools import cache
from pathlib import Path
from types import ModuleType

import swiggy_core
from swiggy_core.errors import (
    CODE_RANGES,
    DEFAULT_MESSAGES,
    ErrorCode,
    OAuthError,
    PendingSignInsUnreachable,
    StorageError,
    SwiggyAssistantError,
    code_range,
)

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "swiggy_core" / "errors.py"
# The code people run (tests may name codes freely, and do not count as a use).
APP_SOURCES = [
    ROOT / "app.py",
    *sorted(
        path
        for folder in ("swiggy_core", "swiggy_ui", "swiggy_sandbox", "app_pages")
        for path in (ROOT / folder).rglob("*.py")
    ),
]
CODE_RE = re.compile(r"\bE-\d{4}\b")
# Exceptions that never reach a person: each is caught and turned into a coded error.
INTERNAL_SIGNALS = {
    "swiggy_core.engine.stream._DeadlineExceeded",  # becomes E-2005
    "swiggy_core.engine.stream._Stopped",  # the person pressed Stop: no error at all
    "swiggy_core.mcp.config_rules.EntryError",  # becomes E-3201 naming the line
    "swiggy_core.mcp.config_text.TextError",  # becomes E-3201 naming the line
}


@cache
def _trees() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(), str(path)) for path in APP_SOURCES}


def _error_code_name(node: ast.AST) -> str | None:
    """NAME for an `ErrorCode.NAME` expression."""
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "ErrorCode"
    ):
        return node.attr
    return None


@cache
def _modules() -> list[ModuleType]:
    return [
        importlib.import_module(module.name)
        for module in pkgutil.walk_packages(swiggy_core.__path__, "swiggy_core.")
    ]


def _hierarchy() -> list[type[SwiggyAssistantError]]:
    _modules()  # every class is defined
    found: list[type[SwiggyAssistantError]] = [SwiggyAssistantError]
    for cls in found:
        found.extend(sub for sub in cls.__subclasses__() if sub not in found)
    return found


def test_every_code_is_declared_once_and_lies_in_a_range() -> None:
    values = [code.value for code in ErrorCode]
    assert all(re.fullmatch(r"E-\d{4}", value) for value in values)
    enum_body = CATALOG.read_text().split("class ErrorCode")[1].split("\nclass ")[0]
    declared = Counter(CODE_RE.findall(enum_body))
    assert declared == Counter(values), "each code is written once, as one member"
    assert all(value[:4] in CODE_RANGES for value in values)
    assert all(message.strip() for message in DEFAULT_MESSAGES.values())


def test_every_code_the_app_names_is_in_the_catalog() -> None:
    known = {code.value for code in ErrorCode}
    names = {code.name for code in ErrorCode}
    for path, tree in _trees().items():
        written = set(CODE_RE.findall(path.read_text())) - known
        assert not written, f"{path.name} names codes the catalog lacks: {written}"
        named = {_error_code_name(node) for node in ast.walk(tree)} - {None} - names
        assert not named, f"{path.name} uses ErrorCode names that do not exist: {named}"


def test_the_catalog_has_no_unused_code() -> None:
    used: set[str] = set()
    for path, tree in _trees().items():
        skipped: set[int] = set()
        if path == CATALOG:  # the catalog's own table of messages is not a use
            table = next(
                node
                for node in tree.body
                if isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and node.target.id == "DEFAULT_MESSAGES"
            )
            skipped = {id(node) for node in ast.walk(table)}
        used |= {
            name
            for node in ast.walk(tree)
            if id(node) not in skipped and (name := _error_code_name(node))
        }
    assert {code.name for code in ErrorCode} - used == set()


def test_every_error_class_belongs_to_the_hierarchy_and_its_range() -> None:
    hierarchy = _hierarchy()
    for module in _modules():
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, BaseException)
                and value.__module__ == module.__name__
            ):
                name = f"{value.__module__}.{value.__qualname__}"
                assert value in hierarchy or name in INTERNAL_SIGNALS, name
    for cls in hierarchy:
        owner = code_range(cls.code).raised_as
        assert owner is not None and issubclass(cls, owner), (cls, cls.code)


def test_every_code_is_raised_as_the_class_of_its_range() -> None:
    classes = {cls.__name__: cls for cls in _hierarchy()}
    checked = 0
    for path, tree in _trees().items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if called not in classes:
                continue
            for keyword in node.keywords:
                name = _error_code_name(keyword.value) if keyword.arg == "code" else None
                if name is None:
                    continue
                owner = code_range(ErrorCode[name]).raised_as
                where = f"{path.name}:{node.lineno} {called}(code={name})"
                assert owner is not None and issubclass(classes[called], owner), where
                checked += 1
    assert checked > 40  # the raise sites were found


def test_only_model_api_and_api_key_codes_are_never_raised() -> None:
    banners_only = {prefix for prefix, area in CODE_RANGES.items() if area.raised_as is None}
    assert banners_only == {"E-20", "E-50"}


def test_a_sign_in_whose_shared_state_is_down_is_an_oauth_error_with_the_storage_code() -> None:
    error = PendingSignInsUnreachable("Pending sign-ins are kept in Redis, which did not answer.")
    assert isinstance(error, OAuthError) and isinstance(error, StorageError)
    assert str(error) == "[E-4101] Pending sign-ins are kept in Redis, which did not answer."
