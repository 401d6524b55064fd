"""`assetops fleet ...` commands end to end on a temporary SQLite database."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.cli import fleet as fleet_cli
from assetops.settings import Settings
from fleet.loader import data_version


@pytest.fixture
def cli_db(fleet_db: Settings, monkeypatch: pytest.MonkeyPatch) -> Settings:
    monkeypatch.setattr(fleet_cli, "get_settings", lambda: fleet_db)
    return fleet_db


def test_import_then_summary_and_plot(cli_db: Settings, assetopsbench_dir: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    imported = runner.invoke(fleet_cli.cli, ["import-assetopsbench", str(assetopsbench_dir)])
    assert imported.exit_code == 0, imported.output
    assert "4,249" in imported.output and data_version(cli_db) in imported.output.replace("\n", "")
    summary = runner.invoke(fleet_cli.cli, ["summary"])
    assert summary.exit_code == 0, summary.output
    assert "Chiller 6" in summary.output and "CWC04014" in summary.output
    output = tmp_path / "c6.png"
    plotted = runner.invoke(fleet_cli.cli, ["plot", "--asset", "Chiller 6", "--start", "2020-06-01",
                                            "--end", "2020-06-03", "--sensors", "Tonnage", "-o", str(output)])
    assert plotted.exit_code == 0, plotted.output
    assert output.stat().st_size > 0


def test_bad_arguments_are_reported_not_raised(cli_db: Settings, tmp_path: Path) -> None:
    runner = CliRunner(env={"COLUMNS": "300"})  # keep the error box message on one line
    missing = runner.invoke(fleet_cli.cli, ["import-assetopsbench", str(tmp_path / "nowhere")])
    assert missing.exit_code == 2 and "is not a directory" in missing.output
    bad_dates = runner.invoke(fleet_cli.cli, ["generate", "--start", "2021-02-01", "--end", "2021-01-01"])
    assert bad_dates.exit_code == 2 and "is before start" in bad_dates.output
