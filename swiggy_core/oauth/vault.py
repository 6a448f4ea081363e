"""`TokenVault`: a remembered sign-in, encrypted at rest (Fernet) in the app's database.

The key comes from the app's secrets (`SWIGGY_TOKEN_KEY`): a Fernet key, or any secret
string from which one is derived (SHA-256). Without a key nothing is written; with the wrong
key nothing is read. The database only ever holds ciphertext, and each ciphertext names
its owner and backend, so a row copied to another person does not open for them.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import threading

from cryptography.fernet import Fernet, InvalidToken

from swiggy_core.errors import ErrorCode, OAuthError
from swiggy_core.logsafe import register_secret
from swiggy_core.oauth.token import SwiggyToken
from swiggy_core.store import ChatStore

_NO_KEY = (
    "Remembering a Swiggy sign-in needs the SWIGGY_TOKEN_KEY secret; without it the sign-in "
    "stays in memory only."
)
_BAD_KEY = (
    "The remembered Swiggy sign-in cannot be read with this app's SWIGGY_TOKEN_KEY (the key "
    "changed or the copy is damaged). Sign in again."
)

_stores_lock = threading.Lock()
_stores: dict[str, ChatStore] = {}


def _shared_store(database_url: str) -> ChatStore:
    """One store per database URL for the process (opening one migrates and pools)."""
    with _stores_lock:
        if database_url not in _stores:
            _stores[database_url] = ChatStore(database_url)
        return _stores[database_url]


def fernet_for(key: str) -> Fernet:
    """A Fernet for `key`: used as is when it is a Fernet key, else derived with SHA-256."""
    register_secret(key)
    try:
        return Fernet(key.encode("utf-8"))
    except (ValueError, binascii.Error):
        digest = hashlib.sha256(key.encode("utf-8")).digest()
        return Fernet(base64.urlsafe_b64encode(digest))


class TokenVault:
    """Remembered tokens per (user id, backend), encrypted with the app's key."""

    def __init__(self, store_or_db_url: ChatStore | str, key: str | None) -> None:
        if isinstance(store_or_db_url, ChatStore):
            self._store = store_or_db_url
        else:
            self._store = _shared_store(store_or_db_url)
        self._fernet = fernet_for(key) if key else None

    def __repr__(self) -> str:
        return f"TokenVault(key={'set' if self._fernet else 'missing'})"

    def save(self, user_id: str, backend: str, token: SwiggyToken) -> None:
        """Remember `token` for `user_id` on `backend` (E-5111 without a key: nothing written)."""
        if self._fernet is None:
            raise OAuthError(_NO_KEY, code=ErrorCode.OAUTH_TOKEN_VAULT)
        sealed = {"user_id": user_id, "backend": backend, "token": token.to_json()}
        ciphertext = self._fernet.encrypt(json.dumps(sealed).encode("utf-8"))
        self._store.save_remembered_token(user_id, backend, ciphertext.decode("ascii"))

    def load(self, user_id: str, backend: str) -> SwiggyToken | None:
        """The remembered token, None if there is none; E-5111 when it cannot be read."""
        ciphertext = self._store.load_remembered_token(user_id, backend)
        if ciphertext is None:
            return None
        if self._fernet is None:
            raise OAuthError(_NO_KEY, code=ErrorCode.OAUTH_TOKEN_VAULT)
        try:
            sealed = json.loads(self._fernet.decrypt(ciphertext.encode("ascii")))
            if sealed["user_id"] != user_id or sealed["backend"] != backend:
                raise ValueError("sealed for someone else")
            return SwiggyToken.from_json(sealed["token"])
        except (InvalidToken, ValueError, KeyError, TypeError):
            raise OAuthError(_BAD_KEY, code=ErrorCode.OAUTH_TOKEN_VAULT) from None

    def forget(self, user_id: str, backend: str) -> None:
        """Remove the remembered token (works without a key)."""
        self._store.forget_remembered_token(user_id, backend)
