"""`OAuthError`: every failure of Sign in with Swiggy, with an E-51xx code."""

from __future__ import annotations

from swiggy_core.errors import ErrorCode, SwiggyAssistantError
from swiggy_core.logsafe import redact

# Text an authorization server sends back is cut to this length before it is shown.
_MAX_SERVER_TEXT = 200


class OAuthError(SwiggyAssistantError):
    """Sign in with Swiggy failed; `code` says where (E-51xx). Never carries a secret."""

    code = ErrorCode.OAUTH_DISCOVERY

    def __init__(self, message: str, *, code: ErrorCode) -> None:
        super().__init__(redact(message), code=code)


def server_text(value: object) -> str:
    """A value an authorization server sent (error, description), safe to show."""
    text = " ".join(str(value).split())[:_MAX_SERVER_TEXT]
    return redact(text)
