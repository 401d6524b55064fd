"""Pure helpers of the data specialist: chunking, merging, slicing, presence, corrections, evidence lines."""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import pairwise
from pathlib import Path
from zoneinfo import ZoneInfo

import pandas as pd

from specialists.base import ToolOutcome
from specialists.data import frames
from specialists.data.evidence import TelemetryFacts, artifact_fields
from specialists.data.history import gap_lines, requested_sensors
from specialists.data.retry import canonical_asset, corrected_args
from tests.support.catalog import default_catalog

ZONE = ZoneInfo("America/New_York")

CATALOG = default_catalog()


def _history_csv(path: Path, start: str, periods: int, **columns: list[float | None]) -> Path:
    stamps = pd.date_range(start, periods=periods, freq="15min", tz=ZONE)
    frame = pd.DataFrame({"timestamp": [s.isoformat() for s in stamps], "asset_id": "Chiller 9", **columns})
    frame.to_csv(path, index=False)
    return path


def test_a_long_window_is_split_into_consecutive_chunks_under_the_row_cap() -> None:
    start = datetime(2021, 1, 1, tzinfo=ZONE)
    end = datetime(2021, 12, 31, 6, tzinfo=ZONE)
    chunks = frames.split_window(start, end)
    assert chunks[0].start == start and chunks[-1].end == end
    assert all(a.end == b.start for a, b in pairwise(chunks))
    assert all(c.end - c.start <= timedelta(days=frames.MAX_CHUNK_DAYS) for c in chunks)
    assert frames.MAX_CHUNK_DAYS * 96 < 5000  # 15-minute rows per chunk stay under history_csv's cap


def test_tool_times_are_bare_dates_at_midnight_and_site_local_otherwise() -> None:
    assert frames.tool_time(datetime(2021, 3, 1, tzinfo=ZONE)) == "2021-03-01"
    assert frames.tool_time(datetime(2021, 3, 1, 6, 30, tzinfo=ZONE)) == "2021-03-01T06:30:00"


def test_merging_chunks_keeps_time_order_and_drops_overlaps(tmp_path: Path) -> None:
    a = _history_csv(tmp_path / "a.csv", "2021-05-01", 4, **{"Chiller 9 Tonnage": [1.0, 2.0, 3.0, 4.0]})
    b = _history_csv(tmp_path / "b.csv", "2021-05-01 00:45", 3, **{"Chiller 9 Tonnage": [4.0, 5.0, 6.0]})
    merged = frames.read_history(frames.merge_histories([str(b), str(a)], tmp_path / "m.csv"))
    assert merged["Chiller 9 Tonnage"].tolist() == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]


def test_slicing_keeps_only_the_rows_inside_the_window(tmp_path: Path) -> None:
    source = _history_csv(tmp_path / "s.csv", "2021-05-01", 96 * 3, **{"Chiller 9 Tonnage": [1.0] * 96 * 3})
    part = frames.slice_history(source, datetime(2021, 5, 2, tzinfo=ZONE), datetime(2021, 5, 3, tzinfo=ZONE),
                                tmp_path / "part.csv")
    assert len(part) == 96
    assert len(pd.read_csv(tmp_path / "part.csv")) == 96


def test_presence_tells_missing_and_silenced_sensors_apart(tmp_path: Path) -> None:
    flow = [10.0] * 8 + [None] * 16
    path = _history_csv(tmp_path / "p.csv", "2021-05-01", 24, **{"Chiller 9 Condenser Water Flow": flow,
                                                                   "Chiller 9 Tonnage": [5.0] * 24})
    frame = frames.read_history(path)
    info = frames.presence(frame, ["Chiller 9 Condenser Water Flow", "Chiller 9 Tonnage", "Chiller 9 Power Input"],
                           datetime(2021, 5, 1, 6, tzinfo=ZONE))
    assert info["Chiller 9 Power Input"]["count"] == 0
    assert info["Chiller 9 Condenser Water Flow"]["silent_hours"] == 4.0
    assert info["Chiller 9 Condenser Water Flow"]["last"].startswith("2021-05-01T01:45:00-04:00")
    assert info["Chiller 9 Tonnage"]["silent_hours"] == 0.0
    assert info["Chiller 9 Condenser Water Flow"]["rows_until_last"] == 8


def test_a_silent_sensor_is_kept_whether_asked_or_not_but_one_reported_on_change_has_not_stopped() -> None:
    def facts(presence: dict[str, dict[str, object]]) -> TelemetryFacts:
        return TelemetryFacts(
            asset_id="Chiller 3", start=datetime(2018, 8, 14, tzinfo=ZONE), end=datetime(2018, 8, 17, tzinfo=ZONE),
            csv_path="/w/x.csv", rows=288, requested=["Chiller 3 Power Input"], available=["Chiller 3 Power Input"],
            stats={}, trends={}, presence=presence, running_share=0.5, running_means={})

    evap, schedule = "Chiller 3 Liquid Refrigerant Evaporator Temperature", "Chiller 3 Schedule"
    fields = artifact_fields(facts({
        "Chiller 3 Power Input": {"count": 288, "last": "2018-08-16T23:45", "silent_hours": 0.0, "rows_until_last": 288},
        evap: {"count": 55, "last": "2018-08-14T13:30", "silent_hours": 58.0, "rows_until_last": 55},
        schedule: {"count": 3, "last": "2018-08-16T19:00", "silent_hours": 5.0, "rows_until_last": 270}}), CATALOG.zone)
    # (a later turn reusing the window asks whether the evaporator reading is still blank)
    assert set(fields["results"]["sensors_stopped"]) == {evap}
    # (the lines name the sensors the task asked for only)
    assert not any("stopped reporting" in line for line in fields["observations"])


def test_trend_is_per_day() -> None:
    stamps = pd.date_range("2021-05-01", periods=4 * 96, freq="15min", tz="UTC")
    frame = pd.DataFrame({"ts": stamps, "v": [i / 96 * 2.0 for i in range(len(stamps))]})
    assert abs((frames.trend_per_day(frame, "v") or 0) - 2.0) < 1e-6


def test_arguments_are_corrected_where_the_error_points() -> None:
    assert canonical_asset("CWC04009", CATALOG) == "Chiller 9" and canonical_asset("chiller4", CATALOG) == "Chiller 4"
    assert canonical_asset("Chiller 99", CATALOG) is None
    asset = corrected_args({"site_name": "MAIN", "asset_id": "chiller 9", "start": "2021-05-01"},
                           "unknown asset_id chiller 9 at site MAIN", "error", CATALOG)
    assert asset is not None and asset["asset_id"] == "Chiller 9"
    dates = corrected_args({"asset_id": "Chiller 9", "start": "2021-05-01T00:00:00Z"},
                           "Argument 'start' must be an ISO date", "error", CATALOG)
    assert dates is not None and dates["start"] == "2021-05-01"
    assert corrected_args({"asset_id": "Chiller 9"}, "No observations for asset_id Chiller 9", "error", CATALOG) is None
    assert corrected_args({"asset_id": "Chiller 9"}, "start >= final", "error", CATALOG) is None
    assert corrected_args({"asset_id": "Chiller 9"}, "history_csv timed out after 5 s", "timeout", CATALOG) == {
        "asset_id": "Chiller 9"}


def test_requested_sensors_map_onto_each_asset() -> None:
    assert requested_sensors("Chiller 3", ["Chiller 4 Power Input", "Tonnage", "Chiller % Loaded"], CATALOG) == [
        "Chiller 3 Power Input", "Chiller 3 Tonnage", "Chiller 3 Chiller % Loaded"]
    assert len(requested_sensors("Chiller 6", [], CATALOG)) == 10


def test_consecutive_empty_chunks_become_one_gap_line() -> None:
    error = "No observations for asset_id Chiller 3 from a to b: its data covers 2021-04-01 to 2021-06-30 (10 obs)."
    failed = [ToolOutcome("iot.history_csv", {"start": s, "final": f}, "error", error=error)
              for s, f in (("2020-07-01", "2020-08-15"), ("2020-08-15", "2020-09-29"))]
    assert gap_lines(failed) == ["No telemetry from 2020-07-01 to 2020-09-29 (the stored data covers 2021-04-01 "
                                 "to 2021-06-30); the statistics cover the rest of the window."]


def test_telemetry_artifact_lines_carry_numbers_units_and_gaps() -> None:
    facts = TelemetryFacts(
        asset_id="Chiller 9", start=datetime(2021, 5, 1, tzinfo=ZONE), end=datetime(2021, 5, 2, tzinfo=ZONE),
        csv_path="/w/x.csv", rows=96, requested=["Chiller 9 Power Input", "Chiller 9 Condenser Water Flow"],
        available=["Chiller 9 Power Input"],
        stats={"Chiller 9 Power Input": {"count": 96, "mean": 250.5, "min": 1.5, "max": 400.0, "std": 3.0}},
        trends={"Chiller 9 Power Input": 1.25}, presence={"Chiller 9 Power Input": {"count": 96, "last": "x",
                                                                                   "silent_hours": 0.0}},
        running_share=0.5, running_means={"Chiller 9 Power Input": 320.0})
    fields = artifact_fields(facts, CATALOG.zone)
    assert fields["observations"][0].startswith("No data for Chiller 9 Condenser Water Flow")
    assert "Power Input: 320.00 kW while running (all samples 250.50, min 1.50, max 400.00), trend +1.250 kW/day" \
        in fields["observations"]
    assert fields["summary"].startswith("Chiller 9, 2021-05-01 to 2021-05-02: Power Input: 320.00 kW while running")
    assert fields["results"]["sensors_without_data"] == ["Chiller 9 Condenser Water Flow"]
    assert fields["sensors"] == ["Chiller 9 Power Input", "Chiller 9 Condenser Water Flow"]


def test_values_over_a_day_lead_with_the_mean_while_running() -> None:
    from specialists.data.point import describe, value_lines

    stamps = pd.date_range("2021-05-01", periods=4, freq="15min", tz=ZONE)
    frame = pd.DataFrame({"timestamp": [s.isoformat() for s in stamps], "ts": stamps.tz_convert("UTC"),
                          "Chiller 9 Chiller % Loaded": [0.0, 0.0, 50.0, 60.0],
                          "Chiller 9 Tonnage": [0.0, 0.0, 300.0, 400.0],
                          "Chiller 9 Power Input": [1.5, 1.5, 200.0, 300.0]})
    values = describe(frame, "Chiller 9", ["Chiller 9 Power Input", "Chiller 9 Supply Temperature"], None)
    assert values["Chiller 9 Power Input"]["running_mean"] == 250.0  # the two rows with load and tonnage
    lines = value_lines("Chiller 9", values)
    assert lines[0].startswith("Power Input: 250.00 kW while running (all samples 125.75")
    assert lines[1] == "Supply Temperature: no data."


def test_a_reused_window_is_summarised_by_the_sensors_the_new_question_names() -> None:
    from datetime import UTC

    from specialists.data.evidence import focused_summary, window_label

    results = {"rows": 2967, "running_share": 0.4, "stats": {
        "Chiller 4 Power Input": {"mean": 25.3, "min": 1.5, "max": 313.4, "running_mean": 130.2, "unit": "kW"},
        "Chiller 4 Supply Temperature": {"mean": 65.65, "min": 45.79, "max": 67.94, "running_mean": 46.01,
                                         "unit": "degF", "trend_per_day": 0.049}}}
    label = window_label(datetime(2021, 3, 1, 5, tzinfo=UTC), datetime(2021, 4, 1, 4, tzinfo=UTC), CATALOG.zone)
    assert label == "2021-03-01 to 2021-04-01"  # stored UTC bounds shown in site time
    summary = focused_summary(results, "Chiller 4", label, ["Chiller 4 Supply Temperature"])
    assert summary is not None
    assert summary.startswith("Chiller 4, 2021-03-01 to 2021-04-01: Supply Temperature: 46.01 degF while running "
                              "(all samples 65.65")
    assert "Power Input" not in summary
    assert focused_summary(results, "Chiller 4", label, ["Chiller 4 Tonnage"]) is None


def test_a_reused_window_leads_with_the_named_sensor_but_a_default_list_keeps_the_stored_summary() -> None:
    from datetime import UTC

    from artifacts.model import Artifact
    from assetops.domain.turn import SpecialistTask
    from specialists.data.history import AssetHistory
    from specialists.data.specialist import _summary_for

    stats = {"Chiller 4 Power Input": {"mean": 25.3, "min": 1.5, "max": 313.4, "running_mean": 130.2, "unit": "kW"},
             "Chiller 4 Supply Temperature": {"mean": 65.65, "min": 45.79, "max": 67.94, "running_mean": 46.01,
                                              "unit": "degF"}}
    stored = Artifact(id="artifact_dc_1", session_id="s", producer="data", kind="telemetry_window",
                      asset_ids=["Chiller 4"], window_start=datetime(2021, 3, 1, 5, tzinfo=UTC),
                      window_end=datetime(2021, 4, 1, 4, tzinfo=UTC), summary="Chiller 4 stored: Power Input first.",
                      results={"rows": 2967, "running_share": 0.4, "stats": stats})
    reused = AssetHistory("Chiller 4", stored, reused_id=stored.id)
    named = SpecialistTask("data", "history", asset_ids=["Chiller 4"], sensors=["Chiller 4 Supply Temperature"])
    assert _summary_for(named, reused, CATALOG).startswith("Chiller 4, 2021-03-01 to 2021-04-01: Supply Temperature: 46.01")
    default = SpecialistTask("data", "history", asset_ids=["Chiller 4"], sensors=[f"Chiller 4 S{i}" for i in range(9)])
    assert _summary_for(default, reused, CATALOG) == stored.summary


def test_the_last_time_it_ran_and_the_last_sample_are_read_from_the_load() -> None:
    times = pd.date_range("2019-07-23 12:00", periods=8, freq="h", tz="UTC")
    frame = pd.DataFrame({"ts": times, "Chiller 9 Chiller % Loaded": [60, 55, 50, 0, 0, 0, 0, 0],
                          "Chiller 9 Tonnage": [500, 480, 450, 0, 0, 0, 0, 0]})
    ran, last = frames.last_running(frame, "Chiller 9")
    assert ran == "2019-07-23T14:00:00+00:00" and last == "2019-07-23T19:00:00+00:00"
    assert frames.last_running(frame.iloc[3:], "Chiller 9") == (None, "2019-07-23T19:00:00+00:00")


def test_the_stop_is_the_first_idle_sample_after_the_last_run_and_only_when_it_stayed_off() -> None:
    times = pd.date_range("2019-07-23 12:00", periods=8, freq="h", tz="UTC")
    frame = pd.DataFrame({"ts": times, "Chiller 9 Chiller % Loaded": [60, 55, 50, 0, 0, 0, 0, 0],
                          "Chiller 9 Tonnage": [500, 480, 450, 0, 0, 0, 0, 0]})
    assert frames.stopped_at(frame, "Chiller 9") == "2019-07-23T15:00:00+00:00"
    assert frames.stopped_at(frame.iloc[:3], "Chiller 9") is None  # runs at its last sample: no stop inside
    assert frames.stopped_at(frame.iloc[3:], "Chiller 9") is None  # never ran: no stop inside either


def test_running_is_the_one_load_threshold_every_specialist_uses() -> None:
    from specialists.common.frames import LOAD, RUNNING_LOAD_PCT
    from specialists.common.frames import running_mask as analysis_running

    loads = [0.0, 8.0, RUNNING_LOAD_PCT, 12.0, 60.0]
    frame = pd.DataFrame({"Chiller 9 Chiller % Loaded": loads, "Chiller 9 Tonnage": [0.0, 40.0, 50.0, 60.0, 300.0]})
    data_view = frames.running_mask(frame, "Chiller 9").tolist()
    assert data_view == [False, False, False, True, True]  # a ramp at 8% load is not "while running"
    assert data_view == analysis_running(pd.DataFrame({LOAD: loads})).tolist()
