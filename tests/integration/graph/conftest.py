"""Fixtures of the dialog tests: one small generated fleet per dialog, loaded into a SQLite template."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from assetops.db import migrate
from assetops.settings import Settings
from fleet.loader import load_fleet
from fleet.synthetic import generate_fleet, small_config


def dialog_settings(root: Path, models_dir: Path | None = None) -> Settings:
    """Offline settings over a SQLite file in `root` (TTM checkpoints from `models_dir` when given)."""
    return Settings(data_dir=root, work_dir=root / "work", models_dir=models_dir or root / "models",
                    database_url=f"sqlite:///{root / 'assetops.db'}", redis_url="", llm_model="")


class FleetTemplates:
    """Builds (once per test session) a loaded database per fleet window and copies it per test."""

    def __init__(self, root: Path, models_dir: Path | None = None) -> None:
        self.root = root
        self.models_dir = models_dir
        self._built: dict[tuple[str, str, tuple[str, ...]], Path] = {}

    def settings_for(self, start: str, end: str, assets: tuple[str, ...], target: Path) -> Settings:
        key = (start, end, assets)
        if key not in self._built:
            folder = self.root / f"{start}_{end}_{len(self._built)}"
            folder.mkdir()
            settings = dialog_settings(folder)
            migrate.upgrade(settings)
            load_fleet(settings, generate_fleet(small_config(start, end, assets=assets)))
            self._built[key] = folder / "assetops.db"
        shutil.copy(self._built[key], target / "assetops.db")
        settings = dialog_settings(target, self.models_dir)
        settings.ensure_dirs()
        return settings


@pytest.fixture(scope="session")
def fleet_templates(tmp_path_factory: pytest.TempPathFactory) -> FleetTemplates:
    """Fleet templates whose settings carry a tiny trained TTM as `ttm_96_28` (the default checkpoint),
    so time-series turns run the real TSFM path instead of failing for want of a model."""
    from tests.unit.timeseries.fixtures import train_tiny_checkpoint

    models = tmp_path_factory.mktemp("dialog_models")
    train_tiny_checkpoint(models / "ttm_96_28")
    return FleetTemplates(tmp_path_factory.mktemp("dialog_fleets"), models)
