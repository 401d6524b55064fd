"""Data-quality pipeline in front of every model: parse, cast, resolve the frequency, drop NaNs, segment.

The result keeps only continuous segments long enough for the model and a `dataquality_summary` that
explains what was removed and why, so a person can fix the data instead of guessing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from timeseries.errors import TsfmError
from timeseries.timestamps import ParsedTimestamps, format_timestamps, parse_timestamps

FREQUENCY_MINUTES: dict[str, float] = {
    "minutely": 1, "2_minutes": 2, "5_minutes": 5, "10_minutes": 10,
    "15_minutes": 15, "half_hourly": 30, "hourly": 60,
}
ESTIMATE_FREQUENCY = ("", "oov")
GAP_TOLERANCE = 0.2  # a step outside ±20% of the frequency starts a new segment


@dataclass(frozen=True)
class ColumnSpec:
    """Which columns of the dataset play which role."""

    timestamp_column: str
    target_columns: list[str]
    conditional_columns: list[str] = field(default_factory=list)
    id_columns: list[str] = field(default_factory=list)

    @property
    def value_columns(self) -> list[str]:
        """Targets then conditionals, without duplicates."""
        return list(dict.fromkeys([*self.target_columns, *self.conditional_columns]))


@dataclass
class QualityResult:
    """Clean, segmented data: `frame` has `ts` (UTC), `offset_min`, `segment_id` and the value columns."""

    frame: pd.DataFrame
    targets: list[str]
    conditionals: list[str]
    frequency: pd.Timedelta
    naive_timestamps: bool
    summary: dict[str, Any]
    id_columns: list[str] = field(default_factory=list)

    def segments(self) -> list[pd.DataFrame]:
        """The continuous segments in time order."""
        return [part for _, part in self.frame.groupby("segment_id", sort=False)]


def assess(
    raw: pd.DataFrame, spec: ColumnSpec, *, frequency_sampling: str | None, min_length: int
) -> QualityResult:
    """Run the whole pipeline; raises TsfmError when no segment of `min_length` rows survives."""
    _check_columns(raw, spec)
    parsed = parse_timestamps(raw[spec.timestamp_column], spec.timestamp_column)
    frame = _base_frame(raw, spec, parsed)
    nans_summary = _nans_summary(frame, spec.value_columns, len(raw))
    frequency, sampling_summary = _resolve_frequency(frame, spec.id_columns, frequency_sampling)
    sampling_summary["unparsed_timestamps"] = int(parsed.utc.isna().sum())
    frame, duplicates = _drop_duplicates(frame, spec.id_columns)
    sampling_summary["duplicate_timestamps_removed"] = duplicates
    frame, extras = _drop_off_grid_extras(frame, spec.id_columns, frequency)
    sampling_summary["off_grid_samples_removed"] = extras
    values, removed = drop_nans_greedy(frame[spec.value_columns])
    frame = frame.loc[values.index, ["ts", "offset_min", *spec.id_columns, *values.columns]]
    targets = [c for c in spec.target_columns if c in values.columns]
    if not targets:
        raise TsfmError(f"Every target column was removed for missing values ({removed}); check the data.")
    frame = _segment(frame, spec.id_columns, frequency)
    kept, segment_rows = _keep_long_segments(
        frame, min_length, nan_reference=_nan_reference(raw, spec, parsed), naive=parsed.offsets_min is None
    )
    summary = {
        "original_data": {"nans_summary": nans_summary, "sampling_summary": sampling_summary},
        "filtered_data_ts_segments": segment_rows,
        "removed_columns": removed,
        "frequency_sampling_min": frequency.total_seconds() / 60,
        "min_segment_length": min_length,
    }
    if kept.empty:
        raise TsfmError(
            "Data quality was poor; after filtering, no continuous segment satisfied the context length "
            f"requirement ({min_length} rows). Check Data Quality Summary: {_short_summary(segment_rows)}"
        )
    return QualityResult(
        kept.reset_index(drop=True), targets, [c for c in spec.conditional_columns if c in values.columns],
        frequency, parsed.offsets_min is None, summary, list(spec.id_columns),
    )


def _check_columns(raw: pd.DataFrame, spec: ColumnSpec) -> None:
    if not spec.target_columns:
        raise TsfmError("target_columns must not be empty")
    wanted = [spec.timestamp_column, *spec.value_columns, *spec.id_columns]
    missing = [c for c in dict.fromkeys(wanted) if c not in raw.columns]
    if missing:
        raise TsfmError(f"{missing} not in index: the dataset has columns {list(raw.columns)[:30]}")


def _base_frame(raw: pd.DataFrame, spec: ColumnSpec, parsed: ParsedTimestamps) -> pd.DataFrame:
    frame = pd.DataFrame({"ts": parsed.utc}, index=raw.index)
    frame["offset_min"] = parsed.offsets_min if parsed.offsets_min is not None else 0
    for column in spec.id_columns:
        frame[column] = raw[column].astype(str)
    for column in spec.value_columns:
        frame[column] = pd.to_numeric(raw[column], errors="coerce").astype("float64")
    return frame[frame["ts"].notna()].sort_values([*spec.id_columns, "ts"], kind="stable")


def _nan_reference(raw: pd.DataFrame, spec: ColumnSpec, parsed: ParsedTimestamps) -> pd.DataFrame:
    """Original rows sorted by time with a running count of rows missing a value (per-segment %nans)."""
    values = raw[spec.value_columns].apply(pd.to_numeric, errors="coerce")
    reference = pd.DataFrame({"ts": parsed.utc, "nan": values.isna().any(axis=1).to_numpy()})
    reference = reference[reference["ts"].notna()].sort_values("ts", kind="stable")
    reference["nan_before"] = reference["nan"].cumsum() - reference["nan"]
    return reference.reset_index(drop=True)


def _nans_summary(frame: pd.DataFrame, columns: list[str], total: int) -> dict[str, Any]:
    per_column = {
        c: {"nans": int(frame[c].isna().sum()), "percent": round(100 * frame[c].isna().mean(), 3) if total else 0.0}
        for c in columns
    }
    return {"total_rows": total, "columns": per_column}


def _resolve_frequency(
    frame: pd.DataFrame, id_columns: list[str], frequency_sampling: str | None
) -> tuple[pd.Timedelta, dict[str, Any]]:
    """A named frequency wins; '' / 'oov' / None estimate it as the median step."""
    steps = _steps(frame, id_columns)
    positive = steps[steps > pd.Timedelta(0)]
    sampling: dict[str, Any] = {
        "median_step_min": _minutes(positive.median()) if len(positive) else None,
        "min_step_min": _minutes(positive.min()) if len(positive) else None,
        "max_step_min": _minutes(positive.max()) if len(positive) else None,
    }
    name = (frequency_sampling or "").strip()
    if name in ESTIMATE_FREQUENCY:
        if not len(positive):
            raise TsfmError("Cannot estimate the sampling frequency: fewer than two distinct timestamps.")
        frequency = pd.Timedelta(positive.median())
    elif name in FREQUENCY_MINUTES:
        frequency = pd.Timedelta(minutes=FREQUENCY_MINUTES[name])
    else:
        raise TsfmError(
            f"frequency_sampling '{name}' is not supported; use one of "
            f"{', '.join(['oov', *FREQUENCY_MINUTES])} or '' to estimate it."
        )
    sampling["frequency_source"] = "estimated (median step)" if name in ESTIMATE_FREQUENCY else name
    sampling["irregular_steps"] = int((~_regular(positive, frequency)).sum())
    return frequency, sampling


def _steps(frame: pd.DataFrame, id_columns: list[str]) -> pd.Series:
    if id_columns:
        return frame.groupby(id_columns, sort=False)["ts"].diff().dropna()
    return frame["ts"].diff().dropna()


def _regular(steps: pd.Series, frequency: pd.Timedelta) -> pd.Series:
    return (steps >= frequency * (1 - GAP_TOLERANCE)) & (steps <= frequency * (1 + GAP_TOLERANCE))


def _minutes(value: pd.Timedelta) -> float:
    return round(value.total_seconds() / 60, 3)


def _drop_duplicates(frame: pd.DataFrame, id_columns: list[str]) -> tuple[pd.DataFrame, int]:
    deduplicated = frame.drop_duplicates([*id_columns, "ts"], keep="first")
    return deduplicated, len(frame) - len(deduplicated)


def _drop_off_grid_extras(frame: pd.DataFrame, id_columns: list[str],
                          frequency: pd.Timedelta) -> tuple[pd.DataFrame, int]:
    """Drop extra samples that arrive between grid points (a step shorter than the tolerance allows).

    Real BMS telemetry carries an off-grid sample now and then (02:00:03 after 02:00); left in, each
    one would cut a continuous series into two segments, and a week of data would have no stretch
    long enough to fine-tune on. The sample after the extra one then follows its grid neighbour.
    """
    before = len(frame)
    for _ in range(3):  # a rare burst of extras needs another pass once the first is gone
        steps = _steps(frame, id_columns).reindex(frame.index)
        extra = steps.notna() & (steps < frequency * (1 - GAP_TOLERANCE))
        if not extra.any():
            break
        frame = frame.loc[~extra]
    return frame, before - len(frame)


def drop_nans_greedy(values: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """Drop rows or columns until no NaN is left, each time removing what costs fewest observed cells.

    Ties go to rows. Rows of equal cost are dropped together (one cost level per step) so the loop
    runs once per level, not once per row.
    """
    removed: list[str] = []
    while True:
        missing = values.isna()
        if not missing.to_numpy().any():
            return values, removed
        row_cost = (~missing).sum(axis=1)[missing.any(axis=1)]
        col_cost = (~missing).sum(axis=0)[missing.any(axis=0)]
        cheapest_row = int(row_cost.min())
        if cheapest_row <= int(col_cost.min()):
            values = values.drop(index=row_cost.index[row_cost == cheapest_row])
        else:
            column = str(col_cost.idxmin())
            removed.append(column)
            values = values.drop(columns=[column])


def _segment(frame: pd.DataFrame, id_columns: list[str], frequency: pd.Timedelta) -> pd.DataFrame:
    """Number segments: a new one at every id change and at every step outside the tolerance."""
    steps = _steps(frame, id_columns).reindex(frame.index)
    new_segment = steps.isna() | ~_regular(steps.fillna(pd.Timedelta(0)), frequency)
    frame = frame.copy()
    frame["segment_id"] = new_segment.cumsum().astype("int64") - 1
    return frame


def _keep_long_segments(
    frame: pd.DataFrame, min_length: int, *, nan_reference: pd.DataFrame, naive: bool
) -> tuple[pd.DataFrame, list[dict[str, Any]]]:
    rows: list[dict[str, Any]] = []
    keep_ids: list[int] = []
    times = pd.DatetimeIndex(nan_reference["ts"])
    nan_flags, nan_before = nan_reference["nan"].to_numpy(), nan_reference["nan_before"].to_numpy()
    for segment_id, part in frame.groupby("segment_id", sort=False):
        first, last = part.iloc[0], part.iloc[-1]
        lo, hi = times.searchsorted(first["ts"], "left"), times.searchsorted(last["ts"], "right")
        nans_inside = (nan_before[hi - 1] + nan_flags[hi - 1] - nan_before[lo]) if hi > lo else 0
        shown = format_timestamps(
            pd.DatetimeIndex([first["ts"], last["ts"]]),
            None if naive else np.array([first["offset_min"], last["offset_min"]]),
        )
        long_enough = len(part) >= min_length
        rows.append({
            "segment_id": int(segment_id), "start": shown[0], "end": shown[1], "samples": len(part),
            "%nans": round(100 * float(nans_inside) / max(hi - lo, 1), 3), "kept": long_enough,
        })
        if long_enough:
            keep_ids.append(int(segment_id))
    return frame[frame["segment_id"].isin(keep_ids)], rows


def _short_summary(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "no rows with valid timestamps and values"
    longest = max(row["samples"] for row in rows)
    return f"{len(rows)} segment(s), the longest has {longest} rows"


def output_timestamps(result: QualityResult, utc: pd.DatetimeIndex, offsets_min: np.ndarray) -> np.ndarray:
    """Format instants the way the input was written (with its offsets, or naive)."""
    return format_timestamps(utc, None if result.naive_timestamps else offsets_min)
