"""What `make run` / `make test` do before starting: bring the machine's state up to date."""

from __future__ import annotations

import typer

from assetops.db import migrate
from assetops.settings import get_settings


def run_setup() -> None:
    """Upgrade the schema to head; later steps (fleet, checkpoints) skip themselves when done."""
    settings = get_settings()
    settings.ensure_dirs()
    migrate.upgrade(settings)
    typer.echo(f"database ready: {settings.effective_database_url}")
