"""Every text the app writes speaks to the person: the source scan.

Each string literal (and f-string) of the page code, the offline planner and the core is
read with `ast` and checked against the rules in `tests/app_text_rules.py`: no tool names,
no internal roles ("the person", "the model"), nothing said twice in one text, and an
error code only in a caption. Texts written for the model are named for it and skipped:
names ending in `_FOR_MODEL`, the few in `MODEL_FACING_NAMES`, an `ApprovalAnswer`'s
`message`, a refusal's `for_model=`, a hook's `Denial` reason, and the modules below.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from app_text_rules import ROOT, AppText, app_texts, demo_labelled, problems

# Whole modules written for the model (or for Swiggy), never for the page.
MODEL_FACING_MODULES = {
    "swiggy_core/verticals": "the system prompt of each shop",
    "swiggy_core/conversation": "the request the model reads",
    "swiggy_core/approval/request_tool.py": "the approval tool's description",
    "swiggy_core/tool_content.py": "what the model reads in place of images and documents",
    "swiggy_core/report.py": "the error report sent to Swiggy's report tool",
}
# Single texts that never reach the page, each with the reason: (module, how it opens).
NOT_ON_THE_PAGE = {
    ("swiggy_core/shared_state.py", "[{…}] {…} is set but cannot be used"): (
        "the operator's log line when REDIS_URL cannot be used"
    ),
}
# Where an exception's str() (which opens with its code) would reach the page as words.
PERSON_LAYERS = ("swiggy_ui/", "swiggy_core/session", "swiggy_core/approval/", "swiggy_sandbox/")
# The offline planner plays the model: everything it says is a reply to the person.
PLANNER = ROOT / "swiggy_sandbox" / "planner"


def _modules() -> list[Path]:
    found = [*(ROOT / "swiggy_ui").rglob("*.py"), *PLANNER.glob("*.py")]
    for path in (ROOT / "swiggy_core").rglob("*.py"):
        where = path.relative_to(ROOT).as_posix()
        if not any(where.startswith(module) for module in MODEL_FACING_MODULES):
            found.append(path)
    return sorted(found)


def _wrong(text: AppText) -> list[str]:
    where = text.where.split(":")[0]
    if any(
        where == module and text.text.startswith(opening) for module, opening in NOT_ON_THE_PAGE
    ):
        return []
    found = problems(text.text)
    if text.holds_code or (text.error_text and where.startswith(PERSON_LAYERS)):
        found.append("an error code inside the text (show it with st.caption)")
    if where.startswith("swiggy_sandbox/planner/") and demo_labelled(text.text):
        found.append("the offline-demo label on a reply")
    return found


def test_the_app_writes_to_you_and_never_in_its_own_words() -> None:
    wrong = [
        f"{text.where}: {text.text[:120]!r} → {', '.join(found)}"
        for path in _modules()
        for text in app_texts(path)
        if (found := _wrong(text))
    ]
    assert not wrong, "\n".join(wrong)


def test_the_scan_reads_every_kind_of_app_text() -> None:
    """The scan covers the page, the planner's replies and the core's messages."""
    scanned = {path.relative_to(ROOT).as_posix() for path in _modules()}
    for module in (
        "swiggy_ui/banners.py",
        "swiggy_ui/approval_dialog.py",
        "swiggy_ui/cart_panel.py",
        "swiggy_ui/turn_states.py",
        "swiggy_sandbox/planner/approval.py",
        "swiggy_sandbox/planner/common.py",
        "swiggy_sandbox/planner/instamart_replies.py",
        "swiggy_core/approval/settle.py",
        "swiggy_core/engine/errors.py",
        "swiggy_core/errors.py",
        "swiggy_core/store/faults.py",
        "swiggy_core/tool_errors.py",
    ):
        assert module in scanned
    texts = [text.text for text in app_texts(ROOT / "swiggy_core" / "errors.py")]
    stored = [text for text in texts if text.startswith("The chat database")]
    assert len(stored) >= 5, "the catalog's default messages (the store's faults) are read"


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        ("The person pressed Cancel.", "internal role"),
        ("Ask them to pick one (list them with get_addresses).", "tool name"),
        ("Nothing was placed. You can change your limits. No order was placed.", "more than once"),
        ("Please try again. Please try again.", "said twice"),
        ("The app didn't go ahead.", "internal role"),
    ],
)
def test_the_rules_catch_what_the_issue_found(text: str, wrong: str) -> None:
    assert any(wrong in found for found in problems(text)), problems(text)


@pytest.mark.parametrize(
    "text",
    [
        "You cancelled this order.",
        "Nothing was placed and nothing was charged. Ask again if you still want it.",
        "Your cart is ready: press Place order, then Confirm at checkout.",
    ],
)
def test_the_rules_let_plain_words_through(text: str) -> None:
    assert problems(text) == []


def test_code_in_text_is_found_in_f_strings_and_literals(tmp_path: Path) -> None:
    source = (
        "import streamlit as st\n"
        "def show(error):\n"
        "    st.error(f'**{error.code}** · {error.message}')\n"
        "    st.warning('**E-1001** · A limit is an amount.')\n"
        "    st.caption(f'Code for support: {error.code}')\n"
        "    ANSWER_FOR_MODEL = 'The person pressed Cancel.'\n"
    )
    module = ROOT / "tests" / "unit" / f"_scan_{tmp_path.name}.py"
    module.write_text(source, encoding="utf-8")
    try:
        found = list(app_texts(module))
    finally:
        module.unlink()
    assert [text.holds_code for text in found] == [True, True, False]
