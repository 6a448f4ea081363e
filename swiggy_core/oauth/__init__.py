"""Sign in with Swiggy: OAuth 2.1 + PKCE against Swiggy's (or the sandbox's) authorization server.

`SignInService` starts a sign-in (the URL of Swiggy's page) and finishes it from the
callback's query parameters; `redirect_uri_for` names the loopback callback Swiggy allows;
`TokenVault` remembers a token encrypted, only when the person asks. Every failure is an
`OAuthError` with an E-51xx code.
"""

from swiggy_core.errors import OAuthError
from swiggy_core.oauth.discovery import AuthServerMetadata, discover
from swiggy_core.oauth.pending import MemoryPendingStore, PendingAuthorization, PendingStore
from swiggy_core.oauth.service import NOT_ALLOWLISTED_MESSAGE, SignInService
from swiggy_core.oauth.token import SwiggyToken
from swiggy_core.oauth.urls import redirect_uri_for
from swiggy_core.oauth.vault import TokenVault

__all__ = [
    "NOT_ALLOWLISTED_MESSAGE",
    "AuthServerMetadata",
    "MemoryPendingStore",
    "OAuthError",
    "PendingAuthorization",
    "PendingStore",
    "SignInService",
    "SwiggyToken",
    "TokenVault",
    "discover",
    "redirect_uri_for",
]
