"""Fixtures of the graph unit tests: a migrated SQLite database per test (copied from one template)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from assetops.db import migrate
from assetops.settings import Settings


def graph_test_settings(root: Path) -> Settings:
    """Settings over a SQLite file in `root`, offline (no Redis, no LLM)."""
    return Settings(data_dir=root, work_dir=root / "work", models_dir=root / "models",
                    database_url=f"sqlite:///{root / 'assetops.db'}", redis_url="", llm_model="")


@pytest.fixture(scope="session")
def migrated_db_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("graph_template")
    migrate.upgrade(graph_test_settings(root))
    return root / "assetops.db"


@pytest.fixture
def settings(tmp_path: Path, migrated_db_template: Path) -> Settings:
    shutil.copy(migrated_db_template, tmp_path / "assetops.db")
    value = graph_test_settings(tmp_path)
    value.ensure_dirs()
    return value
