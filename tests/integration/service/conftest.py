"""A small generated fleet in the real PostgreSQL (CI) for the service tests, plus API helpers."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis
from fastapi.testclient import TestClient

from app.auth import create_user
from app.main import create_app
from assetops.db import migrate
from assetops.db.engine import Database
from assetops.settings import Settings
from fleet.loader import load_fleet
from fleet.synthetic import generate_fleet, small_config
from tests.conftest import make_settings


@pytest.fixture(scope="session")
def service_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("service")


@pytest.fixture(scope="session")
def loaded_pg_settings(pg_schema_url: str, service_root: Path) -> Settings:
    """Postgres (own schema) with a May-June 2021 fleet of all four chillers, Redis db 15."""
    require_redis()
    settings = make_settings(service_root, database_url=pg_schema_url, redis_url="redis://127.0.0.1:6379/15")
    migrate.upgrade(settings)
    load_fleet(settings, generate_fleet(small_config("2021-05-01", "2021-06-30")))
    return settings


def require_redis() -> None:
    from tests.conftest import require_service

    require_service("Redis", "127.0.0.1", 6379)
    redis.Redis.from_url("redis://127.0.0.1:6379/15").flushdb()


@dataclass
class Api:
    """A TestClient plus two users' keys."""

    client: TestClient
    settings: Settings
    alice: dict[str, str]
    bob: dict[str, str]


def _keys(settings: Settings, suffix: str) -> tuple[dict[str, str], dict[str, str]]:
    async def make() -> tuple[str, str]:
        db = Database(settings)
        try:
            return (await create_user(db, f"alice-{suffix}"))[1], (await create_user(db, f"bob-{suffix}"))[1]
        finally:
            await db.close()

    a, b = asyncio.run(make())
    return {"Authorization": f"Bearer {a}"}, {"Authorization": f"Bearer {b}"}


@pytest.fixture
def api(loaded_pg_settings: Settings, request: pytest.FixtureRequest) -> Iterator[Api]:
    alice, bob = _keys(loaded_pg_settings, f"{request.node.name[:30]}-{uuid.uuid4().hex[:6]}")  # parametrized ids may share a prefix
    with TestClient(create_app(loaded_pg_settings)) as client:
        yield Api(client, loaded_pg_settings, alice, bob)
