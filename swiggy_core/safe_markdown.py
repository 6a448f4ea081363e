"""Untrusted text made safe for Markdown (DESIGN.md, "What the page may show").

Model replies, tool-derived names, addresses and messages, and what the person typed reach
Streamlit's `st.markdown`, `st.caption`, widget labels and alerts (through
`swiggy_ui.safe_text`), and the chat export's Markdown file, which any viewer may render.
None of that text may:

- load anything: no images (`![alt](url)` becomes its alt text), no raw HTML;
- link anywhere but `https`: a `data:`, `javascript:` or `http:` link becomes its text, and
  bare `http://…`, `www.…` and e-mail addresses (which GitHub-flavoured Markdown would turn
  into links) are shown as inline code;
- look like the app: colours, backgrounds, badges (`:green[…]`, `:red-background[…]`,
  `:green-badge[…]`), material icons (`:material/check:`), emoji and logo shortcodes
  (`:white_check_mark:`, `:streamlit:`) and LaTeX (`$\\color{green}…$`) stay literal text.

How each is neutralised was checked in Chromium against this Streamlit's own renderer:

- a backslash escape (`\\:`, `\\[`, `\\<`, `\\&`, `\\$`, `` \\` ``) is honoured by the
  Markdown parser, so directives, links, images, HTML, entities, math and code spans
  from the text are never parsed;
- shortcodes are replaced *after* parsing, on the plain text (escapes already resolved),
  so `\\:white_check_mark:` still becomes ✅ and `\\:material/check:` still an icon. Their
  leading colon is therefore swapped for "∶" (U+2236 RATIO), which looks the same and
  matches no shortcode. No zero-width characters are used.

`markdown_text` keeps ordinary formatting (bold, lists, headings, https links) for replies
and typed messages; `plain` renders a tool-derived string literally on one line. A file
read outside the app (the export) passes `image_text`, so every image, reference-style ones
included, reads as a visible note such as "[image: alt]".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import urlsplit

# A colon that would start a shortcode replaced after parsing: `:name:` (emoji,
# `:streamlit:`) or `:material/name:` (`:material/` is rewritten before parsing).
LOOKALIKE_COLON = "\u2236"
_SHORTCODE_RE = re.compile(r":(?=[\w+/-]+:)", re.ASCII)
# Markup made here (kept links, inline code) waits in the text as `\x00<n>\x01` while the
# rest is escaped, so every rule sees the text around it; input never holds either byte.
_HOLE_RE = re.compile(r"\x00(\d+)\x01")
_CONTROL_RE = re.compile(r"[\x00\x01]")
# Escaped in `markdown_text`: only what could load, link, imitate or open HTML, math or
# code (code spans would swallow these escapes). A colon before a letter (or before markup
# made here) could open a directive. Of entities only the five that typed text is stored
# with (`actions.escape_markup` turns `<` into `&lt;`) stay: they decode to plain text.
_KEPT_ENTITY = r"(?:lt|gt|amp|quot|#39);"
_MARKDOWN_SPECIALS_RE = re.compile(rf"[\\\[\]!<$`]|&(?!{_KEPT_ENTITY})|:(?=[A-Za-z\x00])")
# Escaped in `plain` as well: emphasis, so names show exactly as given.
_PLAIN_SPECIALS_RE = re.compile(rf"[\\\[\]!<>$`*_~]|&(?!{_KEPT_ENTITY})|:(?=[A-Za-z\x00])")
# A block marker at the start of a one-line string: heading, list item, quote, rule.
_LEADING_MARKER_RE = re.compile(r"^(?:[#+\-=]|\d{1,9}(?=[.)]))")
# Bare addresses GitHub-flavoured Markdown links by itself. https ones are links we allow
# (in replies), matched so an e-mail or `www.` inside them stays intact; only characters
# that need no escape, since a backslash inside such a link would show in it.
_BARE_RE = re.compile(
    r"(?P<https>(?<!:)https://[A-Za-z0-9.-]+(?:[/?#](?:[\w\-.~/?#%=+@,;]|&(?!#|\w+;))*)?)"
    r"|(?P<other>(?:https?://|www\.)[^\s\x00]*|[-.\w+]+@[-\w]+(?:\.[-\w]+)+)",
    re.ASCII | re.IGNORECASE,
)
# `[label](destination "title")` and `![alt](…)` in their common shapes; anything else
# with brackets is escaped and shows as typed.
_LINK_RE = re.compile(
    r"(?P<bang>!?)\[(?P<label>[^\[\]\n]{0,500})\]"
    r"\(\s*(?P<dest><[^<>\n]*>|(?:[^\s()<>]|\([^\s()<>]*\))+)(?:\s+\"[^\"\n]*\")?\)"
)
# `![alt][ref]`, `![alt][]`, `![alt]`: images whose address a definition elsewhere gives,
# and inline ones `_LINK_RE` left (an odd title form). Read after held markup is in place,
# so a label never holds a hole.
_REFERENCE_IMAGE_RE = re.compile(
    r"!\[(?P<label>[^\[\]\n\x00\x01]{0,500})\](?:\[[^\[\]\n\x00\x01]{0,500}\])?"
)
_SAFE_LINK_RE = re.compile(r"https://[^\s()<>\"'`\\\[\]{}|^]+", re.IGNORECASE)
_MAX_LINK_CHARS = 2_048
_WHITESPACE_RE = re.compile(r"\s+")
_BACKTICKS_RE = re.compile(r"`+")


def markdown_text(text: str, *, image_text: Callable[[str], str] | None = None) -> str:
    """A reply or typed message as Markdown: formatting and https links kept, nothing else.

    An image becomes its alt text, or `image_text(alt)` when given (which also rewrites
    reference-style images; without it they stay literal, escaped text).
    """
    held: list[str] = []
    raw = _CONTROL_RE.sub("\ufffd", text)
    raw = _LINK_RE.sub(lambda match: _link(match, held, image_text), raw)
    if image_text is not None:
        raw = _REFERENCE_IMAGE_RE.sub(
            lambda match: _image(match.group("label"), held, image_text), raw
        )
    return _finish(raw, held, _MARKDOWN_SPECIALS_RE, https_links=True)


def plain(text: str | None) -> str:
    """A tool-derived name, label, address or message as literal text on one line."""
    if not text:
        return ""
    one_line = _WHITESPACE_RE.sub(" ", _CONTROL_RE.sub("\ufffd", text)).strip()
    escaped = _finish(one_line, [], _PLAIN_SPECIALS_RE, https_links=False)
    marker = _LEADING_MARKER_RE.match(escaped)
    if marker is None:
        return escaped
    if marker.group().isdigit():  # `1. Milk` would be a numbered list: escape the dot
        end = marker.end()
        return f"{escaped[:end]}\\{escaped[end:]}"
    return "\\" + escaped


def inline_code(text: str | None) -> str:
    """`text` as an inline code span: shown exactly, never parsed (order ids)."""
    one_line = _WHITESPACE_RE.sub(" ", text or "").strip()
    if not one_line:
        return ""
    fence = "`" * (max((len(run) for run in _BACKTICKS_RE.findall(one_line)), default=0) + 1)
    pad = " " if one_line.startswith("`") or one_line.endswith("`") else ""
    return f"{fence}{pad}{one_line}{pad}{fence}"


def safe_link_url(url: str) -> str | None:
    """`url` if a Markdown link may point there: absolute https with a host, no login part."""
    if len(url) > _MAX_LINK_CHARS or not _SAFE_LINK_RE.fullmatch(url):
        return None
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError:
        return None
    if not parts.hostname or "@" in parts.netloc:
        return None
    return url


def _hold(held: list[str], markup: str) -> str:
    held.append(markup)
    return f"\x00{len(held) - 1}\x01"


def _link(match: re.Match[str], held: list[str], image_text: Callable[[str], str] | None) -> str:
    """A link to a safe https URL stays a link; an image or any other link is its text
    (left raw here, to be escaped with the text around it)."""
    label = match.group("label")
    if match.group("bang") and image_text is not None:
        return _image(label, held, image_text)
    dest = match.group("dest").strip()
    if dest.startswith("<") and dest.endswith(">"):
        dest = dest[1:-1]
    url = safe_link_url(dest)
    if match.group("bang") or url is None:
        return label
    inner = _finish(label, [], _MARKDOWN_SPECIALS_RE, https_links=False)
    # Escapes count in a destination, so the address is unchanged; no entity is decoded.
    return _hold(held, f"[{inner}](https{_MARKDOWN_SPECIALS_RE.sub(_backslash, url[5:])})")


def _image(alt: str, held: list[str], image_text: Callable[[str], str]) -> str:
    """The note that replaces an image, escaped now and held, so no later rule (another
    image's, a bare address's) reads it again."""
    note = _finish(image_text(alt), [], _MARKDOWN_SPECIALS_RE, https_links=False)
    return _hold(held, note)


def _finish(raw: str, held: list[str], specials: re.Pattern[str], *, https_links: bool) -> str:
    """Escape `raw` as a whole; bare addresses GFM would link become inline code (bare
    https ones stay links if `https_links`); then put the held markup back."""

    def bare(match: re.Match[str]) -> str:
        if https_links and match.group("https"):
            return _hold(held, match.group())  # nothing in it needs escaping
        return _hold(held, inline_code(match.group()))

    with_holes = _BARE_RE.sub(bare, raw)
    escaped = specials.sub(_backslash, _SHORTCODE_RE.sub(LOOKALIKE_COLON, with_holes))
    return _HOLE_RE.sub(lambda match: held[int(match.group(1))], escaped)


def _backslash(match: re.Match[str]) -> str:
    return "\\" + match.group()
