"""The sandbox's frozen moment for tests that run the app: 1 pm in India on a fixed day.

Restaurants are open at 1 pm, and on this day "tomorrow" (25 November) has a free table at
8 pm at the first Italian place, which the slot tests ask for. The app tells the model the
sandbox's time, so the offline planner and the shop agree on what "tomorrow" is. With the
real date, some days' seeded 8 pm is sold out and those tests would fail on those days.
"""

FIXED_SANDBOX_NOW = "2026-11-24T13:00:00+05:30"
SANDBOX_NOW_ENV = "SWIGGY_SANDBOX_NOW"
