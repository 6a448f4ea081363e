"""Offline sandbox: Swiggy-shaped MCP servers, a Messages API emulator and a local auth server."""
