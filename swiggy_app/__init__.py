"""The app's front door: one object that wires the core, the sandbox and the servers.

Pages get a `ShopApp` (one per settings and world) and a `Visitor` (who is asking, with
which credentials, as plain values), and ask it for what they draw: a chat session, the
chats list, the servers and their health. Nothing here imports Streamlit, and the model
and MCP SDKs load only when a turn is set up (the first page stays light).
"""

from swiggy_app.app import ShopApp, Visit
from swiggy_app.chats import ChatsService, DeleteOutcome
from swiggy_app.visitor import Visitor

__all__ = ["ChatsService", "DeleteOutcome", "ShopApp", "Visit", "Visitor"]
