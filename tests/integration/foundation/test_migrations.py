"""Migrations upgrade and downgrade cleanly on SQLite and on the real PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import inspect

import assetops.db.tables  # noqa: F401
from assetops.db import migrate
from assetops.db.base import Base
from assetops.db.engine import sync_engine
from tests.conftest import make_settings

pytestmark = pytest.mark.integration


def _tables(settings) -> set[str]:  # type: ignore[no-untyped-def]
    engine = sync_engine(settings)
    try:
        return set(inspect(engine).get_table_names()) - {"alembic_version"}
    finally:
        engine.dispose()


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_upgrade_creates_every_table_and_downgrade_removes_them(backend: str, tmp_path: Path,
                                                                 request: pytest.FixtureRequest) -> None:
    overrides = {"database_url": request.getfixturevalue("pg_schema_url")} if backend == "postgres" else {}
    settings = make_settings(tmp_path, **overrides)
    migrate.upgrade(settings)
    assert _tables(settings) == set(Base.metadata.tables)
    migrate.downgrade(settings)
    assert _tables(settings) == set()
    migrate.upgrade(settings)  # and up again, as a redeploy would
    assert _tables(settings) == set(Base.metadata.tables)
    migrate.downgrade(settings)


def test_autogenerate_sees_no_drift_and_ignores_langgraph_tables(tmp_path: Path) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlalchemy import text

    from assetops.db.migrate import include_object

    settings = make_settings(tmp_path)
    migrate.upgrade(settings)
    engine = sync_engine(settings)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE checkpoints (thread_id TEXT PRIMARY KEY)"))  # as LangGraph would
        context = MigrationContext.configure(conn, opts={"include_object": include_object, "compare_type": False})
        diff = compare_metadata(context, Base.metadata)
    engine.dispose()
    assert diff == []
