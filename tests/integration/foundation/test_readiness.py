"""/healthz and /readyz on the embedded default and on the real PostgreSQL + Redis."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from assetops.db import migrate
from tests.conftest import make_settings

pytestmark = pytest.mark.integration


def test_ready_on_sqlite_with_in_process_cache(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    migrate.upgrade(settings)
    with TestClient(create_app(settings)) as client:
        assert client.get("/healthz").json() == {"status": "ok"}
        ready = client.get("/readyz")
        assert ready.status_code == 200
        assert ready.json()["checks"]["database"] == "ok"
        assert client.get("/docs").status_code == 200


def test_ready_on_postgres_and_redis(tmp_path: Path, pg_schema_url: str, redis_url: str) -> None:
    settings = make_settings(tmp_path, database_url=pg_schema_url, redis_url=redis_url)
    migrate.upgrade(settings)
    with TestClient(create_app(settings)) as client:
        ready = client.get("/readyz")
        assert ready.status_code == 200, ready.text
        checks = ready.json()["checks"]
        assert (checks["database"], checks["redis"]) == ("ok", "ok")
        assert checks["tool_workers"].endswith("worker processes running")


def test_redis_down_is_degraded_not_unready_while_the_database_answers(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, redis_url="redis://:s3cretpw@127.0.0.1:1/0")
    migrate.upgrade(settings)
    with TestClient(create_app(settings)) as client:
        ready = client.get("/readyz")
        assert ready.status_code == 200, ready.text
        body = ready.json()
        assert body["status"] == "degraded"
        assert "redis" in body["reason"] and body["checks"]["database"] == "ok"
        assert "s3cretpw" not in ready.text  # the Redis password is masked in the reason
        assert client.get("/healthz").status_code == 200


def test_not_ready_names_the_unreachable_database(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, database_url="postgresql://postgres@127.0.0.1:1/none")
    with TestClient(create_app(settings)) as client:
        ready = client.get("/readyz")
        assert ready.status_code == 503
        assert "database" in ready.json()["reason"]
