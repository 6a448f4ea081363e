"""A conversation as the person saw it, for download: Markdown to read, JSON to keep.

Only what was on the page goes out: the words typed or pressed, the replies, and each card's
essentials (names, quantities, prices, bills, order and booking ids). The JSON also keeps
the stored tool results the cards came from (tool, input, result text; credential-like
values redacted), so an import can re-parse them; the Markdown never does. Internal ids,
tokens and usage go in neither.

The Markdown is opened in other viewers, so every text from the model, a tool or the
person goes through `safe_markdown`: no raw HTML, no images (each reads "[image: alt]"),
links only to https. The JSON keeps the words as they were: it is data, not a page.
"""

from swiggy_core.export.chat import (
    EXPORT_FORMAT,
    REGENERATED_NOTE,
    ChatExport,
    ExportedMessage,
    build_export,
    export_file_name,
    local_day,
    local_when,
    to_json,
)
from swiggy_core.export.markdown import to_markdown

__all__ = [
    "EXPORT_FORMAT",
    "REGENERATED_NOTE",
    "ChatExport",
    "ExportedMessage",
    "build_export",
    "export_file_name",
    "local_day",
    "local_when",
    "to_json",
    "to_markdown",
]
