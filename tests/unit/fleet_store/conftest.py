"""Fixtures of the fleet store tests: a migrated SQLite database and the AssetOpsBench samples."""

from __future__ import annotations

from pathlib import Path

import pytest

from assetops.db import migrate
from assetops.settings import Settings
from tests.conftest import make_settings, require_shared


@pytest.fixture
def fleet_db(tmp_path: Path) -> Settings:
    """Settings on a fresh SQLite file with the schema at head."""
    settings = make_settings(tmp_path)
    migrate.upgrade(settings)
    return settings


@pytest.fixture(scope="session")
def assetopsbench_dir() -> Path:
    """The shared AssetOpsBench sample folder (fails under CI, skips elsewhere, when it is missing)."""
    return require_shared("assetopsbench")
