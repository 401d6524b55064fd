"""Contract shapes of telemetry windows: site-local ISO timestamps, observations, CSV text.

A window becomes a `Table` (column name -> Python list) once; observations and CSV rows are then
built from plain lists, which is several times faster than going through a DataFrame per row.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

Table = dict[str, list[Any]]  # contract column name -> values (None where missing)
_NEEDS_QUOTING = (",", '"', "\n", "\r")


def full_sensor_name(asset_id: str, sensor: str) -> str:
    """`Chiller 9` + `Supply Temperature` -> `Chiller 9 Supply Temperature`."""
    return sensor if sensor.startswith(f"{asset_id} ") else f"{asset_id} {sensor}"


def _offset_text(minutes: int) -> str:
    sign = "-" if minutes < 0 else "+"
    hours, mins = divmod(abs(int(minutes)), 60)
    return f"{sign}{hours:02d}:{mins:02d}"


def local_iso(frame: pd.DataFrame) -> np.ndarray:
    """Site-local ISO strings with offset (`2020-06-01T00:00:00-04:00`) from `ts` (UTC) + `utc_offset_min`.

    Microseconds appear only on samples that have them (`2021-05-20T14:43:27.589000-04:00`).
    """
    if frame.empty:
        return np.array([], dtype=object)
    offsets = frame["utc_offset_min"].astype("int64").to_numpy()
    utc = frame["ts"].dt.tz_localize(None).to_numpy(dtype="datetime64[us]")
    local = utc + offsets.astype("timedelta64[m]")
    # numpy renders a whole column at once, far faster than strftime per element.
    text = np.datetime_as_string(local, unit="s").astype(object)
    fractional = (local - local.astype("datetime64[s]")) != np.timedelta64(0, "us")
    if fractional.any():
        text[fractional] = np.datetime_as_string(local[fractional], unit="us")
    distinct, which = np.unique(offsets, return_inverse=True)
    suffixes = np.array([_offset_text(int(m)) for m in distinct], dtype=object)[which]
    return text + suffixes


def _values(series: pd.Series) -> list[Any]:
    return [None if v != v else v for v in series.astype("float64").tolist()]  # NaN -> None


def contract_table(frame: pd.DataFrame, asset_id: str, sensors: list[str]) -> Table:
    """timestamp, asset_id, then one column per sensor under its full name."""
    table: Table = {"timestamp": local_iso(frame).tolist(), "asset_id": [asset_id] * len(frame)}
    for sensor in sensors:
        table[full_sensor_name(asset_id, sensor)] = _values(frame[sensor])
    return table


def row_count(table: Table) -> int:
    """Rows of a table."""
    return len(table["timestamp"]) if "timestamp" in table else len(next(iter(table.values()), []))


def observations(table: Table) -> list[dict[str, Any]]:
    """One dict per row (the contract's `observations`)."""
    names = list(table)
    return [dict(zip(names, row, strict=True)) for row in zip(*table.values(), strict=True)]


def _cell(value: Any) -> str:
    if value is None:
        return ""
    return repr(value) if isinstance(value, float) else str(value)


def csv_text(table: Table) -> str:
    """CSV text identical to pandas' `to_csv(index=False)` of the same columns (floats by repr, None empty)."""
    header = [str(name) for name in table]
    columns = [[_cell(v) for v in values] for values in table.values()]
    cells = [header, *columns]
    if any(ch in cell for column in cells for cell in column for ch in _NEEDS_QUOTING):
        # Text needing quotes never occurs in telemetry; the csv module quotes like pandas does.
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(zip(*columns, strict=True))
        return buffer.getvalue()
    return "\n".join([",".join(header), *map(",".join, zip(*columns, strict=True))]) + "\n"


def write_csv(table: Table, path: Path) -> None:
    """Write `csv_text(table)` to `path` (call it off the event loop)."""
    path.write_text(csv_text(table), encoding="utf-8")
