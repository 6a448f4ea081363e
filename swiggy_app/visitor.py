"""Who is asking, in which world, with which credentials: values the UI resolved."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

Backend = Literal["sandbox", "swiggy"]
TokenSource = Literal["visitor", "owner", "signin"]


@dataclass(frozen=True, slots=True)
class Visitor:
    """One person in one world (secrets never in the repr).

    `user_id` keys chats, addresses, approvals and audit: the person *and* the backend, so
    the sandbox and real Swiggy never share a chat, an address id or a cart.
    """

    person_id: str  # who they are, whatever the world (sign-in tokens are kept under it)
    backend: Backend
    model: str
    api_key: str | None = field(default=None, repr=False)
    base_url: str | None = None
    swiggy_token: str | None = field(default=None, repr=False)
    token_source: TokenSource | None = None
    # This person's "Sign in with Swiggy (sandbox)" token, if they signed in to the sandbox.
    sandbox_signin: str | None = field(default=None, repr=False)
    # The deployment's secrets a server's `secret:NAME` credential may name.
    secrets: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), repr=False)

    @property
    def user_id(self) -> str:
        return f"{self.person_id}@{self.backend}"


def world_of(user_id: str) -> str:
    """The world (backend) a stored user id belongs to: what follows its last "@"."""
    return user_id.rpartition("@")[2]
