"""`assetops mcp ...`: serve the O&M tool servers over MCP, list their tools."""

from __future__ import annotations

import json
import logging
import sys
from typing import Annotated

import typer

from assetops.settings import get_settings

cli = typer.Typer(help="Serve the O&M tools over MCP (stdio or streamable HTTP).", no_args_is_help=True)


@cli.command()
def serve(
    server: Annotated[str, typer.Argument(help="iot, utilities, fmsr, tsfm, wo, or all.")],
    http: Annotated[bool, typer.Option("--http", help="Streamable HTTP instead of stdio.")] = False,
    host: Annotated[str, typer.Option(help="HTTP bind address.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="HTTP port.")] = 8101,
) -> None:
    """Serve one tool server (or all of them) until stopped.

    Over HTTP the endpoint is http://HOST:PORT/mcp; with `all`, each server is also at /<server>/mcp.
    """
    from tools.mcp_server import resolve_servers, serve_http, serve_stdio

    # stdout belongs to the protocol on stdio: logs go to stderr only.
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    settings = get_settings()
    try:
        resolve_servers(server)
    except ValueError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2) from None
    if http:
        serve_http(server, settings, host, port)
    else:
        serve_stdio(server, settings)


@cli.command("tools")
def list_tools(
    server: Annotated[str, typer.Argument(help="iot, utilities, fmsr, tsfm, wo, or all.")] = "all",
    schemas: Annotated[bool, typer.Option("--schemas", help="Print the input schemas as JSON.")] = False,
) -> None:
    """List the registered tools of a server (or all), optionally with their input schemas."""
    from tools.mcp_server import resolve_servers
    from tools.registry import tools_of

    for name in resolve_servers(server):
        for spec in tools_of(name):
            if schemas:
                typer.echo(json.dumps({"tool": spec.full_name, "input_schema": spec.input_schema}))
            else:
                typer.echo(f"{spec.full_name}: {spec.description.splitlines()[0]}")
