"""The two result forms, and the human-readable summary live Swiggy puts in `content[0].text`.

`envelope`: the documented `{success, data, message}` JSON as the text. `summary`: what
integrators report from live use, prose with numbered records (`1. Name — detail | ₹price
(ID: …)`) in the text and the data in the MCP result's `structuredContent`. Rendering routes
on the data's keys, never on the tool name alone, so documented and older shapes both read.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Mapping
from typing import Any, Literal, cast

from swiggy_sandbox.servers import summary_orders, summary_shop
from swiggy_sandbox.servers.summary_format import Record
from swiggy_sandbox.servers.summary_slots import slots

ResultForm = Literal["envelope", "summary"]
RESULT_FORMS: tuple[ResultForm, ...] = ("envelope", "summary")
RESULT_FORM_ENV_VAR = "SWIGGY_SANDBOX_RESULT_FORM"
_PLAIN_STATUSES = frozenset({"", "ok", "success", "done"})

# The first renderer that recognises the data's keys writes the body; order matters where
# shapes overlap (a placed order also lists its items; a cart's items are not a menu).
_RENDERERS: tuple[Callable[[Record], str | None], ...] = (
    summary_orders.confirmation,
    summary_shop.addresses,
    summary_shop.products,
    summary_shop.restaurants,
    slots,
    summary_shop.cart,
    summary_shop.dishes,
    summary_orders.orders,
    summary_orders.coupons,
    summary_orders.venue,
    summary_orders.facts,
)


def resolve_result_form(
    value: str | None = None, environ: Mapping[str, str] | None = None
) -> ResultForm:
    """`value`, else $SWIGGY_SANDBOX_RESULT_FORM, else "envelope"; anything else is an error."""
    environ = os.environ if environ is None else environ
    raw = value if value is not None else environ.get(RESULT_FORM_ENV_VAR, "")
    chosen = raw.strip().lower() or "envelope"
    if chosen not in RESULT_FORMS:
        raise ValueError(f"{RESULT_FORM_ENV_VAR} must be envelope or summary; got {raw!r}.")
    return cast(ResultForm, chosen)


def add_result_form_option(parser: argparse.ArgumentParser) -> None:
    """`--result-form`, as every sandbox command line takes it."""
    parser.add_argument(
        "--result-form",
        choices=RESULT_FORMS,
        default=None,
        help="envelope: JSON text; summary: prose + structuredContent "
        f"(default: ${RESULT_FORM_ENV_VAR}, else envelope)",
    )


def parse_checking_result_form(
    parser: argparse.ArgumentParser, argv: list[str] | None
) -> argparse.Namespace:
    """The arguments, with $SWIGGY_SANDBOX_RESULT_FORM checked before anything starts."""
    args = parser.parse_args(argv)
    try:
        resolve_result_form(args.result_form)
    except ValueError as error:
        parser.error(str(error))
    return args


def render_summary(tool: str, data: Any, message: str = "") -> str:
    """Prose for a successful result: the message as a heading, then the records."""
    record = _inner(data) if isinstance(data, dict) else {}
    status = str(record.get("statusMessage") or "")
    heading = (message or ("" if status.lower() in _PLAIN_STATUSES else status)).strip()
    for render in _RENDERERS:
        body = render(record)
        if body is None:
            continue
        if not heading or _same(heading, body.partition("\n")[0]):
            return body
        return f"{heading}\n{body}"
    return heading or f"{tool}: done."


def _same(heading: str, first_line: str) -> bool:
    return heading.rstrip(".:").lower() == first_line.rstrip(".:").lower()


def _inner(data: Record) -> Record:
    """Food nests its cart under `data.data` and order details under `order`: lift them."""
    for key in ("data", "order"):
        nested = data.get(key)
        if isinstance(nested, dict):
            return {**{k: v for k, v in data.items() if k != key}, **nested}
    return data
