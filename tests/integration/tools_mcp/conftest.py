"""Fixtures: the small fleet and the environment that points a tool-server subprocess at it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.unit.tools_iot.fixtures import small_fleet
from tests.unit.tools_iot.small_fleet import SmallFleet

__all__ = ["small_fleet"]

REPO_ROOT = Path(__file__).resolve().parents[3]
# The `assetops` console script without relying on it being installed.
ASSETOPS = [sys.executable, "-c", "from app.cli.main import main; main()"]


@pytest.fixture
def server_env(small_fleet: SmallFleet) -> dict[str, str]:
    """Environment for `assetops mcp serve ...` on the small fleet."""
    settings = small_fleet.settings
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith("ASSETOPS_")},
        "ASSETOPS_DATA_DIR": str(settings.data_dir),
        "ASSETOPS_WORK_DIR": str(settings.work_dir),
        "ASSETOPS_MODELS_DIR": str(settings.models_dir),
        "ASSETOPS_DATABASE_URL": settings.database_url,
        "PYTHONPATH": str(REPO_ROOT),
    }
