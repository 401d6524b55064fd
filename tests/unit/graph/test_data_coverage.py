"""The data specialist's `sensors` action states how far an asset's telemetry reaches (first and last
sample, sample count), found with the contract's iot tools over a real small fleet."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import date, timedelta
from typing import Any

import pytest

from artifacts.store import ArtifactStore
from assetops.cache import build_cache
from assetops.db.engine import Database
from assetops.domain.catalog_loader import load_catalog
from assetops.domain.turn import SpecialistTask
from specialists.base import SpecialistContext, ToolOutcome, ToolRunner
from specialists.data import catalog
from specialists.data.coverage import coverage_from_probes, coverage_text, parse_covered, probe_calls
from tests.support.catalog import default_catalog
from tests.unit.tools_iot.small_fleet import CHILLER9_SPANS, SmallFleet, build_small_fleet
from tools.framework import ToolContext, clear_result_cache, use_tool_context

ZONE = default_catalog().zone
REFERENCE = date(2020, 7, 1)  # inside Chiller 9's first span; its second span lies after it


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> SmallFleet:
    return build_small_fleet(tmp_path_factory.mktemp("coverage_fleet"))


@pytest.fixture(autouse=True)
def fresh_result_cache() -> Iterator[None]:
    clear_result_cache()
    yield
    clear_result_cache()


@pytest.fixture
async def data_ctx(fleet: SmallFleet) -> AsyncIterator[tuple[SpecialistContext, list[Any]]]:
    db = Database(fleet.settings)
    events: list[Any] = []

    async def emit(event: Any) -> None:
        events.append(event)

    ctx = SpecialistContext(session_id="cov", turn_index=1, reference_date=REFERENCE,
                            store=ArtifactStore(db, build_cache("")), tools=ToolRunner("cov", 1, emit), emit=emit,
                            catalog=await load_catalog(db))
    with use_tool_context(ToolContext(settings=fleet.settings, db=db)):
        yield ctx, events
    await db.close()


async def test_sensor_listing_states_first_and_last_sample_and_count(data_ctx: Any) -> None:
    ctx, _ = data_ctx
    result = await catalog.sensors(SpecialistTask("data", "sensors", asset_ids=["Chiller 9"]), ctx)
    assert result.status == "ok"
    first_day = CHILLER9_SPANS[0][0]
    grid_samples = (REFERENCE - date.fromisoformat(first_day)).days * 96  # 15-minute rows up to the reference
    assert f"from {first_day} 00:00 to 2020-06-30 23:45" in result.summary
    assert f"about {grid_samples:,} samples" in result.summary
    assert "later samples" in result.summary  # the November span lies after the reference date
    assert "Condenser Water Flow" in result.summary
    artifact = (await ctx.store.list_session("cov"))[0]
    assert artifact.results["coverage"]["first"].startswith(f"{first_day}T00:00:00")
    assert [c.name for c in artifact.tool_calls] == ["iot.sensors", "iot.history", "iot.history"]


async def test_an_asset_whose_data_ends_before_the_reference_date_gets_its_stated_coverage(data_ctx: Any) -> None:
    ctx, _ = data_ctx
    ctx.reference_date = date(2021, 1, 1)  # after both spans: the probe is empty, the tool states the range
    result = await catalog.sensors(SpecialistTask("data", "sensors", asset_ids=["Chiller 9"]), ctx)
    last_day = date.fromisoformat(CHILLER9_SPANS[1][1]) - timedelta(days=1)  # span ends are exclusive
    assert f"from {CHILLER9_SPANS[0][0]} 00:00 to {last_day.isoformat()} 23:45" in result.summary
    assert "about" not in result.summary  # the count is the tool's, not an estimate


def _probe(rows: list[str], **extra: Any) -> ToolOutcome:
    return ToolOutcome("iot.history", {}, "ok", {"observations": [{"timestamp": t} for t in rows], **extra})


def test_probes_give_the_first_sample_and_the_last_before_the_reference_date() -> None:
    head = _probe(["2016-01-01T00:00:00-05:00", "2016-01-01T00:15:00-05:00"])
    recent = _probe(["2021-06-30T23:30:00-04:00", "2021-06-30T23:45:00-04:00", "2021-07-01T00:00:00-04:00"])
    coverage = coverage_from_probes(head, recent, date(2021, 7, 1), ZONE)
    assert (coverage.first, coverage.last) == ("2016-01-01T00:00:00-05:00", "2021-06-30T23:45:00-04:00")
    assert coverage.later_data and not coverage.samples_exact
    assert "2016-01-01 00:00 to 2021-06-30 23:45" in coverage_text(coverage, date(2021, 7, 1))


def test_an_empty_probe_yields_the_coverage_the_tool_states() -> None:
    error = ("No observations for asset_id Chiller 4 from 2021-06-30 to now: its data covers "
             "2016-01-01T00:00:00-05:00 to 2020-12-31T23:45:00-05:00 (175000 observations). Choose a window.")
    assert parse_covered(error) == ("2016-01-01T00:00:00-05:00", "2020-12-31T23:45:00-05:00", 175000)
    failed = ToolOutcome("iot.history", {}, "error", error=error)
    coverage = coverage_from_probes(_probe(["2016-01-01T00:00:00-05:00"]), failed, date(2021, 7, 1), ZONE)
    assert coverage.samples == 175000 and coverage.samples_exact
    assert coverage_text(coverage, date(2021, 7, 1)).endswith("175,000 samples")


def test_probes_are_plain_contract_history_calls() -> None:
    calls = probe_calls("Chiller 9", date(2021, 7, 1), "MAIN")
    assert {name for name, _ in calls} == {"iot.history"}
    assert calls[1][1]["start"] == "2021-06-30" and "final" not in calls[1][1]
