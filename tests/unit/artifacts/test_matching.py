"""Coverage matching: which artifacts already hold the evidence a specialist is about to fetch."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from artifacts.matching import CoverageQuery, best_cover, covers
from artifacts.model import Artifact

T0 = datetime(2021, 3, 1, tzinfo=UTC)
T1 = datetime(2021, 6, 1, tzinfo=UTC)
SENSORS = ["Chiller 4 Power Input", "Chiller 4 Chiller Efficiency", "Chiller 4 Tonnage"]


def artifact(**overrides: object) -> Artifact:
    values: dict[str, object] = dict(id="a1", session_id="s1", producer="data", kind="telemetry_window",
                                     asset_ids=["Chiller 4"], window_start=T0, window_end=T1, sensors=SENSORS)
    values.update(overrides)
    return Artifact(**values)  # type: ignore[arg-type]


def query(start: datetime = T0, end: datetime = T1, sensors: tuple[str, ...] = (), **overrides: object) -> CoverageQuery:
    values: dict[str, object] = dict(session_id="s1", asset_id="Chiller 4", start=start, end=end,
                                     sensors=frozenset(sensors))
    values.update(overrides)
    return CoverageQuery(**values)  # type: ignore[arg-type]


def test_identical_window_is_covered() -> None:
    assert covers(artifact(), query())


def test_window_strictly_inside_is_covered() -> None:
    assert covers(artifact(), query(T0 + timedelta(days=10), T1 - timedelta(days=10)))


def test_touching_edges_count_as_contained() -> None:
    assert covers(artifact(), query(T0, T0))
    assert covers(artifact(), query(T1, T1))


@pytest.mark.parametrize(
    ("start", "end"),
    [
        (T0 - timedelta(minutes=15), T1),  # starts before
        (T0, T1 + timedelta(minutes=15)),  # ends after
        (T0 - timedelta(days=1), T1 + timedelta(days=1)),  # wider on both sides
        (T1 + timedelta(days=1), T1 + timedelta(days=2)),  # disjoint
    ],
)
def test_partial_overlap_or_disjoint_is_not_covered(start: datetime, end: datetime) -> None:
    assert not covers(artifact(), query(start, end))


def test_sensor_subset_is_covered_but_superset_is_not() -> None:
    assert covers(artifact(), query(sensors=("Chiller 4 Power Input",)))
    assert not covers(artifact(), query(sensors=("Chiller 4 Power Input", "Chiller 4 Supply Temperature")))


def test_other_asset_or_session_is_not_covered() -> None:
    assert not covers(artifact(), query(asset_id="Chiller 3"))
    assert not covers(artifact(), query(session_id="s2"))


def test_kind_filter_applies_when_given() -> None:
    assert covers(artifact(), query(kinds=frozenset({"telemetry_window"})))
    assert not covers(artifact(), query(kinds=frozenset({"anomaly_report"})))


def test_artifact_without_window_never_covers_a_windowed_query() -> None:
    assert not covers(artifact(window_start=None, window_end=None), query())


def test_multi_asset_artifact_covers_each_of_its_assets() -> None:
    both = artifact(asset_ids=["Chiller 3", "Chiller 4"])
    assert covers(both, query(asset_id="Chiller 3"))
    assert covers(both, query(asset_id="Chiller 4"))


def test_best_cover_prefers_the_tightest_window() -> None:
    wide = artifact(id="wide", window_start=T0 - timedelta(days=30), window_end=T1 + timedelta(days=30))
    tight = artifact(id="tight")
    assert best_cover([wide, tight], query()) is tight
    assert best_cover([wide], query(asset_id="Chiller 9")) is None
