"""The one domain error: becomes a `success: false` envelope at the tool boundary."""

from __future__ import annotations


class ShopError(Exception):
    """A request the shop refuses (bad input, sold out, slot gone); the message is for people."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
