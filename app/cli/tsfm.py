"""`assetops tsfm ...`: build and inspect the base TinyTimeMixer checkpoints."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from assetops.settings import get_settings

cli = typer.Typer(help="Time-series foundation models: base TTM checkpoints.", no_args_is_help=True)


def ensure_checkpoints_step() -> None:
    """The setup step: train the base checkpoints only when they are missing."""
    from timeseries.ensure import ensure_checkpoints, missing_checkpoints

    settings = get_settings()
    missing = missing_checkpoints(settings)
    if not missing:
        typer.echo("tsfm: checkpoints present")
        return
    typer.echo(f"tsfm: training {', '.join(missing)} (about a minute each on 2 cores)")
    for record in ensure_checkpoints(settings, progress=typer.echo):
        typer.echo(f"tsfm: {record['name']} ready ({record['steps']} steps, {record['train_seconds']:.0f} s)")


@cli.command()
def pretrain(
    name: Annotated[list[str] | None, typer.Option(help="Checkpoint(s) to build; default all.")] = None,
    seed: Annotated[int, typer.Option(help="Random seed of window sampling and initialisation.")] = 42,
    days: Annotated[int, typer.Option(help="Days of telemetry (per chiller) to train on.")] = 365,
) -> None:
    """(Re)build the base checkpoints from the loaded fleet's telemetry into settings.models_dir."""
    from timeseries.fleet_series import load_fleet_series
    from timeseries.pretrain import pretrain_all
    from timeseries.ttm_config import BASE_CHECKPOINTS

    settings = get_settings()
    unknown = [n for n in name or [] if n not in BASE_CHECKPOINTS]
    if unknown:
        raise typer.BadParameter(f"unknown checkpoint(s) {unknown}; known: {', '.join(BASE_CHECKPOINTS)}")
    settings.models_dir.mkdir(parents=True, exist_ok=True)
    fleet = load_fleet_series(settings, days=days)
    for record in pretrain_all(fleet, settings.models_dir, names=name or None, seed=seed, progress=typer.echo):
        typer.echo(f"{record['name']}: saved to {settings.models_dir / record['name']} "
                   f"({record['steps']} steps, {record['train_seconds']:.0f} s, data {record['data_version']})")


@cli.command()
def status() -> None:
    """Show which base checkpoints exist and how each was trained."""
    from timeseries.models import is_checkpoint_dir
    from timeseries.pretrain import read_training_record
    from timeseries.ttm_config import BASE_CHECKPOINTS

    settings = get_settings()
    for checkpoint in BASE_CHECKPOINTS:
        directory = settings.models_dir / checkpoint
        if not is_checkpoint_dir(directory):
            typer.echo(f"{checkpoint}: missing (run `assetops tsfm pretrain`)")
            continue
        record = read_training_record(directory) or {}
        keys = ("created_at", "seed", "data_version", "steps", "train_seconds", "best_validation_mae_normalised")
        typer.echo(f"{checkpoint}: {directory}\n  " + json.dumps({k: record.get(k) for k in keys}))
