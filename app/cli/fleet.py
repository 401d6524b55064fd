"""`assetops fleet ...`: generate, import, plot and summarise the fleet data."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from assetops.settings import get_settings
from fleet.loader import LoadProgress, LoadReport

cli = typer.Typer(help="Fleet data: generate, import AssetOpsBench files, plot, summary.", no_args_is_help=True)
console = Console()


class _Bars:
    """Two progress bars (generation stages, table loading) fed by the library callbacks."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.generate: TaskID | None = None
        self.load: TaskID | None = None

    def on_stage(self, stage: str, fraction: float) -> None:
        """Generator progress callback: `stage` is `fraction` done."""
        if self.generate is None:
            self.generate = self.progress.add_task("generate", total=1.0)
        self.progress.update(self.generate, completed=fraction, description=f"generate: {stage}")

    def on_load(self, state: LoadProgress) -> None:
        """Loader progress callback: rows of the current table and tables done."""
        if self.load is None:
            self.load = self.progress.add_task("load", total=state.tables_total)
        fraction = state.rows_done / state.rows_total if state.rows_total else 1.0
        self.progress.update(self.load, completed=min(state.tables_done + fraction, state.tables_total),
                             description=f"load: {state.table} {state.rows_done:,}/{state.rows_total:,} rows")


@contextmanager
def _bars() -> Iterator[_Bars]:
    columns = (TextColumn("{task.description:<48}"), BarColumn(), TextColumn("{task.percentage:>5.1f}%"),
               TimeElapsedColumn())
    with Progress(*columns, console=console) as progress:
        yield _Bars(progress)


def _print_report(report: LoadReport) -> None:
    console.print(f"loaded {report.rows:,} rows into {len(report.tables)} tables on {report.dialect} "
                  f"in {report.seconds:.1f} s; data version [bold]{report.data_version}[/bold]")


@cli.command()
def generate(
    seed: Annotated[int, typer.Option(help="Random seed; 7 is the default fleet.")] = 7,
    start: Annotated[str, typer.Option(help="First telemetry day (YYYY-MM-DD).")] = "2016-01-01",
    end: Annotated[str, typer.Option(help="Last telemetry day, inclusive (YYYY-MM-DD).")] = "2021-12-31",
    assets: Annotated[list[str] | None, typer.Option(help="Telemetry chillers, e.g. --assets 'Chiller 6'.")] = None,
) -> None:
    """Generate a fault-injected fleet and load it (replaces every fleet table)."""
    from fleet.loader import load_fleet
    from fleet.synthetic import GeneratorConfig, generate_fleet

    try:
        with _bars() as bars:
            config = GeneratorConfig(seed=seed, start=date.fromisoformat(start), end=date.fromisoformat(end),
                                     assets=tuple(assets or GeneratorConfig().assets), progress=bars.on_stage)
            report = load_fleet(get_settings(), generate_fleet(config), progress=bars.on_load)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from exc
    _print_report(report)


@cli.command("import-assetopsbench")
def import_assetopsbench(
    folder: Annotated[Path, typer.Argument(help="Folder with the AssetOpsBench CSV files and telemetry JSON.")],
) -> None:
    """Import AssetOpsBench files; replaces only the tables the folder provides."""
    import json

    from fleet.importer import AssetOpsBenchImportError, read_assetopsbench
    from fleet.loader import load_fleet

    try:
        data = read_assetopsbench(folder)
    except AssetOpsBenchImportError as exc:
        raise typer.BadParameter(str(exc)) from exc
    with _bars() as bars:
        report = load_fleet(get_settings(), data, progress=bars.on_load)
    for note in json.loads(data.meta.get("import_notes", "[]")):
        console.print(f"[yellow]note[/yellow] {note}")
    for assumption in json.loads(data.meta.get("assumptions", "[]")):
        console.print(f"[cyan]assumed[/cyan] {assumption}")
    for table in report.tables:
        console.print(f"  {table.table:<24} {table.rows:>9,} rows")
    _print_report(report)


@cli.command()
def plot(
    asset: Annotated[str, typer.Option(help="Telemetry chiller, e.g. 'Chiller 6'.")],
    start: Annotated[str, typer.Option(help="First day (YYYY-MM-DD, site-local).")],
    end: Annotated[str, typer.Option(help="Last day, inclusive (YYYY-MM-DD, site-local).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="PNG file to write.")] = Path("fleet_plot.png"),
    sensors: Annotated[list[str] | None, typer.Option(help="Sensors to show (default: all ten).")] = None,
) -> None:
    """Plot an asset's sensors with fault windows, alerts and work orders marked."""
    from fleet.plot import PlotError, plot_asset

    try:
        path = plot_asset(get_settings(), asset, date.fromisoformat(start), date.fromisoformat(end), output, sensors)
    except (PlotError, ValueError) as exc:
        raise typer.BadParameter(str(exc)) from exc
    console.print(f"wrote {path}")


@cli.command()
def summary() -> None:
    """Coverage per asset, rows per table, fault episodes, work orders and the data version."""
    from fleet.summary import fleet_summary, render_summary

    # Rich assumes 80 columns when piped; the tables need about 110 to stay on one line per row.
    render_summary(fleet_summary(get_settings()), Console(width=max(console.width, 110)))
