"""Conditional anomaly detection of one sensor: residual from its driver model, conformal point flags on
that residual, and the sustained-shift (episode) view. Pure: a clean frame in, arrays and summaries out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from timeseries.conditional import ConditionalModel, RunningRule, fit_conditional, running_mask, running_rule
from timeseries.conformal import ConformalDetector, Detection, fit_and_detect
from timeseries.errors import TsfmError
from timeseries.sustained import SustainedShift, daily_residuals, find_sustained_shifts

HOLDOUT_SHARE = 0.3  # of the running calibration rows, to measure the model's out-of-sample daily error


@dataclass
class ConditionalDetection:
    """Results on the scored (running) rows of one target."""

    rows: np.ndarray  # positions in the input frame that were scored
    actual: np.ndarray
    expected: np.ndarray
    detection: Detection
    detector: ConformalDetector
    model: ConditionalModel
    rule: RunningRule
    shifts: list[SustainedShift]
    episode_view_note: str | None
    excluded_off_rows: int
    outside_calibration_range_rows: int

    def summary(self) -> dict[str, Any]:
        """The per-target block of the tool output."""
        return {**self.model.summary(), "running_rule": self.rule.describe(),
                "scored_rows": len(self.rows), "excluded_off_rows": self.excluded_off_rows,
                "outside_calibration_range_rows": self.outside_calibration_range_rows,
                "sustained_view": self.episode_view_note or "daily mean residual, two-sided CUSUM against the "
                                                            "calibration days"}


def calibration_rows(total: int, n_calibration: float) -> int:
    """Rows of the window (in time order) that form the calibration part: a fraction (< 1) or a count."""
    if n_calibration <= 0:
        raise TsfmError(f"n_calibration must be > 0 (a fraction < 1 or a count), got {n_calibration}.")
    cut = int(np.ceil(n_calibration * total)) if n_calibration < 1 else int(n_calibration)
    if cut >= total:
        raise TsfmError(f"n_calibration ({cut} rows) leaves none of the {total} rows to test.")
    return cut


def detect_conditional(
    frame: pd.DataFrame, target: str, drivers: list[str], *, n_calibration: float, false_alarm: float,
    ad_model_type: str,
) -> ConditionalDetection:
    """Fit target ~ drivers on the running calibration rows, then flag points and sustained shifts.

    `frame` holds `ts` (aware UTC), the target and driver columns, optionally `segment_id`, in time order.
    """
    cut = calibration_rows(len(frame), n_calibration)
    in_calibration = np.arange(len(frame)) < cut
    rule = running_rule(frame, [target, *drivers], in_calibration)
    segments = frame["segment_id"].to_numpy() if "segment_id" in frame else None
    running = running_mask(frame, rule, segments)
    model = fit_conditional(frame.loc[running & in_calibration], target, drivers)
    in_domain = model.in_domain(frame)
    rows = np.flatnonzero(running & in_domain)
    scored = frame.iloc[rows]
    actual, expected = scored[target].to_numpy(dtype=float), model.predict(scored)
    calibration_count = int(in_calibration[rows].sum())
    try:
        detector, detection = fit_and_detect(actual, expected, false_alarm=false_alarm,
                                             n_calibration=calibration_count, ad_model_type=ad_model_type)
    except TsfmError as exc:
        raise TsfmError(f"{exc} (only running rows calibrate: {calibration_count} of the first {cut} rows ran)") \
            from exc
    times = pd.DatetimeIndex(scored["ts"])
    daily = daily_residuals(times, actual - expected, expected, in_calibration[rows])
    floor = held_out_daily_spread(frame.loc[running & in_calibration], target, drivers)
    shifts, note = find_sustained_shifts(target, daily, spread_floor=floor)
    return ConditionalDetection(rows, actual, expected, detection, detector, model, rule, shifts, note,
                                int((~running).sum()), int((running & ~in_domain).sum()))


def held_out_daily_spread(calibration: pd.DataFrame, target: str, drivers: list[str]) -> float:
    """RMS daily mean residual on the last HOLDOUT_SHARE of the calibration rows of a model fitted on the rest.

    In-sample residuals of the final model understate its error on days it was not fitted to; a fault has
    to stand out from this honest error, not from the optimistic one. 0 when there is too little data.
    """
    cut = int(len(calibration) * (1 - HOLDOUT_SHARE))
    try:
        model = fit_conditional(calibration.iloc[:cut], target, drivers)
    except TsfmError:
        return 0.0
    held = calibration.iloc[cut:]
    held = held.loc[model.in_domain(held)]
    if held.empty:
        return 0.0
    residual = held[target].to_numpy(dtype=float) - model.predict(held)
    days = daily_residuals(pd.DatetimeIndex(held["ts"]), residual, residual, np.ones(len(held), dtype=bool))
    return float(np.sqrt(np.mean(days.residual ** 2))) if len(days.residual) >= 2 else 0.0
