"""Behaviour of the utilities tools: JSON reading, clocks, CSV statistics, path confinement."""

from __future__ import annotations

import json
import statistics
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from tools.framework import ToolContext, call_tool


@pytest.fixture
def workdir(ctx: ToolContext) -> Path:
    return ctx.workdir


@pytest.mark.parametrize("content", [{"a": [1, 2], "b": None}, [1, "x"], 3.5])
async def test_json_reader_returns_the_file_content(ctx: ToolContext, workdir: Path, content: object) -> None:
    (workdir / "doc.json").write_text(json.dumps(content))
    result = await call_tool("utilities.json_reader", {"file_name": "doc.json"}, context=ctx)
    assert result.status == "ok" and result.output == content
    assert result.text(compact=True) == json.dumps(content)


async def test_json_reader_reports_invalid_json_and_missing_files(ctx: ToolContext, workdir: Path) -> None:
    (workdir / "broken.json").write_text("{not json")
    broken = await call_tool("utilities.json_reader", {"file_name": "broken.json"}, context=ctx)
    missing = await call_tool("utilities.json_reader", {"file_name": "absent.json"}, context=ctx)
    assert "Cannot read JSON file 'broken.json'" in broken.output["error"]
    assert "does not exist" in missing.output["error"]


async def test_current_date_time_is_utc_iso_with_z(ctx: ToolContext) -> None:
    out = (await call_tool("utilities.current_date_time", {}, context=ctx)).output
    assert out["currentDateTime"].endswith("Z")
    moment = datetime.fromisoformat(out["currentDateTime"].replace("Z", "+00:00"))
    assert abs(datetime.now(UTC) - moment) < timedelta(minutes=5)
    assert out["currentDateTimeDescription"] == f"Today's date is {moment:%Y-%m-%d} and time is {moment:%H:%M:%S}."


async def test_current_time_english_matches_its_iso_form(ctx: ToolContext) -> None:
    out = (await call_tool("utilities.current_time_english", {}, context=ctx)).output
    moment = datetime.fromisoformat(out["iso"].replace("Z", "+00:00"))
    assert out["english"] == f"{moment:%Y-%m-%d %H:%M:%S}"


def _write_csv(path: Path) -> dict[str, list[float]]:
    columns = {"load": [1.0, 4.0, 2.0, 8.0, 5.0], "flat": [0.0] * 5, "gappy": [3.0, float("nan"), 6.0, 7.5, 11.25]}
    lines = ["timestamp,load,flat,gappy,label,ok"]
    for i in range(5):
        gappy = "" if np.isnan(columns["gappy"][i]) else columns["gappy"][i]
        lines.append(f"2020-06-01T00:{i:02d}:00,{columns['load'][i]},{columns['flat'][i]},{gappy},x{i},{i % 2 == 0}")
    path.write_text("\n".join(lines) + "\n")
    return columns


def _expected(values: list[float]) -> dict[str, float | int]:
    rows = [(i, v) for i, v in enumerate(values) if not np.isnan(v)]
    xs, ys = [r[0] for r in rows], [r[1] for r in rows]
    return {
        "count": len(ys),
        "mean": round(statistics.fmean(ys), 4),
        "std": round(statistics.stdev(ys), 4),
        "min": min(ys),
        "max": max(ys),
        "trend_slope": round(float(np.polyfit(xs, ys, 1)[0]), 6),
    }


async def test_csv_stats_summarises_every_numeric_column(ctx: ToolContext, workdir: Path) -> None:
    columns = _write_csv(workdir / "stats.csv")
    out = (await call_tool("utilities.csv_stats", {"csv_path": "stats.csv"}, context=ctx)).output
    assert out["all_columns"] == ["timestamp", "load", "flat", "gappy", "label", "ok"]
    assert list(out["stats"]) == ["load", "flat", "gappy"]  # no text, no booleans
    for name in ("load", "gappy"):
        assert out["stats"][name] == pytest.approx(_expected(columns[name]))
    assert out["stats"]["flat"] == {"count": 5, "mean": 0.0, "std": 0.0, "min": 0.0, "max": 0.0, "trend_slope": 0.0}


async def test_csv_stats_reports_bad_requested_columns_per_column(ctx: ToolContext, workdir: Path) -> None:
    _write_csv(workdir / "stats2.csv")
    args = {"csv_path": "stats2.csv", "columns": ["load", "label", "missing"]}
    result = await call_tool("utilities.csv_stats", args, context=ctx)
    assert result.status == "ok"
    assert list(result.output["stats"]) == ["load"]
    assert "not numeric" in result.output["column_errors"]["label"]
    assert "no column 'missing'" in result.output["column_errors"]["missing"]


async def test_csv_stats_reads_history_csv_output(ctx: ToolContext) -> None:
    args = {"site_name": "MAIN", "asset_id": "Chiller 9", "start": "2020-06-01", "final": "2020-06-02"}
    written = (await call_tool("iot.history_csv", args, context=ctx)).output
    stats = (await call_tool("utilities.csv_stats", {"csv_path": written["csv_path"]}, context=ctx)).output
    assert stats["stats"]["Chiller 9 Tonnage"]["count"] == 96
    assert stats["stats"]["Chiller 9 Tonnage"]["trend_slope"] == 1.0  # the small fleet adds 1 per row


@pytest.fixture
def hostile_links(workdir: Path, tmp_path: Path) -> None:
    """A link to `/` and a link to a file outside the work directory, inside the work directory."""
    secret = tmp_path / "secret.csv"
    secret.write_text("a\n1\n")
    for name, target in (("to_root", Path("/")), ("escape.csv", secret)):
        link = workdir / name
        if link.is_symlink():
            link.unlink()
        link.symlink_to(target)


@pytest.mark.usefixtures("hostile_links")
@pytest.mark.parametrize("hostile", ["/etc/passwd", "../../x", "to_root/etc/passwd", "escape.csv"])
async def test_file_arguments_outside_the_work_directory_are_refused(ctx: ToolContext, hostile: str) -> None:
    for tool, arg in (("utilities.csv_stats", "csv_path"), ("utilities.json_reader", "file_name")):
        result = await call_tool(tool, {arg: hostile}, context=ctx)
        assert result.status == "error", (tool, hostile)
        assert f"Argument '{arg}'" in result.output["error"] and "outside the work directory" in result.output["error"]
