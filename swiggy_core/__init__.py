"""Pure-Python core of the Swiggy MCP assistant (never imports streamlit)."""
