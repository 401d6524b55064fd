"""Per-sensor health and trend statistics (pure): slope, drift, variance change, gaps, stuck values.

Drift is measured robustly: the median of the last part of the window against the median of a
baseline part, in units of the baseline's robust spread (MAD), so a few spikes do not fake a drift
and a slow creep of a fraction of a degree still shows when the sensor is otherwise quiet.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from specialists.common.frames import (
    CONSTANT_BY_DESIGN,
    LOAD,
    running_mask,
    sample_minutes,
    seconds_since_start,
)

MAD_TO_SIGMA = 1.4826  # MAD of a normal distribution times this is its standard deviation
DRIFT_Z = 3.0  # robust z of the offset change that counts as drift
VARIANCE_RATIO = 3.0  # std ratio (either way) that counts as a variance change (load swings alone reach ~2)
MISSING_PCT = 5.0  # missing-data percentage worth reporting
STUCK_HOURS = 6.0  # identical readings for this long while running: stuck sensor


@dataclass
class SensorTrend:
    """What one sensor did over the window, with the flags a person cares about."""

    sensor: str
    samples: int
    missing_pct: float
    mean: float | None
    slope_per_day: float | None
    drift: float | None  # recent median - baseline median, sensor units
    drift_z: float | None  # drift / robust baseline sigma
    variance_ratio: float | None  # recent std / baseline std
    longest_flat_hours: float
    flags: list[str] = field(default_factory=list)
    first_level: float | None = None  # median of the first quarter's (running) samples, as read
    last_level: float | None = None  # median of the last quarter's

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly view with rounded numbers."""
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in asdict(self).items()}


def slope_per_day(series: pd.Series) -> float | None:
    """Least-squares slope of the non-null values against time, in units per day."""
    clean = series.dropna()
    if len(clean) < 3:
        return None
    days = seconds_since_start(pd.DatetimeIndex(clean.index)) / 86_400.0
    if np.ptp(days) == 0:
        return None
    return float(np.polyfit(days, clean.to_numpy(dtype=float), 1)[0])


def robust_sigma(values: pd.Series, floor: float = 1e-6) -> float:
    """Standard deviation estimated from the MAD, never below `floor`."""
    clean = values.dropna().to_numpy(dtype=float)
    if clean.size == 0:
        return floor
    mad = float(np.median(np.abs(clean - np.median(clean))))
    return max(MAD_TO_SIGMA * mad, floor)


def longest_flat_run_hours(series: pd.Series, minutes_per_sample: float, tolerance: float = 1e-9) -> float:
    """Longest stretch of consecutive identical non-null readings, in hours."""
    values = series.dropna().to_numpy(dtype=float)
    if values.size < 2:
        return 0.0
    same = np.abs(np.diff(values)) <= tolerance
    longest = current = 0
    for flag in same:
        current = current + 1 if flag else 0
        longest = max(longest, current)
    return longest * minutes_per_sample / 60.0


def missing_percentage(
    series: pd.Series, start: pd.Timestamp, end: pd.Timestamp, minutes_per_sample: float
) -> float:
    """Share of the expected grid samples in [start, end) with no reading, in percent."""
    expected = max(round((end - start).total_seconds() / 60.0 / minutes_per_sample), 1)
    present = int(series.notna().sum())
    return float(max(0.0, 100.0 * (expected - present) / expected))


def _split(series: pd.Series, baseline_fraction: float) -> tuple[pd.Series, pd.Series]:
    clean = series.dropna()
    cut = max(int(len(clean) * baseline_fraction), 1)
    return clean.iloc[:cut], clean.iloc[-cut:]


def _flags(trend: SensorTrend) -> list[str]:
    flags: list[str] = []
    if trend.drift_z is not None and abs(trend.drift_z) >= DRIFT_Z:
        flags.append("drift_up" if (trend.drift or 0) > 0 else "drift_down")
    if trend.variance_ratio is not None and (
        trend.variance_ratio >= VARIANCE_RATIO or trend.variance_ratio <= 1 / VARIANCE_RATIO
    ):
        flags.append("variance_change")
    if trend.missing_pct >= MISSING_PCT:
        flags.append("missing_data")
    if trend.longest_flat_hours >= STUCK_HOURS and trend.sensor not in CONSTANT_BY_DESIGN:
        flags.append("stuck")
    return flags


def sensor_trend(
    series: pd.Series,
    *,
    window_start: pd.Timestamp,
    window_end: pd.Timestamp,
    minutes_per_sample: float,
    baseline_fraction: float = 0.25,
    drift_basis: pd.Series | None = None,
) -> SensorTrend:
    """Trend, drift, variance change, gaps and flat runs of one sensor over [window_start, window_end).

    `drift_basis` (default: the series) is what drift and variance are judged on, e.g. the series
    with its load dependence removed, so daily load swings do not hide a slow offset.
    """
    clean = series.dropna()
    trend = SensorTrend(
        sensor=str(series.name),
        samples=int(clean.size),
        missing_pct=missing_percentage(series, window_start, window_end, minutes_per_sample),
        mean=float(clean.mean()) if clean.size else None,
        slope_per_day=slope_per_day(series),
        drift=None,
        drift_z=None,
        variance_ratio=None,
        longest_flat_hours=longest_flat_run_hours(series, minutes_per_sample),
    )
    basis = (drift_basis if drift_basis is not None else series).dropna()
    if basis.size >= 8:
        baseline, recent = _split(basis, baseline_fraction)
        trend.drift = float(recent.median() - baseline.median())
        level = float(clean.median()) if clean.size else 0.0
        scale = max(robust_sigma(baseline), 1e-3 * max(abs(level), 1.0))
        trend.drift_z = trend.drift / scale
        base_std = float(baseline.std(ddof=1))
        trend.variance_ratio = float(recent.std(ddof=1)) / base_std if base_std > 0 else None
        first, last = _split(clean, baseline_fraction)
        trend.first_level, trend.last_level = float(first.median()), float(last.median())
    trend.flags = _flags(trend)
    return trend


def load_adjusted(series: pd.Series, load: pd.Series, baseline_fraction: float) -> pd.Series:
    """The series minus its linear dependence on load, fitted on the baseline part (first fraction)."""
    both = pd.concat([series, load], axis=1, keys=["y", "load"]).dropna()
    cut = max(int(len(both) * baseline_fraction), 3)
    head = both.iloc[:cut]
    if len(head) < 8 or np.ptp(head["load"].to_numpy(float)) < 5.0:
        return series
    slope, intercept = np.polyfit(head["load"].to_numpy(float), head["y"].to_numpy(float), 1)
    return (both["y"] - (intercept + slope * both["load"])).reindex(series.index)


_ENOUGH_RUNNING = 96  # a day of 15-minute samples


def trend_table(
    frame: pd.DataFrame,
    *,
    window_start: pd.Timestamp | None = None,
    window_end: pd.Timestamp | None = None,
    running_only: bool = True,
    baseline_fraction: float = 0.25,
) -> list[SensorTrend]:
    """`sensor_trend` for every column of a short-name frame.

    With `running_only`, level statistics use the samples where the chiller runs (off periods read
    near zero and would swamp any drift); drift is judged at equal load when the load is known;
    missing data is always judged on the full grid.
    """
    if frame.empty:
        return []
    start = window_start if window_start is not None else frame.index[0]
    end = (
        window_end
        if window_end is not None
        else frame.index[-1] + pd.Timedelta(minutes=sample_minutes(frame))
    )
    minutes = sample_minutes(frame)
    running = running_mask(frame)
    use = (
        running
        # (a chiller that ran a few days of a long window still has those days to judge: its idle samples, near
        # zero, would read as the level otherwise)
        if running_only and running.sum() >= min(max(0.2 * len(frame), 8), _ENOUGH_RUNNING)
        else pd.Series(True, index=frame.index)
    )
    out: list[SensorTrend] = []
    for column in frame.columns:
        series = frame[column][use]
        basis = (
            load_adjusted(series, frame[LOAD][use], baseline_fraction)
            if LOAD in frame and column != LOAD
            else None
        )
        trend = sensor_trend(
            series,
            window_start=start,
            window_end=end,
            minutes_per_sample=minutes,
            baseline_fraction=baseline_fraction,
            drift_basis=basis,
        )
        trend.missing_pct = missing_percentage(frame[column], start, end, minutes)
        if use is not running:
            # too few running samples to judge levels on them alone, but a reading that holds still while the
            # chiller is off is not stuck: only flat runs while it runs count
            trend.longest_flat_hours = longest_flat_run_hours(frame[column][running], minutes)
        trend.flags = _flags(trend)
        out.append(trend)
    return out
