"""Entry point of the `assetops` console script."""

from __future__ import annotations

import typer

from app.cli import chat as chat_cli
from app.cli import db as db_cli
from app.cli import evaluate as eval_cli
from app.cli import fleet as fleet_cli
from app.cli import mcp as mcp_cli
from app.cli import profile as profile_cli
from app.cli import sessions as sessions_cli
from app.cli import tsfm as tsfm_cli
from app.cli import users as users_cli

cli = typer.Typer(help="AssetOps: a multi-turn diagnostic assistant for chiller O&M.", no_args_is_help=True)
cli.add_typer(db_cli.cli, name="db")
cli.add_typer(users_cli.cli, name="users")
cli.command("sessions")(sessions_cli.list_sessions)
cli.command("export")(sessions_cli.export)
cli.command("profile")(profile_cli.profile)
cli.add_typer(mcp_cli.cli, name="mcp")
cli.add_typer(fleet_cli.cli, name="fleet")
cli.add_typer(tsfm_cli.cli, name="tsfm")
cli.command("chat")(chat_cli.chat)
cli.command("eval")(eval_cli.evaluate)
cli.command("generate-scenarios")(eval_cli.generate_scenarios)


@cli.command()
def setup() -> None:
    """Bring everything a fresh machine needs up to date: schema (and later fleet and models)."""
    from app.cli.setup import run_setup

    run_setup()


@cli.command()
def serve(host: str | None = None, port: int | None = None) -> None:
    """Start the HTTP service (REST, websocket, web page)."""
    import uvicorn

    from assetops.settings import get_settings

    settings = get_settings()
    uvicorn.run("app.main:create_app", factory=True, host=host or settings.host, port=port or settings.port,
                log_level=settings.log_level.lower())


def main() -> None:
    """Console-script entry point."""
    cli()


if __name__ == "__main__":
    main()
