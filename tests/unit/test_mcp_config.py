"""The server configuration file: TOML and JSON, legacy entries, lines named, no secrets."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from swiggy_core.constants import MCP_CONFIG_ENV, MCP_SERVERS
from swiggy_core.logsafe import redact
from swiggy_core.mcp.config import (
    ConfigProblem,
    ServerConfig,
    default_servers,
    load_server_config,
    parse_server_config,
    resolve_credential,
    sandbox_servers,
    servers_for_page,
)

REPO_ROOT = Path(__file__).resolve().parents[2]

VALID_TOML = """\
[servers.recipes]
transport = "stdio"
command = "python"
args = ["-m", "recipes_mcp"]
env = { RECIPES_REGION = "IN" }
cwd = "/srv/recipes"
pages = ["food", "foodorder"]

[servers.weather]
transport = "sse"
url = "https://weather.example.com/sse"
headers = { Accept-Language = "en-IN" }
credential = "secret:WEATHER_TOKEN"
pages = ["dining"]
enabled = false

[servers.local]
url = "http://127.0.0.1:8765/mcp"
"""


def problem_texts(problems: list[ConfigProblem]) -> list[str]:
    return [str(problem) for problem in problems]


def test_valid_toml_gives_each_server_and_keeps_the_defaults():
    result = parse_server_config(VALID_TOML)
    assert result.problems == []
    assert result.source == "mcp_servers.toml"
    assert list(result.servers) == ["instamart", "food", "dineout", "recipes", "weather", "local"]
    recipes = result.servers["recipes"]
    assert recipes == ServerConfig(
        key="recipes",
        transport="stdio",
        command="python",
        args=("-m", "recipes_mcp"),
        env={"RECIPES_REGION": "IN"},
        cwd="/srv/recipes",
        pages=("food", "foodorder"),
        origin="file",
    )
    assert recipes.target == "python -m recipes_mcp"
    weather = result.servers["weather"]
    assert (weather.transport, weather.url, weather.enabled) == (
        "sse",
        "https://weather.example.com/sse",
        False,
    )
    assert weather.headers == {"Accept-Language": "en-IN"}
    assert weather.credential == "secret:WEATHER_TOKEN"
    # Only a url: the legacy form, which is SSE; offered on every page, enabled.
    local = result.servers["local"]
    every_page = ("food", "style", "dining", "foodorder")
    assert (local.transport, local.pages, local.enabled) == ("sse", every_page, True)


def test_valid_json_in_the_same_shape():
    text = """{
      "servers": {
        "recipes": {"command": "python", "args": ["-m", "recipes_mcp"], "pages": ["food"]},
        "weather": {"transport": "sse", "url": "https://weather.example.com/sse"}
      }
    }"""
    result = parse_server_config(text, source="servers.json")
    assert result.problems == []
    assert result.servers["recipes"].transport == "stdio"
    assert result.servers["recipes"].pages == ("food",)
    assert result.servers["weather"].transport == "sse"


def test_legacy_entries_are_converted():
    text = """{
      "servers": {
        "old": {"url": "https://old.example.com/mcp", "disabled": false},
        "off": {"url": "https://off.example.com/mcp", "disabled": true},
        "nested": {"transport": {"type": "sse", "url": "https://n.example.com/sse"}}
      }
    }"""
    result = parse_server_config(text, source="config.json")
    assert result.problems == []
    old, off, nested = (result.servers[k] for k in ("old", "off", "nested"))
    assert (old.transport, old.url, old.enabled) == ("sse", "https://old.example.com/mcp", True)
    assert (off.transport, off.enabled) == ("sse", False)
    assert (nested.transport, nested.url) == ("sse", "https://n.example.com/sse")


def test_a_legacy_url_entry_is_sse_and_an_explicit_transport_is_kept():
    text = """{
      "mcpServers": {
        "legacy": {"url": "https://l.example.com/sse", "disabled": false},
        "typed": {"type": "http", "url": "https://t.example.com/mcp"},
        "named": {"transport": "streamable-http", "url": "https://n.example.com/mcp"},
        "nested": {"transport": {"type": "http", "url": "https://x.example.com/mcp"}}
      }
    }"""
    servers = parse_server_config(text, source="config.json").servers
    transports = {key: servers[key].transport for key in ("legacy", "typed", "named", "nested")}
    assert transports == {"legacy": "sse", "typed": "http", "named": "http", "nested": "http"}
    # Swiggy serves Streamable HTTP only: switching one of its servers off keeps that.
    text = '[servers.instamart]\nurl = "https://mcp.swiggy.com/im"\nenabled = false\n'
    instamart = parse_server_config(text).servers["instamart"]
    assert (instamart.transport, instamart.enabled) == ("http", False)


def test_the_common_mcp_servers_json_shape():
    text = """{
      "mcpServers": {
        "filesystem": {
          "command": "npx",
          "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
          "env": {"LOG_LEVEL": "info"}
        },
        "remote": {"type": "streamable-http", "url": "https://r.example.com/mcp"}
      }
    }"""
    result = parse_server_config(text, source="claude_desktop_config.json")
    assert result.problems == []
    filesystem = result.servers["filesystem"]
    assert (filesystem.transport, filesystem.command) == ("stdio", "npx")
    assert filesystem.args[-1] == "/tmp" and filesystem.env == {"LOG_LEVEL": "info"}
    assert result.servers["remote"].transport == "http"


def test_a_file_that_does_not_parse_names_the_line_and_keeps_the_defaults():
    text = '[servers.ok]\nurl = "https://ok.example.com/mcp"\n\n[servers.broken\nurl = "x"\n'
    result = parse_server_config(text)
    assert result.servers == default_servers()
    assert len(result.problems) == 1
    problem = result.problems[0]
    assert problem.line == 4
    assert str(problem).startswith("mcp_servers.toml line 4: not valid TOML")


def test_broken_json_names_the_line():
    text = '{\n  "servers": {\n    "a": {"url": "https://a.example.com"},\n  }\n}\n'
    result = parse_server_config(text, source="servers.json")
    assert [p.line for p in result.problems] == [4]
    assert "not valid JSON" in str(result.problems[0])
    assert result.servers == default_servers()


def test_a_bad_server_among_good_ones_is_skipped_with_its_line():
    text = """\
[servers.good]
url = "https://good.example.com/mcp"

[servers.pigeon]
url = "https://pigeon.example.com/mcp"
transport = "carrier-pigeon"

[servers.plain]
url = "http://remote.example.com/mcp"

[servers.lost]
url = "https://lost.example.com/mcp"
pages = ["food", "groceries"]

[servers.also_good]
command = "python"
"""
    result = parse_server_config(text)
    assert "good" in result.servers and "also_good" in result.servers
    assert {"pigeon", "plain", "lost"}.isdisjoint(result.servers)
    assert problem_texts(result.problems) == [
        "mcp_servers.toml line 6: server 'pigeon': transport must be one of stdio, http, sse",
        "mcp_servers.toml line 9: server 'plain': url must use https "
        "(plain http only for 127.0.0.1, localhost or ::1)",
        "mcp_servers.toml line 13: server 'lost': unknown page 'groceries' "
        "(pages are: food, style, dining, foodorder)",
    ]


def test_a_bad_json_server_names_its_setting_line():
    text = """{
  "servers": {
    "ok": {"url": "https://ok.example.com"},
    "bad": {
      "url": "https://bad.example.com",
      "headers": {"Accept": "json"},
      "pages": "food"
    }
  }
}"""
    result = parse_server_config(text, source="servers.json")
    assert [(p.line, p.key) for p in result.problems] == [(7, "bad")]
    assert "pages must be a list" in result.problems[0].message


@pytest.mark.parametrize(
    ("entry", "line", "named"),
    [
        (
            'url = "https://x.example.com/mcp"\nheaders = { Authorization = "Bearer abc123" }',
            3,
            "Authorization",
        ),
        (
            'url = "https://x.example.com/mcp"\n[servers.x.headers]\nX-Api-Key = "abc123"',
            4,
            "X-Api-Key",
        ),
        ('url = "https://x.example.com/mcp"\nheaders = { Cookie = "sid=abc123" }', 3, "Cookie"),
        (
            'url = "https://x.example.com/mcp"\nheaders = { X-Session-Token = "abc" }',
            3,
            "X-Session-Token",
        ),
        ('command = "srv"\nenv = { GITHUB_TOKEN = "ghp_abc123" }', 3, "GITHUB_TOKEN"),
        ('command = "srv"\nenv = { DB_PASSWORD = "hunter22" }', 3, "DB_PASSWORD"),
        ('url = "https://me:hunter22@x.example.com/mcp"', 2, "user or password"),
        ('url = "https://x.example.com/mcp?token=abc123"', 2, "token="),
        ('url = "https://x.example.com/mcp?key=abc123"', 2, "key="),
        ('command = "srv"\nargs = ["--api-key=abc123"]', 3, "--api-key"),
        ('command = "srv"\nargs = ["--token", "abc123"]', 3, "--token"),
    ],
)
def test_an_inline_secret_is_refused(entry: str, line: int, named: str):
    result = parse_server_config(f"[servers.x]\n{entry}\n")
    assert "x" not in result.servers
    [problem] = result.problems
    assert problem.line == line and problem.key == "x"
    assert named in problem.message
    assert 'credential = "secret:NAME"' in problem.message
    assert "abc123" not in str(problem) and "hunter22" not in str(problem)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ('transport = "http"', "an http server needs a url"),
        ('transport = "sse"\nurl = ""', "an sse server needs a url"),
        ('transport = "stdio"', "a stdio server needs a command"),
        (
            'url = "https://x.example.com"\ntransport = "http"\ncommand = "x"',
            "'command' does not apply",
        ),
        ('url = "ftp://x.example.com"', "must be an http(s) URL"),
        ('url = "https://x.example.com"\ncommand = "srv"', "not both"),
        (
            'transport = "stdio"\ncommand = "srv"\nurl = "https://x.example.com"',
            "'url' does not apply to a stdio",
        ),
        ('url = "https://x.example.com"\ncredential = "hunter2"', 'credential must be "swiggy"'),
        ('url = "https://x.example.com"\nenabled = "yes"', "'enabled' must be true or false"),
        ('url = "https://x.example.com"\nenabeld = false', "unknown setting 'enabeld'"),
        ('url = "https://x.example.com"\nenabled = true\ndisabled = true', "disagree"),
        ('command = "srv"\nargs = "--fast"', "args must be a list"),
        ('url = "https://x.example.com"\nheaders = { "X-A" = "a\\r\\nHost: b" }', "malformed"),
        ('command = "srv"\nenv = { "A B" = "c" }', "malformed"),
    ],
)
def test_each_rule_is_reported(entry: str, message: str):
    result = parse_server_config(f"[servers.x]\n{entry}\n")
    assert "x" not in result.servers
    [problem] = result.problems
    assert message in problem.message


def test_inline_tables_under_servers_are_located_too():
    text = """\
[servers]
ok = { url = "https://ok.example.com/mcp" }
bad = { url = "https://bad.example.com/mcp", pages = ["nowhere"] }
"""
    result = parse_server_config(text)
    assert "ok" in result.servers
    assert [(p.line, p.key) for p in result.problems] == [(3, "bad")]


def test_server_keys_are_checked():
    result = parse_server_config('[servers."Not OK"]\nurl = "https://x.example.com"\n')
    [problem] = result.problems
    assert problem.key == "Not OK" and problem.line == 1
    assert "a-z, 0-9" in problem.message


def test_unknown_sections_are_reported():
    result = parse_server_config('title = "mine"\n\n[server.x]\nurl = "https://x.example.com"\n')
    assert [(p.line, p.key) for p in result.problems] == [(1, None), (3, None)]
    assert "servers go under [servers.KEY]" in result.problems[1].message


def test_the_file_may_override_a_swiggy_server():
    text = '[servers.food]\nurl = "http://127.0.0.1:9000/food"\ncredential = "swiggy"\n'
    food = parse_server_config(text).servers["food"]
    assert food.url == "http://127.0.0.1:9000/food"
    assert food.origin == "file"
    assert food.pages == ("foodorder",)  # a Swiggy key keeps its own pages by default


def test_the_shipped_example_equals_the_defaults():
    result = load_server_config(REPO_ROOT / "mcp_servers.toml")
    assert result.problems == []
    assert {k: replace(c, origin="default") for k, c in result.servers.items()} == (
        default_servers()
    )
    # Its commented-out examples are valid servers once uncommented.
    text = (REPO_ROOT / "mcp_servers.toml").read_text(encoding="utf-8")
    uncommented = parse_server_config(text + "\n" + _uncomment_examples(text))
    assert uncommented.problems == []
    assert uncommented.servers["recipes"].transport == "stdio"
    assert uncommented.servers["weather"].transport == "sse"


def _uncomment_examples(text: str) -> str:
    """The example servers: the `# [servers.…]` blocks, uncommented."""
    kept: list[str] = []
    inside = False
    for line in text.splitlines():
        if line.startswith("# [servers."):
            inside = True
        elif not line.startswith("# "):
            inside = False
        if inside:
            kept.append(line.removeprefix("# "))
    return "\n".join(kept)


def test_defaults_and_sandbox_servers():
    defaults = default_servers()
    assert list(defaults) == list(MCP_SERVERS)
    for key, config in defaults.items():
        assert config.url == MCP_SERVERS[key].url
        assert (config.transport, config.credential, config.origin) == ("http", "swiggy", "default")
    assert defaults["instamart"].pages == ("food", "style")
    assert defaults["dineout"].pages == ("dining",)
    sandbox = sandbox_servers("http://127.0.0.1:8123/")
    assert sandbox["instamart"].url == "http://127.0.0.1:8123/im"
    assert sandbox["food"].pages == ("foodorder",)
    assert sandbox["dineout"].origin == "default"


def test_servers_for_page_lists_enabled_extras_only():
    servers = parse_server_config(VALID_TOML).servers
    assert [c.key for c in servers_for_page(servers, "food")] == ["recipes", "local"]
    # weather names the dining page but is disabled; Swiggy's dineout is not an extra.
    assert [c.key for c in servers_for_page(servers, "dining")] == ["local"]


def test_load_reads_the_file_named_by_the_environment(tmp_path, monkeypatch):
    config = tmp_path / "elsewhere.json"
    config.write_text('{"mcpServers": {"mine": {"url": "https://mine.example.com/mcp"}}}')
    monkeypatch.setenv(MCP_CONFIG_ENV, str(config))
    result = load_server_config()
    assert result.source == "elsewhere.json"
    assert result.problems == []
    assert result.servers["mine"].url == "https://mine.example.com/mcp"


def test_load_without_any_file_gives_the_defaults(tmp_path, monkeypatch):
    monkeypatch.delenv(MCP_CONFIG_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("swiggy_core.mcp.config._APP_DIR", tmp_path)
    result = load_server_config()
    assert (result.servers, result.problems, result.source) == (default_servers(), [], "defaults")


def test_load_finds_the_file_in_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.delenv(MCP_CONFIG_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mcp_servers.toml").write_text('[servers.here]\nurl = "https://h.example.com"\n')
    assert "here" in load_server_config().servers


def test_a_missing_file_is_a_problem_not_a_crash(tmp_path):
    result = load_server_config(tmp_path / "nope.toml")
    assert result.servers == default_servers()
    [problem] = result.problems
    assert str(problem).startswith("nope.toml: cannot read")


def test_resolve_credential(monkeypatch):
    swiggy = ServerConfig(key="food", transport="http", url="https://x", credential="swiggy")
    named = replace(swiggy, key="w", credential="secret:WEATHER_TOKEN")
    none = replace(swiggy, key="n", credential=None)
    monkeypatch.setenv("WEATHER_TOKEN", "from-the-environment-123")
    assert resolve_credential(swiggy, swiggy_token="swiggy-token-456", secrets={}) == (
        "swiggy-token-456"
    )
    assert resolve_credential(swiggy, swiggy_token=None, secrets={}) is None
    assert resolve_credential(named, swiggy_token="t", secrets={}) == "from-the-environment-123"
    secrets = {"WEATHER_TOKEN": "from-the-secrets-789"}
    assert resolve_credential(named, swiggy_token=None, secrets=secrets) == "from-the-secrets-789"
    monkeypatch.delenv("WEATHER_TOKEN")
    assert resolve_credential(named, swiggy_token=None, secrets={}) is None
    assert resolve_credential(none, swiggy_token="t", secrets=secrets) is None
    # A person's own server never gets one, whatever it names.
    theirs = replace(named, origin="user")
    assert resolve_credential(theirs, swiggy_token="t", secrets=secrets) is None
    # The values found are registered: logs mask them from now on.
    for value in ("swiggy-token-456", "from-the-environment-123", "from-the-secrets-789"):
        assert value not in redact(f"sent {value} to the server")


def test_secrets_that_raise_fall_back_to_the_environment(monkeypatch):
    class NoSecretsFile(dict[str, str]):
        def get(self, key, default=None):  # Streamlit raises without a secrets.toml
            raise FileNotFoundError("no secrets.toml")

    monkeypatch.setenv("WEATHER_TOKEN", "from-the-environment-321")
    named = ServerConfig(
        key="w", transport="sse", url="https://x", credential="secret:WEATHER_TOKEN"
    )
    assert resolve_credential(named, swiggy_token=None, secrets=NoSecretsFile()) == (
        "from-the-environment-321"
    )
