"""What the app may not say to a person, and how to find every text it writes.

Shared by the source scan (`tests/unit/test_app_text.py`) and the scan of rendered pages
(`tests/ui/test_app_text_flows.py`). The app speaks to the person ("you"): it names no
tool and no internal role, says each thing once, and shows an error code only as a small
caption for support. Texts written for the model are named as such (`*_FOR_MODEL`, the
`for_model=` of a refusal, an `ApprovalAnswer`'s `message`) and never scanned.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Internal roles and the app talking about itself as a third party.
_ROLE_RE = re.compile(
    r"\bthe (?:person|model)\b|\bthe app did(?:n't|n’t| not) go ahead\b", re.IGNORECASE
)
# An error code outside its support caption: "[E-1107] …", "**E-2001** · …".
CODE_RE = re.compile(r"\bE-\d{4}\b")
# The offline demo is labelled by the page's badge, never on each reply.
_DEMO_PREFIX_RE = re.compile(r"^[\W_]*Offline demo[\W_]*·")
# One sentence that says nothing was done; two of them in one text say it twice.
_NOT_DONE_RE = re.compile(
    r"\b(?:nothing|no (?:order|table|booking))\b[^.!?\n]*?\b(?:was|were|has been|got)\s+"
    r"(?:placed|booked|charged|ordered|run|done)\b",
    re.IGNORECASE,
)
_SENTENCE_SPLIT_RE = re.compile(r"(?<=[.!?])\s+|\n+")
_WORD_RE = re.compile(r"[a-z0-9₹]+")
_PROSE_RE = re.compile(r"[A-Za-z]{2,}[ ,;:’']+[A-Za-z]{2,}")


@cache
def tool_names() -> frozenset[str]:
    """Every tool the sandbox's Swiggy servers offer, the approval tool and the write tools."""
    from swiggy_core.constants import APPROVAL_TOOL_NAME
    from swiggy_core.shops import WRITE_TOOL_NAMES

    names = {APPROVAL_TOOL_NAME, *WRITE_TOOL_NAMES}
    for path in (ROOT / "swiggy_sandbox" / "servers").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and any(
                _is_tool_decorator(d) for d in node.decorator_list
            ):
                names.add(node.name)
    return frozenset(names)


def _is_tool_decorator(node: ast.expr) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    return isinstance(target, ast.Attribute) and target.attr == "tool"


@cache
def _tool_re() -> re.Pattern[str]:
    names = "|".join(sorted(map(re.escape, tool_names()), key=len, reverse=True))
    # A tool's name as a word; "checkout" only where it is written as a name (`checkout`,
    # checkout(…), checkout with paymentMethod), not the English word.
    return re.compile(rf"(?<![\w-])(?:{names})(?![\w-])")


def problems(text: str) -> list[str]:
    """What is wrong with one text the person sees (empty when nothing)."""
    found: list[str] = []
    if match := _ROLE_RE.search(text):
        found.append(f"internal role {match.group(0)!r}")
    for match in _tool_re().finditer(text):
        if match.group(0) == "checkout" and not _named_as_tool(text, match):
            continue
        found.append(f"tool name {match.group(0)!r}")
        break
    found.extend(_doubled(text))
    return found


def demo_labelled(text: str) -> bool:
    """A reply that opens with the offline-demo label (the page's badge already says it)."""
    return bool(_DEMO_PREFIX_RE.search(text))


def _named_as_tool(text: str, match: re.Match[str]) -> bool:
    before, after = text[max(0, match.start() - 1) : match.start()], text[match.end() :]
    return before == "`" or after.startswith(("`", "(", " with ", " needs ", " tool"))


def _doubled(text: str) -> list[str]:
    seen: set[tuple[str, ...]] = set()
    not_done = 0
    found: list[str] = []
    for sentence in _SENTENCE_SPLIT_RE.split(text):
        words = tuple(_WORD_RE.findall(sentence.lower()))
        if len(words) >= 3 and words in seen:
            found.append(f"said twice: {sentence.strip()!r}")
        seen.add(words)
        not_done += bool(_NOT_DONE_RE.search(sentence))
    if not_done > 1:
        found.append("says more than once that nothing was done")
    return found


def page_doubles(notices: list[str], replies: list[str]) -> list[str]:
    """What a step's notices (warnings, errors, cards of the app's outcomes) and replies say
    twice between them: a notice's sentence again elsewhere, or two texts that each say
    nothing was done. Each text on its own is checked by `problems`."""
    found: list[str] = []
    texts = [*notices, *replies]
    where: dict[tuple[str, ...], int] = {}
    not_done: list[int] = []
    for index, text in enumerate(texts):
        for sentence in _SENTENCE_SPLIT_RE.split(text):
            words = tuple(_WORD_RE.findall(sentence.lower()))
            first = where.setdefault(words, index)
            if len(words) >= 4 and first != index and first < len(notices):
                found.append(f"said twice on the page: {sentence.strip()!r}")
            if _NOT_DONE_RE.search(sentence) and index not in not_done:
                not_done.append(index)
    if len(not_done) > 1:
        said = " / ".join(repr(texts[i][:80]) for i in not_done)
        found.append(f"says more than once that nothing was done: {said}")
    return found


def code_outside_caption(text: str) -> str | None:
    """The error code in a text that is not a caption, if any."""
    match = CODE_RE.search(text)
    return match.group(0) if match else None


# --- the source scan -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AppText:
    """One string literal (an f-string with `{…}` for its values) the app may show."""

    where: str  # path:line
    text: str
    # An error's code put inside the text (not in a caption).
    holds_code: bool = False
    # An exception's str() (which opens with its code) put inside the text or shown as it is.
    error_text: bool = False


# Calls whose string arguments are never shown to a person.
_SILENT_CALLS = frozenset({"debug", "info", "warning", "error", "exception", "critical", "log"})
_SILENT_OWNERS = frozenset({"logger", "logging", "log", "_log", "LOGGER"})
_RE_CALLS = frozenset({"compile", "search", "match", "fullmatch", "sub", "findall", "split"})
_BUILTIN_ERRORS = frozenset(
    {
        "ValueError",
        "TypeError",
        "KeyError",
        "RuntimeError",
        "AssertionError",
        "NotImplementedError",
        "LookupError",
        "AttributeError",
        "OSError",
    }
)
# Texts written for the model: a name that says so, or the argument that carries them.
MODEL_SUFFIX = "_FOR_MODEL"
MODEL_FACING_NAMES = frozenset(
    {
        "TURN_CONTEXT_HEADER",  # opens the context block the app adds to the model's input
        "HELD_MESSAGE",  # a spending tool called directly: call request_confirmation instead
        "GATED_MESSAGE",  # a person's own tool that changes something: the same
        "SLOT_NEEDED",  # book_table without a listed slot: list the slots first
    }
)
_MODEL_KEYWORDS = {"ApprovalAnswer": "message", "ApprovalInvalid": "for_model"}
_MODEL_FIRST_ARGUMENT = frozenset({"Denial"})  # a hook's reason, read by the model
_ERROR_NAMES = frozenset({"error", "err", "exc", "exception"})


def app_texts(path: Path) -> Iterator[AppText]:
    """Every multi-word string literal of a module that may reach the page."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    where = path.relative_to(ROOT).as_posix()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant | ast.JoinedStr) and _literal(node, parents):
            values = [
                v.value for v in getattr(node, "values", []) if isinstance(v, ast.FormattedValue)
            ]
            text = _joined_text(node) if isinstance(node, ast.JoinedStr) else str(node.value)
            if text.lstrip().startswith("<"):  # markup and style, not words
                continue
            worded = bool(re.search(r"[\s·]", text))  # not an identifier like tool_{…}
            written = bool(CODE_RE.search(text)) and not CODE_RE.fullmatch(text.strip())
            shown = not _in_caption(node, parents)
            holds = shown and (written or (worded and any(map(_is_code, values))))
            error_text = shown and worded and any(map(_is_error_text, values))
            if _PROSE_RE.search(text) or holds or error_text:
                yield AppText(f"{where}:{node.lineno}", text, holds, error_text)
        elif isinstance(node, ast.Call) and _is_str_of_error(node) and not _silent(node, parents):
            shown = not _in_caption(node, parents)
            yield AppText(f"{where}:{node.lineno}", "str(error)", error_text=shown)


def _literal(node: ast.Constant | ast.JoinedStr, parents: dict[ast.AST, ast.AST]) -> bool:
    """A whole string literal (not a piece of an f-string) that is not silent."""
    if isinstance(node, ast.Constant) and not isinstance(node.value, str):
        return False
    return not isinstance(parents.get(node), ast.JoinedStr) and not _silent(node, parents)


def _joined_text(node: ast.JoinedStr) -> str:
    parts: list[str] = []
    for value in node.values:
        if isinstance(value, ast.Constant):
            parts.append(str(value.value))
        else:
            parts.append("{…}")
    return "".join(parts)


def _is_code(node: ast.expr) -> bool:
    """An error's code: `error.code`, `info.code`, or `plain(error.code)`."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        if node.value.id == "ErrorCode":  # ErrorCode.SPENDING_LIMIT
            return True
        return node.attr == "code" and node.value.id in _ERROR_NAMES | {"info"}
    if isinstance(node, ast.Call) and node.args:
        return _is_code(node.args[0])
    return False


def _is_error_text(node: ast.expr) -> bool:
    """An exception as text: `{error}`, `{str(error)}`, `{redact(str(error))}`."""
    if isinstance(node, ast.Call):
        return _is_str_of_error(node) or any(_is_error_text(arg) for arg in node.args)
    return isinstance(node, ast.Name) and node.id in _ERROR_NAMES


def _is_str_of_error(node: ast.Call) -> bool:
    return (
        isinstance(node.func, ast.Name)
        and node.func.id == "str"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Name)
        and node.args[0].id in _ERROR_NAMES
    )


def _in_caption(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    current: ast.AST | None = node
    while current is not None:
        if isinstance(current, ast.Call) and _call_name(current) == "caption":
            return True
        current = parents.get(current)
    return False


def _silent(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """True for docstrings, logs, regexes, keys, internal errors and texts for the model."""
    child, current = node, parents.get(node)
    while current is not None:
        if _silent_at(child, current):
            return True
        child, current = current, parents.get(current)
    return False


def _silent_at(child: ast.AST, node: ast.AST) -> bool:
    if isinstance(node, ast.Expr):  # a docstring or a bare string statement
        return isinstance(child, ast.Constant)
    if isinstance(node, ast.Compare | ast.Subscript | ast.Assert):
        return True
    if isinstance(node, ast.Dict) and child in node.keys:
        return True
    if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
        return _call_name(node.exc) in _BUILTIN_ERRORS
    if isinstance(node, ast.Call):
        return _silent_call(child, node)
    if isinstance(node, ast.Assign | ast.AnnAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return any(_model_name(target) for target in targets)
    # An exception's str() is for logs and the model; people see its `message`.
    return isinstance(node, ast.FunctionDef) and node.name in ("__str__", "__repr__")


def _silent_call(child: ast.AST, node: ast.Call) -> bool:
    func = node.func
    if isinstance(func, ast.Attribute):
        owner = func.value.id if isinstance(func.value, ast.Name) else ""
        if owner in _SILENT_OWNERS and func.attr in _SILENT_CALLS:
            return True
        if owner == "re" and func.attr in _RE_CALLS:
            return True
    if _call_name(node) in _MODEL_FIRST_ARGUMENT and node.args and node.args[0] is child:
        return True
    keyword = _MODEL_KEYWORDS.get(_call_name(node))
    return any(kw.arg == keyword and kw is child for kw in node.keywords)


def _model_name(target: ast.expr) -> bool:
    name = target.id if isinstance(target, ast.Name) else getattr(target, "attr", "")
    if not isinstance(name, str):
        return False
    return name.upper().endswith(MODEL_SUFFIX) or name in MODEL_FACING_NAMES


def _call_name(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else ""
