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
    from fleet.ensure import ensure_default_fleet

    typer.echo("fleet: checking telemetry (the first run generates and loads the default fleet, about a minute)")
    report = ensure_default_fleet(settings)
    typer.echo("fleet: already loaded" if report is None else
               f"fleet: loaded {report.rows:,} rows in {report.seconds:.0f} s, data version {report.data_version}")
    from app.cli.tsfm import ensure_checkpoints_step

    ensure_checkpoints_step()
