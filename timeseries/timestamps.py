"""ISO-8601 timestamps with UTC offsets: parse to UTC for arithmetic, format back with the site offset."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from timeseries.errors import TsfmError

_OFFSET_PATTERN = r"(Z|[+-]\d{2}:?\d{2})$"


@dataclass(frozen=True)
class ParsedTimestamps:
    """UTC instants plus the UTC offset (minutes) each string carried; `offsets_min` None = naive input."""

    utc: pd.DatetimeIndex
    offsets_min: np.ndarray | None


def parse_timestamps(values: pd.Series, column: str) -> ParsedTimestamps:
    """Parse mixed-offset ISO strings (unparsable ones become NaT); naive strings are read as UTC."""
    if isinstance(values.dtype, pd.DatetimeTZDtype):
        utc = pd.DatetimeIndex(values.dt.tz_convert("UTC"))
        return ParsedTimestamps(utc, (values.map(lambda t: t.utcoffset().total_seconds() // 60)).to_numpy())
    text = values.astype("string").str.strip()
    utc = pd.DatetimeIndex(pd.to_datetime(text, format="ISO8601", utc=True, errors="coerce"))
    if utc.isna().all() and len(text):
        raise TsfmError(
            f"timestamp_column '{column}' could not be parsed as ISO-8601 (first value: {text.iloc[0]!r}). "
            "Expected e.g. 2020-06-01T00:15:00-04:00."
        )
    found = text.str.extract(_OFFSET_PATTERN, expand=False)
    if found.isna().all():
        return ParsedTimestamps(utc, None)
    return ParsedTimestamps(utc, _offset_minutes(found.fillna("Z")).to_numpy())


def _offset_minutes(offsets: pd.Series) -> pd.Series:
    """'-04:00' -> -240, 'Z' -> 0 (vectorised over the few distinct values)."""
    mapping = {}
    for text in offsets.unique():
        if text == "Z":
            mapping[text] = 0
            continue
        digits = text[1:].replace(":", "")
        minutes = int(digits[:2]) * 60 + int(digits[2:])
        mapping[text] = -minutes if text.startswith("-") else minutes
    return offsets.map(mapping).astype("int64")


def format_timestamps(utc: pd.DatetimeIndex, offsets_min: np.ndarray | None) -> np.ndarray:
    """ISO strings of `utc` shown in the given offsets ('2020-06-01T00:15:00-04:00'), naive when None."""
    if offsets_min is None:
        return np.asarray(utc.tz_convert(None).strftime("%Y-%m-%dT%H:%M:%S"), dtype=object)
    offsets = np.asarray(offsets_min, dtype="int64")
    local = utc.tz_convert(None) + pd.to_timedelta(offsets, unit="m")
    body = np.asarray(local.strftime("%Y-%m-%dT%H:%M:%S"), dtype=object)
    suffix = {int(o): _offset_text(int(o)) for o in np.unique(offsets)}
    return body + pd.Series(offsets).map(suffix).to_numpy(dtype=object)


def _offset_text(minutes: int) -> str:
    sign = "-" if minutes < 0 else "+"
    hours, mins = divmod(abs(minutes), 60)
    return f"{sign}{hours:02d}:{mins:02d}"
