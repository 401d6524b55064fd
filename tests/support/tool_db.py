"""Temporary SQLite databases with the project schema, and a tool context on them (shared by tool tests)."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, insert

from assetops.db import migrate
from assetops.db.engine import sync_engine
from assetops.settings import Settings
from tools.framework import ToolContext, clear_result_cache


def temp_settings(root: Path, name: str = "test.db") -> Settings:
    """Settings pointing every directory and the SQLite database into `root`."""
    data_dir = root / "data"
    return Settings(data_dir=data_dir, work_dir=root / "work", models_dir=root / "models",
                    database_url=f"sqlite:///{data_dir / name}")


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database file migrated once per session; tests copy it instead of migrating again."""
    settings = temp_settings(tmp_path_factory.mktemp("schema_template"))
    migrate.upgrade(settings)
    path = settings.data_dir / "test.db"
    with sqlite3.connect(path) as conn:  # fold the WAL into the main file so a plain copy is complete
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


@pytest.fixture
def db_settings(tmp_path: Path) -> Settings:
    """Settings for this test's own database file."""
    return temp_settings(tmp_path)


@pytest.fixture
def db_engine(db_settings: Settings, migrated_template: Path) -> Iterator[Engine]:
    """A migrated, empty database (sync engine for inserting test rows)."""
    db_settings.ensure_dirs()
    shutil.copyfile(migrated_template, db_settings.data_dir / "test.db")
    engine = sync_engine(db_settings)
    yield engine
    engine.dispose()


@pytest.fixture
async def tool_ctx(db_settings: Settings, db_engine: Engine) -> AsyncIterator[ToolContext]:
    """A tool context on the test database, without an LLM; the shared result cache starts empty."""
    clear_result_cache()
    context = ToolContext.from_settings(db_settings)
    yield context
    await context.db.close()
    clear_result_cache()


def insert_rows(engine: Engine, table: type[Any], rows: Sequence[dict[str, Any]]) -> None:
    """Insert `rows` into the ORM `table`, numbering `row_order` in list order when the table has it."""
    if not rows:
        return
    has_order = "row_order" in table.__table__.c
    values = [{**row, "row_order": index} if has_order else dict(row) for index, row in enumerate(rows)]
    with engine.begin() as conn:
        conn.execute(insert(table.__table__), values)
