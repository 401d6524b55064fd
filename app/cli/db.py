"""`assetops db ...`: schema migrations."""

from __future__ import annotations

import typer

from assetops.db import migrate
from assetops.settings import get_settings

cli = typer.Typer(help="Database schema (Alembic).", no_args_is_help=True)


@cli.command()
def upgrade(revision: str = "head") -> None:
    """Upgrade the schema (default: to head)."""
    migrate.upgrade(get_settings(), revision)
    typer.echo(f"schema at {revision}")


@cli.command()
def downgrade(revision: str = "base") -> None:
    """Downgrade the schema (default: everything)."""
    migrate.downgrade(get_settings(), revision)
    typer.echo(f"schema at {revision}")
