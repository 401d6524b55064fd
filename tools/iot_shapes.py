"""Contract shapes of telemetry windows: site-local ISO timestamps, observations, CSV text.

A fetched window becomes a `ContractWindow` (timestamps + one float matrix) once; observations and
CSV text are built from whole columns. Float text must equal Python's `repr` (what pandas'
`to_csv` writes); orjson renders the same shortest round-trip digits tens of times faster, so it
is used wherever its notation provably matches (see `_ORJSON_SAFE_*`) and `repr` elsewhere.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from assetops.files import atomic_write_text
from tools.iot_fetch import WindowData

Table = dict[str, list[Any]]  # contract column name -> values (None where missing)
_NEEDS_QUOTING = (",", '"', "\n", "\r")
# repr switches to exponent notation below 1e-4 and from 1e16 on, orjson at other thresholds and
# with another exponent format; in between (and for 0.0) both print the same digits the same way.
_ORJSON_SAFE_MIN = 1e-4
_ORJSON_SAFE_MAX = 1e16


def full_sensor_name(asset_id: str, sensor: str) -> str:
    """`Chiller 9` + `Supply Temperature` -> `Chiller 9 Supply Temperature`."""
    return sensor if sensor.startswith(f"{asset_id} ") else f"{asset_id} {sensor}"


def _offset_text(minutes: int) -> str:
    sign = "-" if minutes < 0 else "+"
    hours, mins = divmod(abs(int(minutes)), 60)
    return f"{sign}{hours:02d}:{mins:02d}"


def local_iso(utc: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Site-local ISO strings with offset (`2020-06-01T00:00:00-04:00`) from UTC instants + offsets.

    `utc` is naive-UTC datetime64 (any unit), `offsets` minutes east of UTC. Microseconds appear
    only on samples that have them (`2021-05-20T14:43:27.589000-04:00`).
    """
    if len(utc) == 0:
        return np.array([], dtype=object)
    offsets = np.asarray(offsets, dtype=np.int64)
    local = np.asarray(utc).astype("datetime64[us]") + offsets.astype("timedelta64[m]")
    # numpy renders a whole column at once, far faster than strftime per element.
    text = np.datetime_as_string(local, unit="s").astype(object)
    fractional = (local - local.astype("datetime64[s]")) != np.timedelta64(0, "us")
    if fractional.any():
        text[fractional] = np.datetime_as_string(local[fractional], unit="us")
    distinct, which = np.unique(offsets, return_inverse=True)
    suffixes = np.array([_offset_text(int(m)) for m in distinct], dtype=object)[which]
    return text + suffixes


def contract_columns(sensor_names: list[str]) -> list[str]:
    """timestamp, asset_id, then the sensors by full name: the contract's column order."""
    return ["timestamp", "asset_id", *sensor_names]


@dataclass(frozen=True)
class ContractWindow:
    """A window in contract form: local timestamps, the asset id and the sensors with data.

    `values[:, j]` holds sensor `sensor_names[j]` (full names); NaN marks a missing value.
    """

    asset_id: str
    timestamps: list[str]
    sensor_names: list[str]
    values: np.ndarray

    def __len__(self) -> int:
        return len(self.timestamps)

    @property
    def finite(self) -> bool:
        """True when every stored value is finite (missing ones are None in JSON, never NaN/inf)."""
        return not bool(np.isinf(self.values).any())

    @property
    def columns(self) -> list[str]:
        """timestamp, asset_id, then the sensors by full name (the contract's column order)."""
        return contract_columns(self.sensor_names)


def contract_window(data: WindowData, asset_id: str) -> ContractWindow:
    """Keep the sensors with a value in the window (the contract's column rule) and render the timestamps."""
    present = data.sensors_with_values()
    return ContractWindow(
        asset_id=asset_id,
        timestamps=local_iso(data.utc, data.offsets).tolist(),
        sensor_names=[full_sensor_name(asset_id, s) for s in present],
        values=data.only(present),
    )


def _cells(values: np.ndarray) -> list[list[Any]]:
    """Rows of Python floats with None where a value is missing."""
    cells = values.astype(object)
    cells[np.isnan(values)] = None
    return cells.tolist()


def as_table(window: ContractWindow) -> Table:
    """The window as column name -> list (None where missing)."""
    columns: Table = {"timestamp": list(window.timestamps), "asset_id": [window.asset_id] * len(window)}
    for name, column in zip(window.sensor_names, _cells(window.values.T), strict=True):
        columns[name] = column
    return columns


def observations(window: ContractWindow) -> list[dict[str, Any]]:
    """One dict per row (the contract's `observations`)."""
    names, asset = window.columns, window.asset_id
    return [
        dict(zip(names, (stamp, asset, *row), strict=True))
        for stamp, row in zip(window.timestamps, _cells(window.values), strict=True)
    ]


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


def _orjson_safe(values: np.ndarray) -> bool:
    """True when orjson prints every value of `values` exactly as `repr` does (NaN is blanked)."""
    magnitude = np.abs(values[~np.isnan(values)])
    return bool(((magnitude == 0) | ((magnitude >= _ORJSON_SAFE_MIN) & (magnitude < _ORJSON_SAFE_MAX))).all())


def window_csv_text(window: ContractWindow) -> str:
    """`csv_text(as_table(window))`, rendered a whole matrix at a time where that is exact."""
    # Timestamps are rendered here and never need quoting; names and the asset id might.
    plain_names = not any(ch in text for text in (window.asset_id, *window.columns) for ch in _NEEDS_QUOTING)
    if not len(window) or not window.sensor_names or not plain_names or not _orjson_safe(window.values):
        return csv_text(as_table(window))
    # b"[[1.5,null],[2.0,3.25]]" -> one "1.5," / "2.0,3.25" string per row; null is a missing value.
    matrix = orjson.dumps(np.ascontiguousarray(window.values), option=orjson.OPT_SERIALIZE_NUMPY).decode()
    rows = matrix[2:-2].replace("null", "").split("],[")
    lead = f",{window.asset_id},"
    lines = [",".join(window.columns), *(stamp + lead + row for stamp, row in zip(window.timestamps, rows, strict=True))]
    return "\n".join(lines) + "\n"


def write_csv(window: ContractWindow, path: Path) -> None:
    """Write the window's CSV text to `path` (call it off the event loop).

    Atomically (a temporary file, then a rename): sessions asking for the same window write the
    same file name, and a reader must never see another writer's half-written file (found under
    50 concurrent sessions: "No columns to parse" and truncated timestamps)."""
    atomic_write_text(path, window_csv_text(window))
