"""Bring the newest reply into view, and keep it there while it grows, until you scroll.

Streamlit follows a growing chat only when the view is already at its end, so a message
sent while scrolled up, or a card pressed in an older reply, would answer below the
screen. A fixed script of the app's own (no text from anyone goes in) follows the reply
instead: for five seconds at least, then for as long as the page keeps growing (cards,
then their pictures; later on a busy machine), thirty seconds at most. It lets go as soon
as the person scrolls, clicks or pages up.

The follower runs in the page itself, not in the one-pixel frame that starts it: the next
rerun may remove that frame while the reply is still growing, and the follow must go on.
"""

from __future__ import annotations

import json
import re

import streamlit as st

_FOLLOWER = """
window.swiggyFollow = function (turn) {
  // Kept on the page, per turn: once you scroll during a reply, no later run pulls you down.
  const letGo = window.swiggyLetGo = window.swiggyLetGo || {};
  const kinds = ["wheel", "touchmove", "mousedown", "keydown"];
  const paging = ["PageUp", "ArrowUp", "Home"];
  const onInput = (event) => {
    if (event.type !== "keydown" || paging.includes(event.key)) letGo[turn] = true;
  };
  kinds.forEach((kind) => document.addEventListener(kind, onInput, {passive: true}));
  const started = Date.now();
  let height = -1;
  let grewAt = started;
  function toEnd() {
    const now = Date.now();
    const main = document.querySelector('[data-testid="stAppScrollToBottomContainer"]')
      || document.querySelector('[data-testid="stMain"]');
    if (main && main.scrollHeight !== height) {
      height = main.scrollHeight;
      grewAt = now;
    }
    const settled = now - started > 5000 && now - grewAt > 1000;
    if (letGo[turn] || settled || now - started > 30000) {
      kinds.forEach((kind) => document.removeEventListener(kind, onInput));
      return;
    }
    if (main) main.scrollTo({top: main.scrollHeight});
    setTimeout(toEnd, 200);
  }
  toEnd();
};
"""

_FOLLOWER_SOURCE = json.dumps(_FOLLOWER)  # a JS string literal, made once
# `nonce` makes each turn's copy a new element, so it runs again.
_STARTER = """<script>/* {nonce} */
const page = window.parent;
if (!page.swiggyFollow) {{
  const follower = page.document.createElement("script");
  follower.textContent = {source};
  page.document.head.appendChild(follower);
}}
page.swiggyFollow("{turn}");
</script>"""


def scroll_to_newest(turn_id: str, *, drawn: bool = False) -> None:
    """Follow the newest reply of `turn_id` until it stops growing or you scroll: while
    it streams, and again once (`drawn`) when its stored cards replace the live text,
    which makes the page taller after the first follow may have ended."""
    safe = re.sub(r"[^A-Za-z0-9_-]", "", turn_id)
    nonce = f"{safe}-{'drawn' if drawn else 'live'}"
    script = _STARTER.format(nonce=nonce, turn=safe, source=_FOLLOWER_SOURCE)
    st.iframe(script, height=1, width=1)
