"""`assetops users ...`: API users and their keys."""

from __future__ import annotations

import asyncio

import typer

from app.auth import create_user
from assetops.db.engine import Database
from assetops.settings import get_settings

cli = typer.Typer(help="API users and keys.", no_args_is_help=True)


@cli.command()
def create(name: str) -> None:
    """Create a user and print its API key (shown once; only its hash is stored)."""

    async def _create() -> str:
        db = Database(get_settings())
        try:
            _, key = await create_user(db, name)
            return key
        finally:
            await db.close()

    try:
        key = asyncio.run(_create())
    except ValueError as exc:
        raise SystemExit(str(exc)) from exc
    typer.echo(f"created user '{name}'. API key (store it now, it is not shown again):\n{key}")
