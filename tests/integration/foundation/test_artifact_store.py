"""The artifact store against the real PostgreSQL and Redis (SQLite + in-process cache as well)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from app.state import Resources
from artifacts.matching import CoverageQuery
from artifacts.model import Artifact, ArtifactToolCall, new_artifact_id
from assetops.db import migrate
from assetops.profiling import profiling
from assetops.settings import Settings
from tests.conftest import make_settings

pytestmark = pytest.mark.integration

T0 = datetime(2021, 3, 1, 5, tzinfo=UTC)


def sample(session_id: str, **overrides: object) -> Artifact:
    values: dict[str, object] = dict(
        id=new_artifact_id("data"), session_id=session_id, turn_index=1, producer="data", kind="telemetry_window",
        asset_ids=["Chiller 4"], equipment_ids=["CWC04704"], window_start=T0, window_end=T0 + timedelta(days=92),
        sensors=["Chiller 4 Power Input", "Chiller 4 Chiller Efficiency"],
        tool_calls=[ArtifactToolCall(name="iot.history_csv", args={"site_name": "MAIN", "asset_id": "Chiller 4",
                                                                      "start": "2021-03-01"}, latency_ms=12.5)],
        observations=["Power Input mean 312.4 kW"], results={"Power Input": {"mean": 312.4}},
        assumptions=["site-local time"], confidence=0.8, summary="Chiller 4 Mar-May 2021 telemetry",
    )
    values.update(overrides)
    return Artifact(**values)  # type: ignore[arg-type]


@pytest.fixture
def sid() -> str:
    """A fresh session id: the Postgres schema is shared by the whole test session."""
    return f"s-{uuid.uuid4().hex[:8]}"


@pytest.fixture(params=["postgres+redis", "sqlite+lru"])
async def resources(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Resources]:
    if request.param == "postgres+redis":
        pg_url = request.getfixturevalue("pg_schema_url")
        redis_url = request.getfixturevalue("redis_url")
        client = aioredis.from_url(redis_url)
        await client.flushdb()
        await client.aclose()
        settings = make_settings(tmp_path, database_url=pg_url, redis_url=redis_url)
    else:
        settings = make_settings(tmp_path)
    migrate.upgrade(settings)
    res = Resources.open(settings)
    try:
        yield res
    finally:
        await res.close()


async def test_put_then_get_round_trips_every_field(resources: Resources, sid: str) -> None:
    art = sample(sid)
    await resources.artifacts.put(art)
    await resources.cache.delete(f"artifact:{art.id}")  # force the database path
    loaded = await resources.artifacts.get(art.id)
    assert loaded is not None
    assert loaded.model_dump() == art.model_dump()


async def test_cached_read_does_not_touch_the_database(resources: Resources, sid: str) -> None:
    art = await resources.artifacts.put(sample(sid))
    with profiling() as cold_profile:
        await resources.cache.delete(f"artifact:{art.id}")
        assert await resources.artifacts.get(art.id) is not None
    assert len(cold_profile.queries) >= 1  # the miss went to the database
    with profiling() as hot_profile:
        assert (await resources.artifacts.get(art.id)) == (await resources.artifacts.get(art.id))
    assert hot_profile.queries == []


async def test_update_replaces_the_cached_copy(resources: Resources, sid: str) -> None:
    art = await resources.artifacts.put(sample(sid))
    assert (await resources.artifacts.get(art.id)) is not None  # now hot
    await resources.artifacts.put(art.model_copy(update={"summary": "revised", "confidence": 0.4}))
    again = await resources.artifacts.get(art.id)
    assert again is not None and again.summary == "revised" and again.confidence == 0.4


async def test_delete_removes_from_database_and_cache(resources: Resources, sid: str) -> None:
    art = await resources.artifacts.put(sample(sid))
    await resources.artifacts.delete(art.id)
    assert await resources.artifacts.get(art.id) is None


async def test_coverage_query_finds_only_covering_artifacts(resources: Resources, sid: str) -> None:
    wide = await resources.artifacts.put(sample(sid))
    await resources.artifacts.put(sample(sid, asset_ids=["Chiller 3"]))
    await resources.artifacts.put(sample("other"))
    await resources.artifacts.put(sample(sid, window_start=T0 + timedelta(days=40)))  # starts too late
    query = CoverageQuery(session_id=sid, asset_id="Chiller 4", start=T0 + timedelta(days=10),
                          end=T0 + timedelta(days=20), sensors=frozenset({"Chiller 4 Power Input"}))
    found = await resources.artifacts.find_covering(query)
    assert [a.id for a in found] == [wide.id]
    too_many_sensors = CoverageQuery(session_id=sid, asset_id="Chiller 4", start=T0, end=T0 + timedelta(days=1),
                                     sensors=frozenset({"Chiller 4 Tonnage"}))
    assert await resources.artifacts.find_covering(too_many_sensors) == []


async def test_artifacts_survive_a_restart(resources: Resources, sid: str) -> None:
    art = await resources.artifacts.put(sample(sid))
    settings: Settings = resources.settings
    reopened = Resources.open(settings)
    try:
        loaded = await reopened.artifacts.get(art.id)
        assert loaded is not None and loaded.summary == art.summary
    finally:
        await reopened.close()


async def test_redis_going_down_falls_back_without_errors(tmp_path: Path, pg_schema_url: str, redis_url: str, sid: str) -> None:
    settings = make_settings(tmp_path, database_url=pg_schema_url, redis_url=redis_url)
    migrate.upgrade(settings)
    res = Resources.open(settings)
    try:
        first = await res.artifacts.put(sample(sid))
        assert res.cache.using_redis
        # Redis "goes down": point the client at a closed port mid-test.
        await res.cache.client.aclose()  # type: ignore[union-attr]
        res.cache.client = aioredis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.2)
        loaded = await res.artifacts.get(first.id)  # served from the database, no exception
        assert loaded is not None and loaded.id == first.id
        assert not res.cache.using_redis
        second = await res.artifacts.put(sample(sid))
        with profiling() as profile:
            assert await res.artifacts.get(second.id) is not None  # now hot in the in-process LRU
        assert profile.queries == []
    finally:
        await res.close()
