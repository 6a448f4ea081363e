"""Remembered sign-ins: Fernet ciphertext only, per person and backend, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cryptography.fernet import Fernet
from sqlalchemy import text

from swiggy_core.errors import ErrorCode
from swiggy_core.oauth import OAuthError, SwiggyToken, TokenVault
from swiggy_core.store import ChatStore

ACCESS = "access-token-that-must-never-be-stored-in-clear-0123"
REFRESH = "refresh-token-that-must-never-be-stored-in-clear-4567"
NOW = datetime(2026, 11, 20, 9, 30, tzinfo=UTC)


def token(access: str = ACCESS) -> SwiggyToken:
    return SwiggyToken(
        access_token=access,
        token_type="Bearer",
        scope="mcp:tools",
        issuer="https://mcp.swiggy.com/auth",
        obtained_at=NOW,
        expires_at=NOW + timedelta(days=5),
        refresh_token=REFRESH,
        resources=("https://mcp.swiggy.com/im",),
        client_id="swiggy-mcp",
    )


def rows(store: ChatStore) -> list[tuple[str, str, str]]:
    with store.engine.connect() as conn:
        query = text("SELECT user_id, backend, ciphertext FROM remembered_tokens ORDER BY 1, 2")
        return [tuple(row) for row in conn.execute(query)]  # type: ignore[misc]


def test_save_load_forget_per_person_and_backend(store: ChatStore) -> None:
    vault = TokenVault(store, "app secret from secrets.toml")
    assert vault.load("alice", "swiggy") is None
    vault.save("alice", "swiggy", token())
    vault.save("alice", "sandbox", token("sandbox-token-0123456789"))
    assert vault.load("alice", "swiggy") == token()
    assert vault.load("alice", "sandbox") == token("sandbox-token-0123456789")
    assert vault.load("bob", "swiggy") is None
    vault.save("alice", "swiggy", token("replaced-token-0123456789"))  # one row, replaced
    assert vault.load("alice", "swiggy") == token("replaced-token-0123456789")
    assert len(rows(store)) == 2
    vault.forget("alice", "swiggy")
    assert vault.load("alice", "swiggy") is None and len(rows(store)) == 1
    vault.forget("alice", "swiggy")  # nothing to forget: fine


def test_the_database_holds_only_ciphertext(store: ChatStore) -> None:
    TokenVault(store, "app secret").save("alice", "swiggy", token())
    ((user, backend, ciphertext),) = rows(store)
    assert (user, backend) == ("alice", "swiggy")
    assert ACCESS not in ciphertext and REFRESH not in ciphertext and "mcp:tools" not in ciphertext


def test_the_sqlite_file_never_contains_the_token(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'app.db'}"
    store = ChatStore(url)
    try:
        TokenVault(store, "app secret").save("alice", "swiggy", token())
        # Opened by URL, as the app does: the same rows.
        assert TokenVault(url, "app secret").load("alice", "swiggy") == token()
    finally:
        store.close()
    on_disk = b"".join(path.read_bytes() for path in tmp_path.iterdir() if path.is_file())
    assert b"alice" in on_disk  # the row is there ...
    assert ACCESS.encode() not in on_disk and REFRESH.encode() not in on_disk  # ... sealed


def test_without_a_key_nothing_is_written(store: ChatStore) -> None:
    for key in (None, ""):
        with pytest.raises(OAuthError) as caught:
            TokenVault(store, key).save("alice", "swiggy", token())
        assert caught.value.code == ErrorCode.OAUTH_TOKEN_VAULT
        assert "SWIGGY_TOKEN_KEY" in caught.value.message
    assert rows(store) == []


def test_a_wrong_or_missing_key_cannot_read_and_never_crashes(store: ChatStore) -> None:
    TokenVault(store, "the right key").save("alice", "swiggy", token())
    for reader in (TokenVault(store, "another key"), TokenVault(store, None)):
        with pytest.raises(OAuthError) as caught:
            reader.load("alice", "swiggy")
        assert caught.value.code == ErrorCode.OAUTH_TOKEN_VAULT
        assert ACCESS not in str(caught.value)
    TokenVault(store, None).forget("alice", "swiggy")  # forgetting needs no key
    assert rows(store) == []


def test_a_fernet_key_is_used_as_is_and_a_passphrase_is_derived(store: ChatStore) -> None:
    key = Fernet.generate_key().decode()
    TokenVault(store, key).save("alice", "swiggy", token())
    ((_user, _backend, ciphertext),) = rows(store)
    assert ACCESS in Fernet(key.encode()).decrypt(ciphertext.encode()).decode()
    assert TokenVault(store, key).load("alice", "swiggy") == token()


def test_a_row_copied_to_another_person_does_not_open_for_them(store: ChatStore) -> None:
    vault = TokenVault(store, "app secret")
    vault.save("alice", "swiggy", token())
    ((_user, _backend, ciphertext),) = rows(store)
    store.save_remembered_token("mallory", "swiggy", ciphertext)
    with pytest.raises(OAuthError) as caught:
        vault.load("mallory", "swiggy")
    assert caught.value.code == ErrorCode.OAUTH_TOKEN_VAULT


def test_a_damaged_row_is_e5111(store: ChatStore) -> None:
    store.save_remembered_token("alice", "swiggy", "not-a-fernet-token")
    with pytest.raises(OAuthError) as caught:
        TokenVault(store, "app secret").load("alice", "swiggy")
    assert caught.value.code == ErrorCode.OAUTH_TOKEN_VAULT


def test_the_vault_repr_shows_no_key(store: ChatStore) -> None:
    assert "app secret" not in repr(TokenVault(store, "app secret"))
    assert repr(TokenVault(store, None)) == "TokenVault(key=missing)"
