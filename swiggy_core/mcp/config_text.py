"""Reading the configuration text: TOML or JSON, and the line on which a setting is written.

The parsers do not keep positions, so a server's line is found by scanning the text for its
table header (`[servers.KEY]`, `KEY = {...}`, `"KEY": {`) and then for the offending setting
below it, before the next server begins.
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

_TOML_AT_RE = re.compile(r"at line (\d+)")


class TextError(ValueError):
    """The text does not parse at all; `line` is where the parser stopped."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def is_json_source(source: str) -> bool:
    return source.lower().endswith(".json")


def decode(text: str, *, json_format: bool) -> dict[str, Any]:
    """The parsed document; raises TextError with the line of a syntax error."""
    if json_format:
        try:
            data = json.loads(text) if text.strip() else {}
        except json.JSONDecodeError as error:
            raise TextError(error.lineno, f"not valid JSON: {error.msg}") from error
        if not isinstance(data, dict):
            raise TextError(1, "the file must hold one JSON object")
        return data
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        # Python 3.14 adds `lineno`; earlier versions only write it into the message.
        line = getattr(error, "lineno", None)
        found = _TOML_AT_RE.search(str(error))
        if line is None and found:
            line = int(found.group(1))
        message = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", str(error))
        raise TextError(line, f"not valid TOML: {message}") from error


def line_of(text: str, *, json_format: bool, key: str | None, field: str | None) -> int | None:
    """The 1-based line of `field` inside server `key` (or of the server itself, or of a
    top-level `field` when `key` is None); None when it cannot be found."""
    if json_format:
        return _json_line(text, key, field)
    lines = text.splitlines()
    if key is None:
        if field is None:
            return None
        top = _first(lines, 0, len(lines), _toml_assignment(field))
        return top or _first(lines, 0, len(lines), _toml_table(field))
    start = _first(lines, 0, len(lines), _toml_server(key))
    if start is None or field is None:
        return start
    # The server's settings end where a table header for anything else begins.
    end = _first(lines, start, len(lines), _toml_other_table(key)) or len(lines) + 1
    found = _first(lines, start - 1, end - 1, _toml_assignment(field))
    if found is None:
        found = _first(lines, start - 1, end - 1, _toml_subtable(key, field))
    return found or start


def _first(lines: list[str], begin: int, end: int, pattern: re.Pattern[str]) -> int | None:
    for index in range(max(begin, 0), min(end, len(lines))):
        if not lines[index].lstrip().startswith("#") and pattern.search(lines[index]):
            return index + 1
    return None


def _quoted(name: str) -> str:
    escaped = re.escape(name)
    return rf"""(?:{escaped}|"{escaped}"|'{escaped}')"""


def _inside_own_table(key: str) -> str:
    """What follows the `[` of a header belonging to server `key` (its own or a subtable)."""
    return rf"\s*(?:servers|mcpServers)\s*\.\s*{_quoted(key)}\s*[\].]"


def _toml_server(key: str) -> re.Pattern[str]:
    return re.compile(rf"^\s*\[{_inside_own_table(key)}|^\s*{_quoted(key)}\s*=\s*\{{")


def _toml_other_table(key: str) -> re.Pattern[str]:
    return re.compile(rf"^\s*\[(?!{_inside_own_table(key)})")


def _toml_table(name: str) -> re.Pattern[str]:
    return re.compile(rf"^\s*\[\s*{_quoted(name)}\s*[\].]")


def _toml_assignment(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?:^|[\s{{,]){_quoted(name)}\s*=")


def _toml_subtable(key: str, field: str) -> re.Pattern[str]:
    server = rf"(?:servers|mcpServers)\s*\.\s*{_quoted(key)}"
    return re.compile(rf"^\s*\[\s*{server}\s*\.\s*{_quoted(field)}\s*\]")


def _json_line(text: str, key: str | None, field: str | None) -> int | None:
    begin, end = 0, len(text)
    if key is not None:
        container = re.search(r'"(?:servers|mcpServers)"\s*:', text)
        opening = re.compile(rf'"{re.escape(key)}"\s*:\s*\{{')
        found = opening.search(text, container.end() if container else 0)
        if found is None:
            return None
        begin, end = found.start(), _closing_brace(text, found.end() - 1)
        if field is None:
            return text.count("\n", 0, begin) + 1
    if field is None:
        return None
    setting = re.compile(rf'"{re.escape(field)}"\s*:').search(text, begin, end)
    if setting is None:
        return None if key is None else text.count("\n", 0, begin) + 1
    return text.count("\n", 0, setting.start()) + 1


def _closing_brace(text: str, opening: int) -> int:
    """The index just past the brace that closes the one at `opening` (strings skipped)."""
    depth, in_string, escaped = 0, False, False
    for index in range(opening, len(text)):
        char = text[index]
        if in_string:
            escaped = char == "\\" and not escaped
            in_string = escaped or char != '"'
            continue
        if char == '"':
            in_string = True
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return index + 1
    return len(text)
