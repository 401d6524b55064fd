"""Episode-level view: a sustained shift of the residual, found by a CUSUM on daily mean residuals.

Point flags answer "is this reading unusual?"; a fouling condenser never makes one reading unusual, it
makes every day a little worse. Residuals of neighbouring samples are strongly correlated (weather, load
pattern), so a CUSUM on the raw samples would alarm on any warm afternoon. Daily means of the running
samples are far closer to independent; they are standardised with the calibration days' mean and spread,
and a two-sided CUSUM (reference k, decision interval h, in standard deviations) finds a persistent shift.
The change start is the day the alarming CUSUM last left zero (the usual CUSUM change-point estimate);
the alarm day is the first day a person is told.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

CUSUM_K = 0.5  # tuned for a shift of one daily standard deviation
CUSUM_H = 6.0  # decision interval: about 1,000 fault-free days between false alarms on independent days
MIN_DAY_SAMPLES = 8  # two running hours make a day's mean
MIN_CALIBRATION_DAYS = 5


@dataclass(frozen=True)
class SustainedShift:
    """One sustained departure of the relation from its calibration baseline."""

    kpi: str
    direction: str
    change_start: pd.Timestamp
    flagged_from: pd.Timestamp
    last_day: pd.Timestamp
    days: int
    mean_shift: float
    relative_shift_pct: float | None

    def to_dict(self) -> dict[str, object]:
        """JSON-friendly, with the sentence a person reads."""
        relative = (f" ({self.relative_shift_pct:+.1f}% of the expected value)"
                    if self.relative_shift_pct is not None else "")
        message = (f"From {self.change_start.date()} {self.kpi} is {abs(self.mean_shift):.3g} {self.direction} "
                   f"its calibration relation{relative}; sustained enough to flag on {self.flagged_from.date()}.")
        return {"KPI": self.kpi, "direction": self.direction, "change_start": str(self.change_start.date()),
                "flagged_from": str(self.flagged_from.date()), "last_day": str(self.last_day.date()),
                "days": self.days, "mean_shift": round(self.mean_shift, 6),
                "relative_shift_pct": None if self.relative_shift_pct is None else round(self.relative_shift_pct, 2),
                "message": message}


@dataclass(frozen=True)
class DailyResiduals:
    """Per-day mean residual and mean expected value (running samples), and which days calibrate."""

    days: pd.DatetimeIndex
    residual: np.ndarray
    expected: np.ndarray
    calibration: np.ndarray


def daily_residuals(times: pd.DatetimeIndex, residual: np.ndarray, expected: np.ndarray,
                    calibration: np.ndarray) -> DailyResiduals:
    """Group running samples by day; a day calibrates when all its samples are calibration samples."""
    frame = pd.DataFrame({"day": times.floor("D"), "r": residual, "e": expected, "c": calibration})
    grouped = frame.groupby("day", sort=True).agg(r=("r", "mean"), e=("e", "mean"), c=("c", "all"), n=("r", "size"))
    grouped = grouped[grouped["n"] >= MIN_DAY_SAMPLES]
    return DailyResiduals(pd.DatetimeIndex(grouped.index), grouped["r"].to_numpy(), grouped["e"].to_numpy(),
                          grouped["c"].to_numpy(dtype=bool))


def find_sustained_shifts(kpi: str, daily: DailyResiduals, *, spread_floor: float = 0.0, k: float = CUSUM_K,
                          h: float = CUSUM_H) -> tuple[list[SustainedShift], str | None]:
    """Sustained shifts after the calibration days, or (no shifts, the reason the view is unavailable).

    `spread_floor`: the smallest daily standard deviation assumed (e.g. from held-out calibration days,
    which see the model's error on conditions it was not fitted to, unlike the in-sample residuals).
    """
    baseline = daily.residual[daily.calibration]
    if len(baseline) < MIN_CALIBRATION_DAYS:
        return [], (f"only {len(baseline)} calibration days with >= {MIN_DAY_SAMPLES} running samples "
                    f"({MIN_CALIBRATION_DAYS} needed): use a longer window or a larger n_calibration")
    centre, spread = float(baseline.mean()), float(baseline.std(ddof=1))
    # A perfectly fitted calibration period would make any wiggle infinitely significant.
    spread = max(spread, spread_floor, 1e-3 * float(np.mean(np.abs(daily.expected[daily.calibration]))), 1e-9)
    test = ~daily.calibration
    z = (daily.residual[test] - centre) / spread
    days, shifts = daily.days[test], []
    for sign, direction in ((1.0, "above"), (-1.0, "below")):
        for start, alarm, stop in _cusum_runs(sign * z, k, h):
            span = slice(start, stop + 1)
            shift = float(np.mean(daily.residual[test][span]) - centre)
            expected = float(np.mean(daily.expected[test][span]))
            relative = 100.0 * shift / abs(expected) if abs(expected) > 1e-9 else None
            shifts.append(SustainedShift(kpi, direction, days[start], days[alarm], days[stop],
                                         stop - start + 1, shift, relative))
    shifts.sort(key=lambda s: s.flagged_from)
    return shifts, None


def _cusum_runs(z: np.ndarray, k: float, h: float) -> list[tuple[int, int, int]]:
    """(change start, alarm, last day) index triples of one-sided CUSUM alarms on `z`.

    After an alarm the run continues while the CUSUM stays positive; it then restarts from zero.
    """
    runs: list[tuple[int, int, int]] = []
    total, start, alarm = 0.0, 0, -1
    for i, value in enumerate(z):
        if total == 0.0:
            start = i
        total = max(0.0, total + value - k)
        if alarm < 0 and total > h:
            alarm = i
        if total == 0.0 and alarm >= 0:
            runs.append((start, alarm, i - 1))
            alarm = -1
    if alarm >= 0:
        runs.append((start, alarm, len(z) - 1))
    return runs
