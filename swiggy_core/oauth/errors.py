"""Text an authorization server sent, made safe to show (`OAuthError` is in swiggy_core.errors)."""

from __future__ import annotations

from swiggy_core.logsafe import redact

# Text an authorization server sends back is cut to this length before it is shown.
_MAX_SERVER_TEXT = 200


def server_text(value: object) -> str:
    """A value an authorization server sent (error, description), safe to show."""
    text = " ".join(str(value).split())[:_MAX_SERVER_TEXT]
    return redact(text)
