"""An MCP client written with the official Python SDK (mcp 2.x), for tooldef's interop tests.

`python3 client.py TOOLDEF DIR` starts `TOOLDEF serve DIR` on stdio, lists its tools, calls
`shout` twice (once with bad arguments) and prints what it saw as one JSON object.
"""

import json
import sys

import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client


async def main(tooldef: str, directory: str) -> None:
    params = StdioServerParameters(command=tooldef, args=["serve", directory])
    with anyio.fail_after(30):
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                listed = await session.list_tools()
                good = await session.call_tool("shout", {"text": "hello"})
                bad = await session.call_tool("shout", {"text": 5})

    def texts(result):
        return [c.text for c in result.content if getattr(c, "type", None) == "text"]

    print(json.dumps({
        "tools": [t.name for t in listed.tools],
        "titles": {t.name: t.title for t in listed.tools if t.title},
        "good": {"is_error": bool(good.is_error), "text": texts(good)},
        "bad": {"is_error": bool(bad.is_error), "text": texts(bad)},
    }))


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], sys.argv[2])
