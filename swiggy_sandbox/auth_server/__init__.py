"""The sandbox's authorization server: Swiggy's OAuth 2.1 layout on loopback."""

from swiggy_sandbox.auth_server.routes import auth_routes
from swiggy_sandbox.auth_server.server import (
    AUTO_APPROVE_ENV_VAR,
    AuthorizationServer,
    AuthSettings,
)

__all__ = ["AUTO_APPROVE_ENV_VAR", "AuthSettings", "AuthorizationServer", "auth_routes"]
