"""The cart bar under the chat input: "2 items · ₹147", a tap away from the whole cart,
and Place order beside it.

A phone folds the sidebar (and its cart) away, so after Add only a toast said anything.
The bar stays pinned under the chat input; tapping it slides the sidebar in at its cart
panel, and that panel's Place order slides the sidebar out again, so the confirmation
that follows is not left under it. While the sidebar sits beside the chat (a wide
screen with the sidebar open) its cart is in view and the bar hides itself.

The style and the script are the app's own fixed text: nothing from a tool or the model
goes into them. (A popover would have kept all this in Python, but Streamlit opens one
downwards, and under the chat input there is no room below.)
"""

from __future__ import annotations

import streamlit as st

from swiggy_core.cart import CartState
from swiggy_core.formatting import rupees
from swiggy_core.verticals import Vertical
from swiggy_ui import state
from swiggy_ui.cart_actions import checkout_action

BAR_ICON = ":material/shopping_cart:"

# Streamlit adds the bar to its bottom area before the chat input (the page draws the
# cart first), so `order` moves it under the input. From 768 px up an open sidebar sits
# beside the chat rather than over it, and shows the cart itself.
_BAR_STYLE = """<style>
[data-testid="stBottom"] [data-testid="stLayoutWrapper"]:has(> [class*="st-key-cart-bar-"]) {
  order: 1;
}
/* A long cart (or a short window) must not push Place order below the sidebar's edge. */
[data-testid="stSidebar"] [class*="st-key-cart-"][class*="-checkout"] {
  position: sticky;
  bottom: 0.75rem;
  z-index: 1;
}
@media (min-width: 768px) {
  .stApp:has([data-testid="stSidebar"][data-collapsed="false"])
    [data-testid="stLayoutWrapper"]:has(> [class*="st-key-cart-bar-"]) {
    display: none;
  }
}
</style>"""

# Registered once per page load (a shop's pages share one window); it runs after the
# buttons' own click handlers, so Streamlit still gets every press.
_DRAWER_SCRIPT = """<script>
(() => {
  if (window.__cartDrawer) return;
  window.__cartDrawer = true;
  const find = (selector) => document.querySelector(selector);
  document.addEventListener("click", (event) => {
    if (!(event.target instanceof Element)) return;
    if (event.target.closest('[class*="st-key-cart-open-"] button')) {
      find('[data-testid="stExpandSidebarButton"]')?.click();
      // The cart panel sits below the page links: bring it to the top of the drawer.
      requestAnimationFrame(() => find(
        '[data-testid="stSidebar"] [class*="st-key-cart-panel-"]'
      )?.scrollIntoView({ block: "start" }));
      return;
    }
    const placed = event.target.closest(
      '[data-testid="stSidebar"] [class*="st-key-cart-"][class*="-checkout"] button'
    );
    if (placed && window.matchMedia("(max-width: 767.98px)").matches) {
      find('[data-testid="stSidebarCollapseButton"] button')?.click();
    }
  });
})();
</script>"""


def bar_label(cart: CartState) -> str:
    """`2 items · ₹147`: units, then what the order costs as far as it is known."""
    count = cart.item_count
    text = f"{count} item" + ("" if count == 1 else "s")
    amount = _amount(cart)
    return text if amount is None else f"{text} · {rupees(amount)}"


def render_cart_bar(vertical: Vertical, cart: CartState, *, busy: bool) -> None:
    """The bar of a cart with lines (nothing for an empty cart): what it holds, which
    opens the whole cart, and Place order, so a phone orders without opening anything."""
    if cart.is_empty:
        return
    st.html(_BAR_STYLE)  # style only: Streamlit keeps it out of the layout
    # No gap: the script's element is empty and must not push the bar off the input.
    with st.bottom, st.container(key=f"cart-bar-{vertical.id}", gap=None):
        st.html(_DRAWER_SCRIPT, unsafe_allow_javascript=True)
        with st.container(horizontal=True, wrap=False, gap="small"):
            st.button(
                bar_label(cart),
                key=f"cart-open-{vertical.id}",
                icon=BAR_ICON,
                width="stretch",
            )
            st.button(
                "Place order",
                key=f"cart-place-{vertical.id}",
                type="primary",
                width="content",
                disabled=busy,
                on_click=state.queue_action,
                args=(checkout_action(),),
            )


def _amount(cart: CartState) -> float | None:
    """The bill's total; before a bill arrives, the lines' sum when every line has one."""
    if cart.to_pay is not None:
        return cart.to_pay
    totals = [line.line_total for line in cart.items]
    return sum(total for total in totals if total is not None) if None not in totals else None
