"""CLI: `python -m swiggy_sandbox.servers {instamart|food|dineout} --stdio` or `... http`."""

from __future__ import annotations

import argparse
import time

from swiggy_core.logsafe import install_redaction
from swiggy_sandbox.servers.registry import SERVER_KEYS
from swiggy_sandbox.servers.runner import SandboxHttpServer
from swiggy_sandbox.servers.stdio import run_stdio
from swiggy_sandbox.servers.summary import add_result_form_option, parse_checking_result_form


def main(argv: list[str] | None = None) -> None:
    """Parse arguments and run the chosen transport."""
    parser = argparse.ArgumentParser(prog="python -m swiggy_sandbox.servers")
    parser.add_argument("server", choices=[*SERVER_KEYS, "http"], help="server, or http for all")
    parser.add_argument("--stdio", action="store_true", help="serve one server over stdio")
    parser.add_argument("--port", type=int, default=8765, help="port for http (0: any free)")
    parser.add_argument("--db", default="sqlite://", help="SQLAlchemy URL for http state")
    add_result_form_option(parser)
    args = parse_checking_result_form(parser, argv)
    install_redaction()  # no token in any log line, whoever logs it
    if args.server == "http":
        options = {"db_url": args.db, "result_form": args.result_form}
        with SandboxHttpServer(port=args.port, log_level="info", **options) as sandbox:
            for key in SERVER_KEYS:
                print(f"{key}: {sandbox.url_for(key)}", flush=True)
            try:
                while True:
                    time.sleep(3600)
            except KeyboardInterrupt:
                pass
        return
    if not args.stdio:
        parser.error("a single server runs over stdio only: add --stdio (or use 'http')")
    run_stdio(args.server, result_form=args.result_form)


if __name__ == "__main__":
    main()
