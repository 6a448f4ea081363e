import pytest

from swiggy_core.constants import DEFAULT_DATABASE_URL, DEFAULT_MODEL
from swiggy_core.errors import ErrorCode, SettingsError
from swiggy_core.settings import load_settings


def test_nothing_configured_means_offline_sandbox_defaults():
    settings = load_settings({}, {})
    assert settings.offline_demo and settings.sandbox
    assert settings.model == DEFAULT_MODEL
    assert settings.engine == "auto"
    assert settings.database_url == DEFAULT_DATABASE_URL
    assert not settings.has_swiggy_token


def test_secrets_take_precedence_over_environment():
    settings = load_settings(
        {"ANTHROPIC_MODEL": "claude-sonnet-5-5"},
        {"ANTHROPIC_MODEL": "claude-haiku-5-5", "ANTHROPIC_API_KEY": "sk-env"},
    )
    assert settings.model == "claude-sonnet-5-5"
    assert settings.anthropic_api_key is not None
    assert settings.anthropic_api_key.get_secret_value() == "sk-env"


def test_lower_case_secret_keys_are_accepted():
    settings = load_settings({"swiggy_token": "tok-123"}, {})
    assert settings.has_swiggy_token
    assert settings.sandbox is False  # a real token means a real Swiggy by default


def test_secrets_never_appear_in_repr_or_str():
    settings = load_settings(
        {"ANTHROPIC_API_KEY": "sk-ant-very-secret", "SWIGGY_TOKEN": "swiggy-very-secret"}, {}
    )
    for text in (repr(settings), str(settings), settings.model_dump_json()):
        assert "very-secret" not in text


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"ANTHROPIC_BASE_URL": "ftp://example"}, "ANTHROPIC_BASE_URL"),
        ({"ANTHROPIC_BASE_URL": "not a url"}, "ANTHROPIC_BASE_URL"),
        ({"SWIGGY_ENGINE": "turbo"}, "SWIGGY_ENGINE"),
        ({"SWIGGY_SANDBOX": "maybe"}, "SWIGGY_SANDBOX"),
        ({"ANTHROPIC_MODEL": "claude haiku"}, "ANTHROPIC_MODEL"),
        ({"ANTHROPIC_API_KEY": "sk ant"}, "ANTHROPIC_API_KEY"),
        ({"SWIGGY_DATABASE_URL": "chats.db"}, "SWIGGY_DATABASE_URL"),
    ],
)
def test_malformed_settings_name_the_setting(env, named):
    with pytest.raises(SettingsError) as caught:
        load_settings({}, env)
    assert named in str(caught.value)
    assert caught.value.code is ErrorCode.SETTING_INVALID
    assert str(caught.value).startswith("[E-1001]")


def test_a_table_in_secrets_is_rejected_with_its_name():
    with pytest.raises(SettingsError, match="SWIGGY_TOKEN"):
        load_settings({"SWIGGY_TOKEN": {"nested": "x"}}, {})


def test_valid_values_are_normalised():
    settings = load_settings(
        {},
        {
            "ANTHROPIC_BASE_URL": "http://127.0.0.1:8123/",
            "SWIGGY_ENGINE": "LOCAL",
            "SWIGGY_SANDBOX": "off",
            "SWIGGY_DATABASE_URL": "sqlite:////tmp/x.db",
        },
    )
    assert settings.anthropic_base_url == "http://127.0.0.1:8123"
    assert settings.engine == "local"
    assert settings.sandbox is False
    assert settings.database_url == "sqlite:////tmp/x.db"
