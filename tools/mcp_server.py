"""Serve registered tools over MCP (stdio or streamable HTTP) with the official `mcp` package.

`MCPServer` would re-derive input schemas from function signatures; the registry's schemas are
the contract, so `RegistryMCPServer` lists and calls tools straight from the registry and runs
every call through the framework's call path (validation, cache, timeout, profiling). Results are
the contract JSON as text: indented by 2, compact for the string-returning tools; errors are
normal results shaped `{"error": ...}` (no `isError`), exactly as in-process.

`assetops mcp serve all` serves one combined server on stdio; over HTTP it mounts each server at
`/<server>/mcp` and the combined one at `/mcp`, in one process.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from typing import Any

from mcp.server import MCPServer
from mcp_types import CallToolResult, TextContent
from mcp_types import Tool as MCPTool
from starlette.applications import Starlette
from starlette.routing import Mount

from assetops.settings import Settings
from tools.catalog import SERVERS, load_server
from tools.framework import ToolContext, call_tool, to_json_text
from tools.framework.spec import ToolSpec
from tools.registry import servers as registered_servers
from tools.registry import tools_of

ALL = "all"


def local_settings(settings: Settings) -> Settings:
    """The settings a tool server runs with: it serves its tools itself, never forwards them."""
    return settings.model_copy(update={"remote_tool_servers": {}})


def resolve_servers(name: str) -> list[str]:
    """`all` -> every server; otherwise the one named (ValueError listing the known ones)."""
    if name == ALL:
        return registered_servers()
    if not load_server(name):
        raise ValueError(f"unknown tool server '{name}'; known: {', '.join(SERVERS)} or {ALL}")
    return [name]


class RegistryMCPServer(MCPServer):
    """An MCP server whose tools (names, descriptions, input schemas) come from the registry."""

    def __init__(self, server_names: Sequence[str], settings: Settings, *, name: str | None = None) -> None:
        self.server_names = list(server_names)
        self.tool_settings = local_settings(settings)
        self._specs: dict[str, ToolSpec] = {s.name: s for server in self.server_names for s in tools_of(server)}
        self._context: ToolContext | None = None
        super().__init__(
            name=name or "+".join(self.server_names),
            instructions=f"AssetOps O&M tools: {', '.join(self.server_names)}.",
            log_level="WARNING",
        )

    def context(self) -> ToolContext:
        """The tool context, created on first use inside the serving event loop."""
        if self._context is None:
            self._context = ToolContext.from_settings(self.tool_settings)
        return self._context

    async def list_tools(self) -> list[MCPTool]:
        """Every tool of the served servers with its contract input schema."""
        return [
            MCPTool(name=spec.name, description=spec.description, input_schema=spec.input_schema)
            for spec in self._specs.values()
        ]

    def _tool_input_schema(self, name: str) -> dict[str, Any] | None:
        spec = self._specs.get(name)
        return None if spec is None else spec.input_schema

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> CallToolResult:
        """Run the tool through the framework; the text is the contract JSON."""
        spec = self._specs.get(name)
        if spec is None:
            text = to_json_text({"error": f"Unknown tool '{name}'. This server has: {', '.join(self._specs)}."})
            return CallToolResult(content=[TextContent(type="text", text=text)])
        result = await call_tool(spec.full_name, arguments, context=self.context())
        text = result.text(compact=spec.returns_json_string)
        return CallToolResult(content=[TextContent(type="text", text=text)])

    async def close(self) -> None:
        """Release the database engine."""
        if self._context is not None:
            await self._context.db.close()


def build_server(name: str, settings: Settings) -> RegistryMCPServer:
    """One MCP server for `name` (a server name, or `all` for a combined one)."""
    servers = resolve_servers(name)
    return RegistryMCPServer(servers, settings, name=name)


def http_app(name: str, settings: Settings) -> Starlette:
    """The streamable-HTTP ASGI app: `/mcp` for one server; for `all`, `/<server>/mcp` each plus `/mcp`."""
    if name != ALL:
        return build_server(name, settings).streamable_http_app(host=settings.host)
    parts = {server: build_server(server, settings) for server in resolve_servers(ALL)}
    combined = build_server(ALL, settings)
    apps = {server: srv.streamable_http_app(host=settings.host) for server, srv in parts.items()}
    combined_app = combined.streamable_http_app(host=settings.host)

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        # Mounted apps' own lifespans do not run under Starlette, so run every session manager here.
        async with contextlib.AsyncExitStack() as stack:
            for srv in [*parts.values(), combined]:
                await stack.enter_async_context(srv.session_manager.run())
            yield

    routes = [Mount(f"/{server}", app=app) for server, app in apps.items()]
    routes.append(Mount("/", app=combined_app))
    return Starlette(routes=routes, lifespan=lifespan)


def serve_stdio(name: str, settings: Settings) -> None:
    """Serve `name` on stdin/stdout until the client disconnects."""
    build_server(name, settings).run("stdio")


def serve_http(name: str, settings: Settings, host: str, port: int) -> None:
    """Serve `name` over streamable HTTP on host:port."""
    import uvicorn

    app = http_app(name, settings.model_copy(update={"host": host}))
    uvicorn.run(app, host=host, port=port, log_level="warning")
