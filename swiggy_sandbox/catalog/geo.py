"""Distances, opening hours and delivery estimates for Bengaluru (times are IST)."""

from __future__ import annotations

import math
from datetime import datetime, time

from swiggy_core.constants import SWIGGY_TZ

CITY = "Bengaluru"
_EARTH_RADIUS_KM = 6371.0
_MINUTES_PER_KM = 4
_HANDOVER_MINUTES = 5


def haversine_km(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """Great-circle distance in kilometres."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lng2 - lng1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * _EARTH_RADIUS_KM * math.asin(math.sqrt(a))


def parse_hhmm(text: str) -> time:
    """'07:30' → time(7, 30)."""
    hours, minutes = text.split(":")
    return time(int(hours), int(minutes))


def is_open(opens_at: str, closes_at: str, now: datetime) -> bool:
    """Whether a shop with these hours is open at `now` (handles closing after midnight)."""
    local = now.astimezone(SWIGGY_TZ).time()
    opens, closes = parse_hhmm(opens_at), parse_hhmm(closes_at)
    if opens <= closes:
        return opens <= local < closes
    return local >= opens or local < closes


def delivery_minutes(distance_km: float, prep_minutes: int) -> int:
    """Estimated minutes from order to doorstep."""
    return prep_minutes + _HANDOVER_MINUTES + round(distance_km * _MINUTES_PER_KM)
