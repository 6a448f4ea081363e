"""Order status derived from the clock, so tracking is deterministic under a fixed clock."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

# (status, human message, minute the stage starts) for each vertical.
INSTAMART_STAGES = (
    ("CONFIRMED", "Order confirmed", 0),
    ("PACKING", "Your items are being packed", 1),
    ("OUT_FOR_DELIVERY", "Delivery partner is on the way", 4),
)
FOOD_STAGES = (
    ("PLACED", "Order placed", 0),
    ("PREPARING", "Restaurant is preparing your food", 2),
    ("OUT_FOR_DELIVERY", "Delivery partner has picked up your order", -1),  # -1: after prep
)
RIDERS = ("Ravi Kumar", "Manjunath S", "Imran Pasha", "Suresh Gowda", "Anil Reddy", "Prakash N")


@dataclass(frozen=True, slots=True)
class Progress:
    """Where an order stands at a moment."""

    status: str
    message: str
    minutes_left: int
    fraction_travelled: float  # 0 at the store, 1 at the door


def iso(ts: float) -> str:
    """Unix seconds → ISO 8601 UTC string."""
    return datetime.fromtimestamp(ts, UTC).isoformat().replace("+00:00", "Z")


def progress(
    stages: tuple[tuple[str, str, int], ...],
    placed_at: float,
    now: float,
    eta_minutes: int,
    prep_minutes: int,
) -> Progress:
    """Current stage of an order placed at `placed_at` that arrives after `eta_minutes`."""
    elapsed = max(0.0, (now - placed_at) / 60)
    if elapsed >= eta_minutes:
        return Progress("DELIVERED", "Order delivered", 0, 1.0)
    status, message, travel_start = stages[0][0], stages[0][1], float(eta_minutes)
    for name, text, start in stages:
        begins = prep_minutes if start < 0 else start
        if name == "OUT_FOR_DELIVERY":
            travel_start = begins
        if elapsed >= begins:
            status, message = name, text
    travel = max(1.0, eta_minutes - travel_start)
    fraction = min(1.0, max(0.0, (elapsed - travel_start) / travel))
    return Progress(status, message, max(1, round(eta_minutes - elapsed)), round(fraction, 3))


def rider_for(order_id: str) -> str:
    """A stable delivery partner name per order."""
    return RIDERS[sum(map(ord, order_id)) % len(RIDERS)]


def interpolate(
    start: tuple[float, float], end: tuple[float, float], fraction: float
) -> dict[str, float]:
    """A point `fraction` of the way from start to end."""
    return {
        "lat": round(start[0] + (end[0] - start[0]) * fraction, 6),
        "lng": round(start[1] + (end[1] - start[1]) * fraction, 6),
    }
