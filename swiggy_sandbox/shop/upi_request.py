"""What a spending tool's UPI arguments ask for: a QR to scan, or one UPI app on a phone.

`upi_choice` reads paymentMethod / intentApp / generateUPIQR as Swiggy documents them:
UPI with exactly one of generateUPIQR=true or intentApp=<a listed app>.
"""

from __future__ import annotations

from dataclasses import dataclass

from swiggy_sandbox.shop.errors import ShopError

QR_METHOD_ID = "UPI_QR"
# The UPI apps a phone can hand the payment to: (intentApp id, name).
UPI_APPS = (
    ("gpay://upi/", "Google Pay"),
    ("phonepe://pay", "PhonePe"),
    ("paytmmp://pay", "Paytm"),
)
APP_IDS = tuple(app for app, _ in UPI_APPS)
_NOT_PLACED = "No order was placed."


@dataclass(frozen=True, slots=True)
class UpiChoice:
    """How the person pays by UPI: a QR to scan, or one UPI app on the phone."""

    intent_app: str | None

    @property
    def qr(self) -> bool:
        """True when the person scans a QR (a desktop) rather than opening an app."""
        return self.intent_app is None


def upi_choice(
    payment_method: str | None, intent_app: str | None, generate_qr: bool | None
) -> UpiChoice | None:
    """The UPI request in a spending tool's arguments; None when the method is not UPI."""
    if (payment_method or "").strip().upper() != "UPI":
        if intent_app or generate_qr:
            raise ShopError(
                f'intentApp and generateUPIQR go with paymentMethod "UPI" only. {_NOT_PLACED}'
            )
        return None
    if bool(intent_app) == bool(generate_qr):
        raise ShopError(
            "Invalid UPI request: send exactly one of generateUPIQR=true (scan a QR) or "
            f"intentApp=<a UPI app id from get_payment_options>. {_NOT_PLACED}"
        )
    if intent_app and intent_app not in APP_IDS:
        raise ShopError(
            f"Invalid intentApp '{intent_app}': use one of {', '.join(APP_IDS)} "
            f"(get_payment_options lists them). {_NOT_PLACED}"
        )
    return UpiChoice(intent_app or None)
