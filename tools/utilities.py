"""Server `utilities`: read a JSON file, tell the time, summarise a CSV's numeric columns.

File arguments are confined to the work directory (relative paths are relative to it).
"""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import pandas as pd
from pydantic import Field

from tools.framework import ToolError, run_cpu, tool
from tools.framework.paths import resolve_in_workdir

MEAN_DIGITS = 4
SLOPE_DIGITS = 6


@tool("utilities", returns_json_string=True, cacheable=False)
async def json_reader(
    file_name: Annotated[str, Field(description="JSON file in the work directory. Example: results/forecast.json")],
) -> Any:
    """Read a JSON file from the work directory and return its content (object, array or scalar)."""
    path = resolve_in_workdir("file_name", file_name, must_exist=True)
    try:
        text = await run_cpu(path.read_text, encoding="utf-8")
        return json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ToolError(f"Cannot read JSON file '{file_name}': {exc}") from None


def _now_iso() -> tuple[datetime, str]:
    now = datetime.now(UTC)
    return now, now.isoformat().replace("+00:00", "Z")


@tool("utilities", cacheable=False)
async def current_date_time() -> dict[str, str]:
    """The current wall-clock date and time in UTC (ISO-8601 with Z)."""
    now, iso = _now_iso()
    return {
        "currentDateTime": iso,
        "currentDateTimeDescription": f"Today's date is {now:%Y-%m-%d} and time is {now:%H:%M:%S}.",
    }


@tool("utilities", cacheable=False)
async def current_time_english() -> dict[str, str]:
    """The current UTC time as 'YYYY-MM-DD HH:MM:SS' plus the ISO-8601 form."""
    now, iso = _now_iso()
    return {"english": f"{now:%Y-%m-%d %H:%M:%S}", "iso": iso}


def _rounded(value: float, digits: int) -> float | None:
    if value is None or not math.isfinite(value):
        return None
    result = round(float(value), digits)
    return 0.0 if result == 0 else result  # no "-0.0" in the output


def column_stats(values: pd.Series) -> dict[str, Any]:
    """count, mean, sample std, min, max and the least-squares slope per row over non-null values."""
    present = values.dropna()
    y = present.to_numpy(dtype="float64")
    x = np.flatnonzero(values.notna().to_numpy()).astype("float64")  # row positions in the file
    count = len(y)
    slope: float | None = None
    if count >= 2:
        dx = x - x.mean()
        slope = float((dx * (y - y.mean())).sum() / (dx * dx).sum())
    elif count == 1:
        slope = 0.0
    return {
        "count": count,
        "mean": _rounded(y.mean(), MEAN_DIGITS) if count else None,
        "std": _rounded(y.std(ddof=1), MEAN_DIGITS) if count >= 2 else None,
        "min": _rounded(y.min(), MEAN_DIGITS) if count else None,
        "max": _rounded(y.max(), MEAN_DIGITS) if count else None,
        "trend_slope": _rounded(slope, SLOPE_DIGITS) if slope is not None else None,
    }


def _numeric_columns(frame: pd.DataFrame) -> list[str]:
    return [str(c) for c in frame.select_dtypes(include="number").columns if frame[c].dtype != bool]


def summarise_csv(path: Path, columns: list[str] | None) -> dict[str, Any]:
    """Read the CSV and compute the per-column statistics (pure apart from the read)."""
    try:
        frame = pd.read_csv(path)
    except (OSError, ValueError, pd.errors.ParserError) as exc:
        raise ToolError(f"Cannot read CSV '{path.name}': {exc}") from None
    numeric = _numeric_columns(frame)
    wanted = numeric if columns is None else columns
    stats: dict[str, Any] = {}
    column_errors: dict[str, str] = {}
    for name in wanted:
        if name not in frame.columns:
            column_errors[name] = f"no column '{name}' in the file; columns are: {', '.join(map(str, frame.columns))}"
        elif name not in numeric:
            column_errors[name] = f"column '{name}' is not numeric ({frame[name].dtype})"
        else:
            stats[name] = column_stats(frame[name])
    return {"all_columns": [str(c) for c in frame.columns], "stats": stats, "column_errors": column_errors}


@tool("utilities", returns_json_string=True, cacheable=False, input_files=("csv_path",))
async def csv_stats(
    csv_path: Annotated[str, Field(description="CSV file in the work directory. Example: Chiller_9_20200601T000000_20200701T000000_history.csv")],
    columns: Annotated[
        list[str] | None,
        Field(description="Columns to summarise; omit for every numeric column. Example: [\"Chiller 9 Tonnage\"]"),
    ] = None,
) -> dict[str, Any]:
    """Per numeric column: count, mean, std (sample), min, max (4 decimals) and trend_slope per row (6 decimals).

    Requested columns that are missing or not numeric are reported under column_errors.
    """
    path = resolve_in_workdir("csv_path", csv_path, must_exist=True)
    summary = await run_cpu(summarise_csv, path, columns)
    result: dict[str, Any] = {"csv_path": csv_path, **summary}
    if not summary["column_errors"]:
        del result["column_errors"]
    return result
