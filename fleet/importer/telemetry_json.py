"""CouchDB-style telemetry documents (a JSON list, one document, or JSON lines) to the telemetry frame.

A document is `{"asset_id": "Chiller 6", "timestamp": "...", "Chiller 6 Supply Temperature": 46.0, ...}`.
Sensor fields are matched to telemetry columns through SENSOR_COLUMNS; unknown sensors are reported
and skipped. Timestamps with an offset keep it; naive ones are taken as site-local time.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from assetops.db.tables import SENSOR_COLUMNS
from assetops.domain.catalog import DEFAULT_SITE_TIMEZONE
from fleet.model import telemetry_columns

SITE_TIMEZONE = DEFAULT_SITE_TIMEZONE
NAIVE_ASSUMPTION = f"naive telemetry timestamps were taken as site-local time ({SITE_TIMEZONE})"
_IGNORED_FIELDS = frozenset({"_id", "_rev", "asset_id", "timestamp"})
_OFFSET = r"(Z|[+-]\d{2}:?\d{2})$"


@dataclass
class TelemetryImport:
    """Telemetry read from document files, with what was skipped or assumed."""

    frame: pd.DataFrame
    sensors: dict[str, list[str]] = field(default_factory=dict)  # asset -> sensor names found
    notes: list[str] = field(default_factory=list)
    assumptions: list[str] = field(default_factory=list)


def read_documents(path: Path) -> list[dict[str, Any]]:
    """The documents of a JSON file (list or single object) or a JSON-lines file."""
    text = path.read_text(encoding="utf-8-sig").strip()
    if not text:
        return []
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    if isinstance(parsed, dict):
        return parsed.get("docs", [parsed]) if isinstance(parsed.get("docs"), list) else [parsed]
    return [doc for doc in parsed if isinstance(doc, dict)] if isinstance(parsed, list) else []


def is_telemetry_document(doc: dict[str, Any]) -> bool:
    """True for a document shaped like an IoT sample (asset_id and timestamp present)."""
    return isinstance(doc.get("asset_id"), str) and isinstance(doc.get("timestamp"), str)


def telemetry_from_documents(docs: list[dict[str, Any]]) -> TelemetryImport:
    """Build the telemetry frame (ts aware UTC, utc_offset_min, one column per sensor)."""
    result = TelemetryImport(frame=pd.DataFrame(columns=telemetry_columns()))
    unknown: dict[str, int] = {}
    records: list[dict[str, Any]] = []
    for doc in docs:
        asset = doc["asset_id"]
        record: dict[str, Any] = {"asset_id": asset, "timestamp": doc["timestamp"]}
        for key, value in doc.items():
            if key in _IGNORED_FIELDS:
                continue
            sensor = key[len(asset) + 1:] if key.startswith(asset + " ") else key
            column = SENSOR_COLUMNS.get(sensor)
            if column is None:
                unknown[key] = unknown.get(key, 0) + 1
                continue
            # Numbers and numeric strings are kept (pd.to_numeric later); anything else is a gap.
            record[column] = None if isinstance(value, bool | dict | list) else value
            result.sensors.setdefault(asset, [])
            if sensor not in result.sensors[asset]:
                result.sensors[asset].append(sensor)
        records.append(record)
    for key, count in sorted(unknown.items()):
        result.notes.append(f"telemetry field {key!r} ({count} documents) matches no known sensor; skipped")
    if records:
        result.frame = _frame(pd.DataFrame.from_records(records), result)
    return result


def _frame(raw: pd.DataFrame, result: TelemetryImport) -> pd.DataFrame:
    utc, offset_min, naive_count = parse_timestamps(raw["timestamp"].astype(str), raw["asset_id"].astype(str))
    if naive_count:
        result.assumptions.append(f"{NAIVE_ASSUMPTION} ({naive_count} samples)")
    frame = pd.DataFrame({"asset_id": raw["asset_id"].astype(str), "ts": utc, "utc_offset_min": offset_min})
    for column in telemetry_columns()[3:]:
        frame[column] = pd.to_numeric(raw[column], errors="coerce") if column in raw else np.nan
    bad = frame["ts"].isna()
    if bad.any():
        result.notes.append(f"{int(bad.sum())} telemetry documents have an unreadable timestamp; skipped")
        frame = frame[~bad]
    duplicated = frame.duplicated(["asset_id", "ts"], keep="last")
    if duplicated.any():
        result.notes.append(f"{int(duplicated.sum())} telemetry documents repeat an (asset, time) pair; kept the last")
        frame = frame[~duplicated]
    return frame.sort_values(["asset_id", "ts"], kind="stable").reset_index(drop=True)


def parse_timestamps(text: pd.Series, assets: pd.Series) -> tuple[pd.Series, pd.Series, int]:
    """(aware UTC times, UTC offset in minutes, count of naive inputs) for ISO-8601 strings.

    Naive values are localised to the site zone; in the repeated autumn hour the first occurrence
    (per asset) is taken as daylight time and the repeat as standard time, as a logger writes them.
    """
    text = text.str.strip()
    offsets = text.str.extract(_OFFSET, expand=False)
    has_offset = offsets.notna()
    utc = pd.Series(pd.NaT, index=text.index, dtype="datetime64[us, UTC]")
    minutes = pd.Series(0, index=text.index, dtype="int64")
    if has_offset.any():
        utc[has_offset] = pd.to_datetime(text[has_offset], utc=True, format="ISO8601", errors="coerce")
        minutes[has_offset] = offsets[has_offset].map(_offset_minutes)
    naive = ~has_offset
    if naive.any():
        local = pd.to_datetime(text[naive], format="ISO8601", errors="coerce")
        repeat = pd.DataFrame({"asset": assets[naive].to_numpy(), "local": local.to_numpy()}).duplicated(
            keep="first").to_numpy()
        aware = pd.DatetimeIndex(local).tz_localize(SITE_TIMEZONE, ambiguous=~repeat, nonexistent="shift_forward")
        utc[naive] = aware.tz_convert("UTC")
        minutes[naive] = (aware.tz_localize(None) - aware.tz_convert("UTC").tz_localize(None)).total_seconds() // 60
    return utc, minutes.fillna(0).astype("int16"), int(naive.sum())


def _offset_minutes(offset: str) -> int:
    if offset == "Z":
        return 0
    digits = offset[1:].replace(":", "")
    value = int(digits[:2]) * 60 + int(digits[2:])
    return -value if offset[0] == "-" else value
