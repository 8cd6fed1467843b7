"""An MCP server written with the official Python SDK (mcp 2.x), for tooldef's interop tests.

Run by `cli/tests/python_sdk.rs` as `python3 server.py`; it speaks MCP on stdin and stdout.
"""

from mcp.server.mcpserver import MCPServer

server = MCPServer("python-forecast")


@server.tool()
def get_forecast(city: str, days: int = 3) -> str:
    """Get the forecast for a city."""
    return f"{city}: sunny for {days} days"


@server.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


if __name__ == "__main__":
    server.run()
