"""Call a tool on a remote MCP server (the `remote_tool_servers` switch of the call path)."""

from __future__ import annotations

import json
from typing import Any

from mcp import Client
from mcp_types import TextContent


def parse_tool_text(text: str) -> Any:
    """The contract JSON of a tool result's text (plain text when it is not JSON)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


async def call_remote_tool(url: str, tool: str, args: dict[str, Any]) -> Any:
    """Call `tool` at the streamable-HTTP endpoint `url`; return the parsed contract output.

    One MCP session per call keeps this stateless (any replica can answer); a protocol-level
    failure (`isError`) comes back as `{"error": text}` like every other tool error.
    """
    async with Client(url) as client:
        result = await client.call_tool(tool, args)
    texts = [c.text for c in result.content if isinstance(c, TextContent)]
    text = "\n".join(texts)
    if result.is_error:
        return {"error": text or f"{tool} failed at {url}"}
    return parse_tool_text(text)
