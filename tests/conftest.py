"""Shared fixtures: settings on a temporary SQLite file, and the machine's real PostgreSQL and Redis.

Integration fixtures talk to the real services (PostgreSQL on 127.0.0.1:5432, database `test`;
Redis on 127.0.0.1:6379). With CI=true a missing service FAILS the test; elsewhere it skips with
the reason printed. The same holds for the files of `../shared` (`require_shared`). Each test session works in its own Postgres schema, so parallel runs and other
users of the `test` database never collide.
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from assetops.settings import Settings

PG_BASE_URL = os.environ.get("ASSETOPS_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_TEST_URL = os.environ.get("ASSETOPS_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def in_ci() -> bool:
    """True when the environment says this is CI (read at call time, so tests can set it)."""
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


IN_CI = in_ci()
SHARED_DIR = Path(__file__).resolve().parents[1].parent / "shared"


def _reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1.0):
            return True
    except OSError:
        return False


def require_service(name: str, host: str, port: int) -> None:
    """Fail in CI, skip with a reason elsewhere, when a real service is not reachable."""
    if _reachable(host, port):
        return
    message = f"{name} is not reachable on {host}:{port}"
    if IN_CI:
        pytest.fail(f"{message}; integration tests must run in CI", pytrace=False)
    pytest.skip(f"{message}; start it to run this test")


def require_shared(relative: str) -> Path:
    """The path `relative` inside `../shared`; when it is missing, fail under CI and skip elsewhere.

    Usable in a test, a fixture or at module level (a module-level call skips or fails the module).
    """
    path = (SHARED_DIR / relative).resolve()
    if path.exists():
        return path
    message = f"{path} is missing (the shared folder next to the repository)"
    if in_ci():
        pytest.fail(f"{message}; tests that need it must run in CI", pytrace=False)
    pytest.skip(f"{message}; put it there to run this test", allow_module_level=True)


def make_settings(tmp_path: Path, **overrides: object) -> Settings:
    """Settings whose data, work and model directories live under `tmp_path` (SQLite by default)."""
    values: dict[str, object] = {
        "data_dir": tmp_path / "data",
        "work_dir": tmp_path / "work",
        "models_dir": tmp_path / "models",
        "database_url": f"sqlite:///{tmp_path / 'data' / 'assetops.db'}",
        "redis_url": "",
    }
    values.update(overrides)
    settings = Settings(**values)  # type: ignore[arg-type]
    settings.ensure_dirs()
    return settings


@pytest.fixture
def sqlite_settings(tmp_path: Path) -> Settings:
    """Settings on a fresh SQLite file (schema not yet created)."""
    return make_settings(tmp_path)


@pytest.fixture(scope="session")
def pg_schema_url() -> Iterator[str]:
    """A Postgres URL whose search_path is a schema created for this test session (dropped after)."""
    require_service("PostgreSQL", "127.0.0.1", 5432)
    import psycopg

    schema = f"t_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(PG_BASE_URL, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{PG_BASE_URL}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(PG_BASE_URL, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture
def redis_url() -> str:
    """The machine's Redis (database 15, flushed by the tests that use it)."""
    require_service("Redis", "127.0.0.1", 6379)
    return REDIS_TEST_URL
