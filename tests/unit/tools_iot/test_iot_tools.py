"""Behaviour of the iot tools on the small fleet: shapes, values, local timestamps, caps, errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tests.support.catalog import default_catalog
from tests.unit.tools_iot.small_fleet import CHILLER6_MISSING, OFF_GRID_LOCAL, SmallFleet
from tools import iot
from tools.framework import ToolContext, call_tool
from tools.iot_shapes import csv_text

C9 = {"site_name": "MAIN", "asset_id": "Chiller 9"}


def _row_index(fleet: SmallFleet, asset_id: str, utc: str) -> int:
    frame = fleet.telemetry[fleet.telemetry["asset_id"] == asset_id].reset_index(drop=True)
    return int(np.flatnonzero(frame["ts"] == pd.Timestamp(utc))[0])


async def test_sites_lists_main(ctx: ToolContext) -> None:
    result = await call_tool("iot.sites", {}, context=ctx)
    assert result.output == {"sites": ["MAIN"]}


async def test_assets_lists_only_assets_with_telemetry_sorted(ctx: ToolContext) -> None:
    result = await call_tool("iot.assets", {"site_name": "MAIN"}, context=ctx)
    assert result.output["assets"] == ["Chiller 6", "Chiller 9"]
    assert result.output["total_assets"] == 2
    assert result.output["message"] == "found 2 asset ids for site_name MAIN: Chiller 6, Chiller 9."


async def test_assets_of_unknown_site_is_an_error_naming_known_sites(ctx: ToolContext) -> None:
    result = await call_tool("iot.assets", {"site_name": "NORTH"}, context=ctx)
    assert result.status == "error"
    assert "NORTH" in result.output["error"] and "MAIN" in result.output["error"]


async def test_sensors_are_full_names_in_contract_order(ctx: ToolContext) -> None:
    result = await call_tool("iot.sensors", {"site_name": "MAIN", "asset_id": "Chiller 6"}, context=ctx)
    expected = [f"Chiller 6 {s}" for s in default_catalog().sensors_of("Chiller 6")]
    assert result.output["sensors"] == expected
    assert result.output["total_sensors"] == 10
    assert result.output["units"]["Chiller 6 Supply Temperature"] == "degF"


async def test_unknown_asset_error_lists_the_known_assets(ctx: ToolContext) -> None:
    for tool in ("iot.sensors", "iot.history", "iot.history_csv"):
        args = {"site_name": "MAIN", "asset_id": "Chiller 99", "start": "2020-06-01"}
        if tool == "iot.sensors":
            args.pop("start")
        result = await call_tool(tool, args, context=ctx)
        assert result.status == "error", tool
        assert "Chiller 99" in result.output["error"]
        assert "Chiller 6, Chiller 9" in result.output["error"]


async def test_history_returns_stored_values_with_site_local_timestamps(ctx: ToolContext, small_fleet: SmallFleet) -> None:
    args = {**C9, "start": "2020-06-01", "final": "2020-06-01T01:00:00"}
    result = await call_tool("iot.history", args, context=ctx)
    out = result.output
    assert out["total_observations"] == 4
    assert [o["timestamp"] for o in out["observations"]] == [
        "2020-06-01T00:00:00-04:00", "2020-06-01T00:15:00-04:00",
        "2020-06-01T00:30:00-04:00", "2020-06-01T00:45:00-04:00",
    ]
    first = _row_index(small_fleet, "Chiller 9", "2020-06-01T04:00:00Z")
    sensors = default_catalog().sensors_of("Chiller 9")
    k = sensors.index("Supply Temperature")
    assert out["observations"][0]["Chiller 9 Supply Temperature"] == k * 1000.0 + first
    assert out["observations"][0]["asset_id"] == "Chiller 9"
    assert out["start"] == "2020-06-01" and out["final"] == "2020-06-01T01:00:00"
    assert out["truncated"] is False


async def test_history_window_with_offsets_spans_the_dst_change(ctx: ToolContext) -> None:
    # 00:00-04:00 to 03:00-05:00 is four hours of absolute time: 16 samples, offsets switch at 02:00 EDT.
    args = {**C9, "start": "2020-11-01T00:00:00-04:00", "final": "2020-11-01T03:00:00-05:00"}
    out = (await call_tool("iot.history", args, context=ctx)).output
    stamps = [o["timestamp"] for o in out["observations"]]
    assert len(stamps) == 16
    assert stamps[0] == "2020-11-01T00:00:00-04:00"
    assert "2020-11-01T01:45:00-04:00" in stamps and "2020-11-01T01:00:00-05:00" in stamps
    assert stamps[-1] == "2020-11-01T02:45:00-05:00"


async def test_history_renders_microseconds_of_off_grid_samples(ctx: ToolContext) -> None:
    args = {**C9, "start": "2020-06-10T14:40:00", "final": "2020-06-10T14:50:00"}
    out = (await call_tool("iot.history", args, context=ctx)).output
    assert [o["timestamp"] for o in out["observations"]] == [
        f"{OFF_GRID_LOCAL}-04:00", "2020-06-10T14:45:00-04:00",
    ]


async def test_history_cap_truncates_and_says_where_to_continue(ctx: ToolContext) -> None:
    out = (await call_tool("iot.history", {**C9, "start": "2020-06-01"}, context=ctx)).output
    assert out["total_observations"] == iot.HISTORY_CAP
    assert out["truncated"] is True
    last = out["observations"][-1]["timestamp"]
    assert out["last_timestamp"] == last
    assert "capped at 1000" in out["message"] and last in out["message"]
    assert out["next_start"] in out["message"]


async def test_history_continues_from_next_start_without_gaps_or_repeats(ctx: ToolContext, small_fleet: SmallFleet) -> None:
    first = (await call_tool("iot.history", {**C9, "start": "2020-06-01"}, context=ctx)).output
    rest = (await call_tool("iot.history", {**C9, "start": first["next_start"], "final": "2020-06-20"}, context=ctx)).output
    stamps = [o["timestamp"] for o in first["observations"] + rest["observations"]]
    assert len(stamps) == len(set(stamps))
    c9 = small_fleet.telemetry[small_fleet.telemetry["asset_id"] == "Chiller 9"]
    local = c9["ts"].dt.tz_convert("America/New_York").dt.tz_localize(None)
    expected = int(((local >= pd.Timestamp("2020-06-01")) & (local < pd.Timestamp("2020-06-20"))).sum())
    assert len(stamps) == expected


async def test_history_outside_coverage_reports_the_coverage_window(ctx: ToolContext) -> None:
    result = await call_tool("iot.history", {**C9, "start": "2019-01-01", "final": "2019-02-01"}, context=ctx)
    assert result.status == "error"
    assert "2020-05-30T00:00:00-04:00" in result.output["error"]
    assert "2020-11-02T23:45:00-05:00" in result.output["error"]


@pytest.mark.parametrize(
    ("start", "final", "names"),
    [
        ("June 2020", None, "'start'"),
        ("2020-06-01", "tomorrow", "'final'"),
        ("2020-06-02", "2020-06-01", "'final'"),
        ("2020-06-01", "2020-06-01", "'final'"),
    ],
)
async def test_history_date_errors_name_the_argument(ctx: ToolContext, start: str, final: str | None, names: str) -> None:
    args = {**C9, "start": start}
    if final is not None:
        args["final"] = final
    for tool in ("iot.history", "iot.history_csv"):
        result = await call_tool(tool, args, context=ctx)
        assert result.status == "error"
        assert names in result.output["error"]


async def test_history_csv_writes_the_contract_file(ctx: ToolContext, small_fleet: SmallFleet) -> None:
    args = {**C9, "start": "2020-06-01", "final": "2020-06-02"}
    out = (await call_tool("iot.history_csv", args, context=ctx)).output
    path = Path(out["csv_path"])
    assert path == small_fleet.settings.work_dir / "Chiller_9_20200601T000000_20200602T000000_history.csv"
    frame = pd.read_csv(path)
    expected_columns = ["timestamp", "asset_id", *(f"Chiller 9 {s}" for s in default_catalog().sensors_of("Chiller 9"))]
    assert list(frame.columns) == expected_columns == out["columns"]
    assert len(frame) == out["total_observations"] == 96
    assert frame["timestamp"].iloc[0] == "2020-06-01T00:00:00-04:00"
    first = _row_index(small_fleet, "Chiller 9", "2020-06-01T04:00:00Z")
    assert frame["Chiller 9 Tonnage"].tolist() == [9000.0 + first + i for i in range(96)]
    assert str(path) in out["message"]


async def test_history_csv_drops_sensors_without_data_in_the_window(ctx: ToolContext) -> None:
    args = {"site_name": "MAIN", "asset_id": "Chiller 6", "start": "2020-06-01", "final": "2020-06-03"}
    out = (await call_tool("iot.history_csv", args, context=ctx)).output
    assert f"Chiller 6 {CHILLER6_MISSING}" not in out["columns"]
    assert len(out["columns"]) == 2 + 9


async def test_history_csv_open_end_names_the_file_now(ctx: ToolContext, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(iot, "HISTORY_CSV_CAP", 100)
    out = (await call_tool("iot.history_csv", {**C9, "start": "2020-06-01"}, context=ctx)).output
    assert out["csv_path"].endswith("Chiller_9_20200601T000000_now_history.csv")
    assert out["total_observations"] == 100 and out["truncated"] is True
    assert "capped at 100" in out["message"]


async def test_history_csv_is_answered_from_the_cache_while_the_file_exists(ctx: ToolContext) -> None:
    args = {**C9, "start": "2020-06-03", "final": "2020-06-04"}
    first = await call_tool("iot.history_csv", args, context=ctx)
    second = await call_tool("iot.history_csv", args, context=ctx)
    assert (first.cached, second.cached) == (False, True)
    assert second.output == first.output
    Path(first.output["csv_path"]).unlink()
    third = await call_tool("iot.history_csv", args, context=ctx)
    assert third.cached is False and Path(third.output["csv_path"]).exists()


@pytest.mark.parametrize(
    "frame",
    [
        pd.DataFrame({"timestamp": ["2020-06-01T00:00:00-04:00", "x"], "asset_id": "Chiller 9",
                      "Chiller 9 Tonnage": [1.5, float("nan")], "Chiller 9 Power Input": [1e-05, 123456789.125]}),
        pd.DataFrame({"timestamp": ["a,b", 'say "hi"'], "v": [0.1, 0.2]}),
    ],
)
def test_csv_text_is_identical_to_pandas_to_csv(frame: pd.DataFrame) -> None:
    table = {name: [None if v != v else v for v in frame[name].tolist()] for name in frame.columns}
    assert csv_text(table) == frame.to_csv(index=False)


async def test_site_and_asset_names_match_ignoring_case_and_echo_the_canonical_ids(ctx: ToolContext) -> None:
    args = {"site_name": "main", "asset_id": " chiller 9 ", "start": "2020-06-01", "final": "2020-06-01T01:00:00"}
    out = (await call_tool("iot.history_csv", args, context=ctx)).output
    assert (out["site_name"], out["asset_id"]) == ("MAIN", "Chiller 9")
    assert out["csv_path"].endswith("Chiller_9_20200601T000000_20200601T010000_history.csv")
