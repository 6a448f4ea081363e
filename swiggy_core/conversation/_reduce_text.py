"""Reducing HTML and plain-text tool results: the lines that matter first, then the head."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Final

ELLIPSIS: Final = "…"
# A few tags near the start make a text HTML (not one "<" in a sentence).
_HTML_SNIFF = re.compile(
    r"<(?:!doctype|html|head|body|div|span|p|br|table|tr|td|ul|li|h[1-6]|script|style|a)\b",
    re.IGNORECASE,
)
_SNIFF_CHARS: Final = 4_000
_MIN_HTML_TAGS: Final = 2
# Ids and money: "(ID: 233548)", "₹249", "Rs. 40", any digits.
_FACT = re.compile(r"₹|\bRs\.?|\bINR\b|\bID\b|\d", re.IGNORECASE)
_WORD = re.compile(r"\w{2,}")
# A chosen line too long for the room left is cut when at least this much room remains.
_MIN_LINE_ROOM: Final = 80
_HEADINGS: Final = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_BLOCKS: Final = frozenset(
    {"p", "div", "br", "li", "ul", "ol", "section", "article", "header", "footer", "title"}
    | {"table", "tbody", "thead", "dt", "dd", "pre", "blockquote", "nav", "main", "form"}
)
_HIDDEN: Final = frozenset({"script", "style", "noscript", "template", "svg", "head"})


def looks_like_html(text: str) -> bool:
    """Whether `text` reads as an HTML document or fragment."""
    return len(_HTML_SNIFF.findall(text[:_SNIFF_CHARS])) >= _MIN_HTML_TAGS


class _TextOfHtml(HTMLParser):
    """Visible text: scripts and styles skipped, headings marked, table cells joined."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.line: list[str] = []
        self.hidden = 0
        self.heading = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self.hidden += 1
        elif tag in _HEADINGS:
            self.flush()
            self.heading = True
        elif tag == "tr" or tag in _BLOCKS:
            self.flush()
        elif tag in ("td", "th") and self.line:
            self.line.append(" | ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self.hidden = max(self.hidden - 1, 0)
        elif tag in _HEADINGS or tag == "tr" or tag in _BLOCKS:
            self.flush()

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.line.append(data)

    def flush(self) -> None:
        text = " ".join("".join(self.line).split())
        if text:
            self.lines.append(f"# {text}" if self.heading else text)
        self.line = []
        self.heading = False


def html_to_text(html: str) -> str:
    """The visible text of `html`, one block per line (headings as "# …", rows as "a | b")."""
    parser = _TextOfHtml()
    try:
        parser.feed(html)
        parser.close()
    except (AssertionError, ValueError):  # malformed markup: keep what was read
        pass
    parser.flush()
    return "\n".join(parser.lines)


def reduce_lines(text: str, budget: int, query: str) -> tuple[str, int, int]:
    """At most `budget` chars of `text`: query lines, then id/price lines, then the head.

    Kept lines stay in their order; a "…" line marks each gap. Returns the text and how
    many lines were kept of how many.
    """
    lines = text.splitlines() or [text]
    words = {word.lower() for word in _WORD.findall(query)}
    ranked = _ranked(lines, words)
    kept: dict[int, str] = {}
    used = 0
    for index in ranked:
        cost = len(lines[index]) + 1 + 2  # newline, plus a possible gap marker line
        room = budget - used
        if cost <= room:
            kept[index] = lines[index]
            used += cost
        elif room >= _MIN_LINE_ROOM or not kept:
            kept[index] = lines[index][: max(room - 4, 0)] + ELLIPSIS
            used += len(kept[index]) + 3
        if budget - used < _MIN_LINE_ROOM // 4:
            break
    return _joined(kept), len(kept), len(lines)


def _ranked(lines: list[str], words: set[str]) -> list[int]:
    """Line indexes, most useful first: headings and query words, then ids and prices,
    then the rest."""

    def rank(index: int) -> tuple[int, int]:
        line = lines[index]
        lowered = line.lower()
        if line.startswith("# ") or (words and any(word in lowered for word in words)):
            return (0, index)
        if _FACT.search(line):
            return (1, index)
        return (2, index)

    return sorted(range(len(lines)), key=rank)


def _joined(kept: dict[int, str]) -> str:
    out: list[str] = []
    previous = -1
    for index in sorted(kept):
        if index != previous + 1:
            out.append(ELLIPSIS)
        out.append(kept[index])
        previous = index
    return "\n".join(out)
