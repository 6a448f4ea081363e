"""Keep keys and tokens out of every log line, whoever logs it.

`install_redaction()` (idempotent) makes every `logging.LogRecord` redacted when it is
created, whichever logger creates it (the SDKs' included: anthropic, httpx2, httpcore, mcp,
uvicorn, Streamlit), by wrapping the process's record factory; it also puts a
`RedactingFilter` on the handlers that exist (the root logger's first), for records made
some other way. The factory is what catches records of child loggers that propagate to
root (a filter on the root *logger* never sees them) and handlers added later (pytest's
caplog, Streamlit's own).

What is redacted: Anthropic keys (`sk-ant-…`), `Bearer <token>`, `x-api-key` values,
`authorization`/`authorization_token`/`api_key`/`token`/`password`… values in JSON, dict
reprs, headers and query strings, sandbox tokens (`sbx_…`, `sandbox-demo-token`), passwords
in URLs (`postgresql://user:***@host/db`), and every string passed to `register_secret`
(the live key and token values, so even unusual formats are caught).

The core's own entry points (`McpManager`, `ChatStore`, `make_client`) call
`install_redaction()`, so a script or worker that uses the core without app.py is covered.
A test that must see what an SDK logs unmasked holds it off with `redaction_held_off()`.
"""

from swiggy_core.logsafe.install import (
    FILTER,
    RedactingFilter,
    install_redaction,
    redaction_held_off,
    redaction_installed,
    uninstall_redaction,
)
from swiggy_core.logsafe.masking import (
    MASK,
    mask_url_password,
    redact,
    register_secret,
    register_secrets_from,
)
from swiggy_core.logsafe.records import redact_record

__all__ = [
    "FILTER",
    "MASK",
    "RedactingFilter",
    "install_redaction",
    "mask_url_password",
    "redact",
    "redact_record",
    "redaction_held_off",
    "redaction_installed",
    "register_secret",
    "register_secrets_from",
    "uninstall_redaction",
]
