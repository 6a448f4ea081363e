"""One typed Settings object read from a secrets mapping and the environment.

Lookup order for each setting: the secrets mapping (e.g. `st.secrets`), then the
environment. A malformed value raises `SettingsError` naming the setting; secrets are
`SecretStr`, so neither `repr` nor `str` of the object ever shows them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from typing import Any, Literal
from urllib.parse import urlparse

from pydantic import BaseModel, ConfigDict, SecretStr

from swiggy_core.constants import DEFAULT_DATABASE_URL, DEFAULT_MODEL
from swiggy_core.errors import SettingsError
from swiggy_core.logsafe import mask_url_password

EngineName = Literal["auto", "connector", "local"]
ENGINE_NAMES: tuple[EngineName, ...] = ("auto", "connector", "local")
# How the Swiggy servers answer: `auto` (unknown; real Swiggy is assumed to send a summary
# with structuredContent), the JSON `envelope` as text, or a prose `summary`.
ResultFormName = Literal["auto", "envelope", "summary"]
RESULT_FORM_NAMES: tuple[ResultFormName, ...] = ("auto", "envelope", "summary")
SandboxResultForm = Literal["envelope", "summary"]

# Setting name -> environment variable (secrets use the same keys).
ENV_NAMES: dict[str, str] = {
    "anthropic_api_key": "ANTHROPIC_API_KEY",
    "anthropic_base_url": "ANTHROPIC_BASE_URL",
    "model": "ANTHROPIC_MODEL",
    "engine": "SWIGGY_ENGINE",
    "result_form": "SWIGGY_RESULT_FORM",
    "sandbox_result_form": "SWIGGY_SANDBOX_RESULT_FORM",
    "swiggy_token": "SWIGGY_TOKEN",
    "sandbox": "SWIGGY_SANDBOX",
    "database_url": "SWIGGY_DATABASE_URL",
    "share_owner_credentials": "SWIGGY_SHARE_OWNER_CREDENTIALS",
    "allowed_emails": "SWIGGY_ALLOWED_EMAILS",
    "token_key": "SWIGGY_TOKEN_KEY",
}
_EMAIL_RE = re.compile(r"[^@\s,]+@[^@\s,]+\.[^@\s,]+")
_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


class Settings(BaseModel):
    """Everything the app needs to know about its environment."""

    model_config = ConfigDict(frozen=True)

    anthropic_api_key: SecretStr | None = None
    anthropic_base_url: str | None = None
    model: str = DEFAULT_MODEL
    engine: EngineName = "auto"
    result_form: ResultFormName = "auto"
    sandbox_result_form: SandboxResultForm = "envelope"
    swiggy_token: SecretStr | None = None
    sandbox: bool = True
    database_url: str = DEFAULT_DATABASE_URL
    # The owner's key and token serve signed-in visitors on this allow-list only when the
    # owner says so; otherwise they serve nobody but the owner at this machine.
    share_owner_credentials: bool = False
    allowed_emails: frozenset[str] = frozenset()
    # Encrypts a remembered Swiggy sign-in at rest; without it sign-ins stay in memory only.
    token_key: SecretStr | None = None

    @property
    def has_api_key(self) -> bool:
        return self.anthropic_api_key is not None

    @property
    def has_swiggy_token(self) -> bool:
        return self.swiggy_token is not None

    @property
    def offline_demo(self) -> bool:
        """No key: the sandbox's offline planner answers instead of Claude."""
        return not self.has_api_key

    def __repr_args__(self) -> Iterable[tuple[str | None, Any]]:
        """`repr`/`str` fields, a URL's password shown as `***` (`postgresql://u:***@h/db`)."""
        for name, value in super().__repr_args__():
            yield name, mask_url_password(value) if isinstance(value, str) else value


def load_settings(
    secrets: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None
) -> Settings:
    """Read settings; raise SettingsError naming the first bad setting."""
    environ = os.environ if environ is None else environ
    raw = {name: _lookup(env_name, secrets or {}, environ) for name, env_name in ENV_NAMES.items()}
    values: dict[str, Any] = {}
    if raw["anthropic_api_key"]:
        values["anthropic_api_key"] = SecretStr(_clean_secret("ANTHROPIC_API_KEY", raw))
    if raw["anthropic_base_url"]:
        values["anthropic_base_url"] = _parse_url("ANTHROPIC_BASE_URL", raw["anthropic_base_url"])
    if raw["model"]:
        values["model"] = _parse_model(raw["model"])
    if raw["engine"]:
        values["engine"] = _parse_engine(raw["engine"])
    if raw["result_form"]:
        values["result_form"] = _parse_choice(
            "SWIGGY_RESULT_FORM", raw["result_form"], RESULT_FORM_NAMES
        )
    if raw["sandbox_result_form"]:
        values["sandbox_result_form"] = _parse_choice(
            "SWIGGY_SANDBOX_RESULT_FORM", raw["sandbox_result_form"], ("envelope", "summary")
        )
    if raw["swiggy_token"]:
        values["swiggy_token"] = SecretStr(_clean_secret("SWIGGY_TOKEN", raw))
    if raw["sandbox"]:
        values["sandbox"] = _parse_bool("SWIGGY_SANDBOX", raw["sandbox"])
    else:
        # With no Swiggy token there is nothing real to talk to: use the sandbox.
        values["sandbox"] = "swiggy_token" not in values
    if raw["database_url"]:
        values["database_url"] = _parse_database_url(raw["database_url"])
    if raw["share_owner_credentials"]:
        values["share_owner_credentials"] = _parse_bool(
            "SWIGGY_SHARE_OWNER_CREDENTIALS", raw["share_owner_credentials"]
        )
    if raw["allowed_emails"]:
        values["allowed_emails"] = _parse_emails(raw["allowed_emails"])
    if raw["token_key"]:
        values["token_key"] = SecretStr(_clean_secret("SWIGGY_TOKEN_KEY", raw))
    return Settings(**values)


def _lookup(env_name: str, secrets: Mapping[str, Any], environ: Mapping[str, str]) -> str:
    for key in (env_name, env_name.lower()):
        if key in secrets and secrets[key] is not None:
            value = secrets[key]
            if not isinstance(value, str | int | float | bool):
                raise SettingsError(f"{env_name} must be a single value, not a table.")
            return str(value).strip()
    return environ.get(env_name, "").strip()


def _clean_secret(env_name: str, raw: dict[str, str]) -> str:
    name = next(key for key, env in ENV_NAMES.items() if env == env_name)
    value = raw[name]
    if any(ch.isspace() for ch in value) or not value.isprintable():
        raise SettingsError(f"{env_name} contains spaces or control characters.")
    return value


def _parse_url(env_name: str, value: str) -> str:
    parsed = urlparse(value)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise SettingsError(f"{env_name} must be an http(s) URL, e.g. https://api.anthropic.com.")
    return value.rstrip("/")


def _parse_model(value: str) -> str:
    if any(ch.isspace() for ch in value) or len(value) > 100:
        raise SettingsError("ANTHROPIC_MODEL must be a model id such as claude-haiku-4-5.")
    return value


def _parse_engine(value: str) -> EngineName:
    lowered = value.lower()
    for engine in ENGINE_NAMES:
        if engine == lowered:
            return engine
    raise SettingsError(f"SWIGGY_ENGINE must be one of {', '.join(ENGINE_NAMES)}; got {value!r}.")


def _parse_choice(env_name: str, value: str, choices: tuple[str, ...]) -> str:
    lowered = value.lower()
    if lowered in choices:
        return lowered
    raise SettingsError(f"{env_name} must be one of {', '.join(choices)}; got {value!r}.")


def _parse_bool(env_name: str, value: str) -> bool:
    lowered = value.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise SettingsError(f"{env_name} must be true or false; got {value!r}.")


def _parse_emails(value: str) -> frozenset[str]:
    emails = frozenset(part.strip().lower() for part in value.split(",") if part.strip())
    bad = [email for email in emails if not _EMAIL_RE.fullmatch(email)]
    if bad:
        raise SettingsError(
            f"SWIGGY_ALLOWED_EMAILS must be comma-separated emails; got {bad[0]!r}."
        )
    return emails


def _parse_database_url(value: str) -> str:
    if "://" not in value:
        raise SettingsError("SWIGGY_DATABASE_URL must be a URL such as sqlite:///chats.db.")
    return value
