"""A migrated Postgres schema of its own for the fleet store tests (created and dropped here).

The fleet tables are replaced wholesale by every load, so these tests do not share the session
schema other integration tests may fill with a fleet of their own.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from assetops.db import migrate
from assetops.settings import Settings
from tests.conftest import PG_BASE_URL, make_settings, require_service


@pytest.fixture
def pg_fleet_db(tmp_path: Path) -> Iterator[Settings]:
    """Settings on a fresh, migrated Postgres schema in database `test` (dropped afterwards)."""
    require_service("PostgreSQL", "127.0.0.1", 5432)
    import psycopg

    schema = f"fleet_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(PG_BASE_URL, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        settings = make_settings(tmp_path, database_url=f"{PG_BASE_URL}?options=-csearch_path%3D{schema}")
        migrate.upgrade(settings)
        yield settings
    finally:
        with psycopg.connect(PG_BASE_URL, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
