"""The cart panel's actions and the words for a cart change (no Streamlit here).

Every action is built from the cart as derived from the whole conversation on this run,
so a button never acts on an older snapshot. Instamart's `update_cart` (and a food
cart's update) replaces the whole cart: an action carries the full cart it wants
(`ids["cart"]`), not only the line that changes.
"""

from __future__ import annotations

from typing import Any

from swiggy_core.cart import CartState
from swiggy_core.formatting import rupees
from swiggy_core.models import ActionKind, CardAction
from swiggy_core.parsers import CartLine, CartResult

# An action that empties the cart in one step, once the actions know one.


def quantity_action(cart: CartState, line: CartLine, quantity: int) -> CardAction:
    """Set one line to `quantity` (0 removes it); the other lines stay as they are."""
    quantity = max(0, quantity)
    wanted = [_wire(other) for other in cart.items if other.key != line.key]
    if quantity > 0:
        wanted.append(_wire(line, quantity))
    ids: dict[str, Any] = {
        "name": line.name,
        "quantity": quantity,
        "spinId": line.spin_id,
        "skuId": line.sku_id,
        "menu_item_id": line.menu_item_id,
        "restaurantId": line.restaurant_id or cart.restaurant_id,
        "cart": wanted,
    }
    kind: ActionKind = "remove_from_cart" if quantity == 0 else "set_quantity"
    return CardAction(
        kind=kind,
        label=change_label(line, quantity),
        ids={key: value for key, value in ids.items() if value is not None},
    )


def change_label(line: CartLine, quantity: int) -> str:
    """What the chat and the toast say: "Added 1 × Amul Butter (now 2)", "Removed Bread"."""
    if quantity <= 0:
        return f"Removed {line.name}"
    if quantity > line.quantity:
        return f"Added {quantity - line.quantity} × {line.name} (now {quantity})"
    return f"Took {line.quantity - quantity} × {line.name} out (now {quantity})"


def checkout_action() -> CardAction:
    """Ask for the order (the approval dialog shows it before anything is spent)."""
    return CardAction(kind="request_checkout", label="Place the order", ids={})


def keep_action(count: int, shop: str) -> CardAction:
    """Bring the shared cart into this chat, so the panel and its buttons see it."""
    label = f"Keep the {_items(count)} from {shop} in my cart" if count else "Show my cart"
    return CardAction(kind="view_cart", label=label, ids={})


def clear_action() -> CardAction:
    """Empty the cart in one step."""
    return CardAction(kind="clear_cart", label="Cleared my cart", ids={"cart": []})


def change_text(before: CartResult | None, after: CartResult) -> str:
    """The compact chat line: "Cart updated: +1 × Amul Butter 500 g · total ₹113"."""
    amount = rupees(after.to_pay) if after.to_pay is not None else None
    if not after.items:
        return "Cart is empty" if before is None or not before.items else "Cart emptied"
    changes = [] if before is None else _changes(before.items, after.items)
    if not changes:  # the first cart, or a read that changed nothing
        count = _items(sum(line.quantity for line in after.items))
        return f"Cart: {count}" + (f" · {amount}" if amount else "")
    return f"Cart updated: {', '.join(changes)}" + (f" · total {amount}" if amount else "")


def _changes(before: list[CartLine], after: list[CartLine]) -> list[str]:
    old = {line.key: line for line in before}
    new = {line.key: line for line in after}
    changes = []
    for key, line in new.items():
        delta = line.quantity - (old[key].quantity if key in old else 0)
        if delta:
            changes.append(f"{'+' if delta > 0 else '−'}{abs(delta)} × {_named(line)}")
    changes += [f"−{line.quantity} × {_named(line)}" for k, line in old.items() if k not in new]
    return changes


def _named(line: CartLine) -> str:
    size = f" {line.quantity_description}" if line.quantity_description else ""
    return f"{line.name}{size}"


def _items(count: int) -> str:
    return f"{count} item" + ("" if count == 1 else "s")


def _wire(line: CartLine, quantity: int | None = None) -> dict[str, Any]:
    """One line exactly as the cart tools take it: ids and quantity, nothing else."""
    fields = {
        "spinId": line.spin_id,
        "skuId": line.sku_id,
        "menu_item_id": line.menu_item_id,
        "quantity": line.quantity if quantity is None else quantity,
    }
    return {key: value for key, value in fields.items() if value is not None}
