"""`python -m swiggy_sandbox serve` and `python -m swiggy_sandbox mcp <server> --stdio`."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from types import FrameType

from swiggy_core.constants import MCP_SERVERS
from swiggy_core.logsafe import install_redaction


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m swiggy_sandbox")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="start MCP servers and the emulator")
    serve.add_argument("--mcp-port", type=int, default=0, help="0 picks a free port")
    serve.add_argument("--emulator-port", type=int, default=0, help="0 picks a free port")
    mcp = commands.add_parser("mcp", help="run one MCP server")
    mcp.add_argument("server", choices=sorted(MCP_SERVERS))
    mcp.add_argument("--stdio", action="store_true", required=True)
    args = parser.parse_args(argv)
    install_redaction()  # no key or token in any log line, whoever logs it
    if args.command == "mcp":
        from swiggy_sandbox.servers import run_stdio

        run_stdio(args.server)
        return 0
    return _serve(args.mcp_port, args.emulator_port)


def _serve(mcp_port: int, emulator_port: int) -> int:
    from swiggy_sandbox.runtime import SandboxServices

    stop = threading.Event()

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    services = SandboxServices.start(mcp_port=mcp_port, emulator_port=emulator_port)
    try:
        print(f"Messages API emulator: {services.emulator_url}", flush=True)
        for key, url in services.server_urls.items():
            print(f"MCP {MCP_SERVERS[key].name}: {url}", flush=True)
        print("Ready. Press Ctrl-C to stop.", flush=True)
        while not stop.wait(0.5):
            pass  # short waits keep the main thread responsive to signals
    finally:
        services.stop()
        print("Stopped.", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
