"""A tiny stdio MCP server whose tools return what Swiggy's never do: an image, a PDF
resource, a text resource, a resource link, a picture type the model cannot view and an
image over the size cap (tests of the local engine, the store and the media card)."""

from __future__ import annotations

import base64
import sys

from mcp.server.mcpserver import MCPServer
from mcp.types import (
    BlobResourceContents,
    EmbeddedResource,
    ImageContent,
    ResourceLink,
    TextContent,
    TextResourceContents,
)

# A 1×1 transparent PNG and a one-page PDF: real bytes of their types.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)
PDF = (
    b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]"
    b"/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 72 72]>>endobj\n"
    b"trailer<</Root 1 0 R>>\n%%EOF\n"
)
CAP_BYTES = 5 * 1024 * 1024

server = MCPServer("media")


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


@server.tool()
def weekly_report() -> list[object]:
    """This week's spending: a chart, the PDF, a note and a link to the full statement."""
    return [
        TextContent(type="text", text="Your spending this week."),
        ImageContent(type="image", data=b64(PNG), mime_type="image/png"),
        EmbeddedResource(
            type="resource",
            resource=BlobResourceContents(
                uri="file:///reports/week-47.pdf", mime_type="application/pdf", blob=b64(PDF)
            ),
        ),
        EmbeddedResource(
            type="resource",
            resource=TextResourceContents(
                uri="file:///reports/notes.txt", mime_type="text/plain", text="Groceries: ₹1,240."
            ),
        ),
        ResourceLink(
            type="resource_link",
            uri="https://example.com/statements/2026-11.csv",
            name="statement-2026-11.csv",
            mime_type="text/csv",
            size=2048,
        ),
    ]


@server.tool()
def odd_pictures() -> list[object]:
    """A picture the model cannot view (SVG) and one over the size cap."""
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'
    huge = PNG + b"\0" * (CAP_BYTES + 1)
    return [
        ImageContent(type="image", data=b64(svg), mime_type="image/svg+xml"),
        ImageContent(type="image", data=b64(huge), mime_type="image/png"),
    ]


if __name__ == "__main__":
    server.run()
    sys.exit(0)
