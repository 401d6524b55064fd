"""Dataset reader for the time-series tools: CSV, JSON (list of records) or XLSX into a DataFrame."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from timeseries.errors import TsfmError

SUPPORTED_SUFFIXES = (".csv", ".json", ".xlsx")


def read_dataset(path: Path, timestamp_column: str) -> pd.DataFrame:
    """Read `path` keeping `timestamp_column` as text, so the quality step sees the original offsets."""
    if not path.is_file():
        raise TsfmError(f"Dataset file not found: {path}. Write it with iot.history_csv or pass an existing file.")
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return pd.read_csv(path, dtype={timestamp_column: str})
    if suffix == ".json":
        return _records_frame(json.loads(path.read_text(encoding="utf-8")), path)
    if suffix == ".xlsx":
        try:
            return pd.read_excel(path, dtype={timestamp_column: str})
        except ImportError as exc:
            raise TsfmError(f"Reading .xlsx needs openpyxl, which is not installed ({exc}); save the sheet as CSV.") from exc
    raise TsfmError(
        f"Invalid file type received: '{path.suffix}'. Supported dataset types: {', '.join(SUPPORTED_SUFFIXES)}."
    )


def _records_frame(payload: Any, path: Path) -> pd.DataFrame:
    """A JSON dataset is a list of records, or an `iot.history` result holding them in `observations`."""
    if isinstance(payload, dict) and isinstance(payload.get("observations"), list):
        payload = payload["observations"]
    if not isinstance(payload, list) or not all(isinstance(item, dict) for item in payload):
        raise TsfmError(
            f"JSON dataset {path.name} must be a list of records (objects with a timestamp and sensor values) "
            "or an object with an 'observations' list."
        )
    return pd.DataFrame.from_records(payload)
