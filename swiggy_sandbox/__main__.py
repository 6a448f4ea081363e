"""`python -m swiggy_sandbox serve` and `python -m swiggy_sandbox mcp <server> --stdio`."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from types import FrameType

from swiggy_core.constants import MCP_SERVERS
from swiggy_core.logsafe import install_redaction, mask_url_password
from swiggy_sandbox.servers.summary import (
    ResultForm,
    add_result_form_option,
    parse_checking_result_form,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m swiggy_sandbox")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="start MCP servers and the emulator")
    serve.add_argument("--mcp-port", type=int, default=0, help="0 picks a free port")
    serve.add_argument("--emulator-port", type=int, default=0, help="0 picks a free port")
    mcp = commands.add_parser("mcp", help="run one MCP server")
    mcp.add_argument("server", choices=sorted(MCP_SERVERS))
    mcp.add_argument("--stdio", action="store_true", required=True)
    for command in (serve, mcp):
        add_result_form_option(command)
        command.add_argument(
            "--db",
            metavar="URL",
            default=None,
            help="where the shop lives: an SQLite file or PostgreSQL URL that several "
            "sandboxes may share (default: $SWIGGY_SANDBOX_DB, else in memory)",
        )
    args = parse_checking_result_form(parser, argv)
    install_redaction()  # no key or token in any log line, whoever logs it
    if args.command == "mcp":
        from swiggy_sandbox.servers import run_stdio

        run_stdio(args.server, result_form=args.result_form, db_url=args.db)
        return 0
    return _serve(args.mcp_port, args.emulator_port, args.result_form, args.db)


def _serve(
    mcp_port: int,
    emulator_port: int,
    result_form: ResultForm | None = None,
    db_url: str | None = None,
) -> int:
    from swiggy_sandbox.runtime import SandboxServices
    from swiggy_sandbox.servers.stdio import DB_ENV_VAR
    from swiggy_sandbox.shop import IN_MEMORY_URL

    stop = threading.Event()

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    shop_url = db_url or os.environ.get(DB_ENV_VAR) or IN_MEMORY_URL
    services = SandboxServices.start(
        mcp_port=mcp_port, emulator_port=emulator_port, result_form=result_form, db_url=shop_url
    )
    try:
        if shop_url != IN_MEMORY_URL:
            print(f"Shop database: {mask_url_password(shop_url)}", flush=True)
        print(f"Messages API emulator: {services.emulator_url}", flush=True)
        for key, url in services.server_urls.items():
            print(f"MCP {MCP_SERVERS[key].name}: {url}", flush=True)
        print(f"OAuth authorization server: {services.auth_base_url}", flush=True)
        print("Ready. Press Ctrl-C to stop.", flush=True)
        while not stop.wait(0.5):
            pass  # short waits keep the main thread responsive to signals
    finally:
        services.stop()
        print("Stopped.", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
