"""The expected value of a sensor given its drivers, learnt on a fault-free calibration period.

Slow faults (fouling, refrigerant loss, compressor wear) move a sensor only a few percent over weeks; a
forecaster that sees the last day of the same sensor follows that drift. An engineer instead compares the
sensor with what it should read at the same load and conditions: power at equal % loaded and condenser
water temperature, refrigerant temperature at equal supply temperature and load. This module fits that
relation (least squares on the standardised drivers, squares of the load drivers and pairwise products) on the running
samples of the calibration period, so the residual measures a shift of the relationship itself.

A chiller is often off; off samples follow the plant-room temperature instead of the relation, so they
are excluded from fitting and scoring (`running_mask`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
import pandas as pd

from timeseries.errors import TsfmError

# Columns whose value near zero means "the machine is not running" (matched on the name, case-insensitive).
LOAD_KEYWORDS = ("% loaded", "tonnage", "power input", "run status")
OFF_FRACTION = 0.05  # a load below 5% of its high (95th percentile) calibration level counts as off
WARMUP_SAMPLES = 2  # readings right after a start-up are still settling (pull-down), not the steady relation
RIDGE = 1e-6  # keeps the normal equations solvable when two drivers are collinear (tonnage vs % loaded)
MIN_FIT_ROWS = 30
DOMAIN_MARGIN = 0.25  # drivers may leave their calibration range by 25% of its width before rows go unscored


@dataclass(frozen=True)
class RunningRule:
    """How off periods were recognised: which load columns and their thresholds."""

    load_columns: list[str]
    thresholds: dict[str, float]
    warmup_samples: int = WARMUP_SAMPLES

    def describe(self) -> str:
        """One line for the tool output."""
        if not self.load_columns:
            return "no load column among the target and conditional columns: every row is scored"
        parts = ", ".join(f"{c} > {self.thresholds[c]:.3g}" for c in self.load_columns)
        return (f"running when {parts}; the first {self.warmup_samples} samples after each start-up are "
                "skipped; off rows are neither fitted nor scored")


@dataclass
class ConditionalModel:
    """Least-squares model of the target from its drivers (standardised with calibration statistics)."""

    target: str
    drivers: list[str]
    centre: np.ndarray
    scale: np.ndarray
    coefficients: np.ndarray
    r_squared: float
    residual_std: float
    calibration_rows: int
    low: np.ndarray
    high: np.ndarray
    notes: list[str] = field(default_factory=list)

    def predict(self, frame: pd.DataFrame) -> np.ndarray:
        """Expected target for each row of `frame` (which holds the driver columns)."""
        return _design(_standardise(frame, self.drivers, self.centre, self.scale), self.drivers) @ self.coefficients

    def in_domain(self, frame: pd.DataFrame) -> np.ndarray:
        """Rows whose drivers lie within the calibration range (plus a margin).

        Outside it the fitted curve extrapolates (a hotter month than any calibration day, a setpoint
        reset never seen), and its error would read as a fault; such rows are not scored.
        """
        values = frame[self.drivers].to_numpy(dtype=float)
        return np.all((values >= self.low) & (values <= self.high), axis=1)

    def summary(self) -> dict[str, object]:
        """JSON-friendly description for the tool output."""
        return {"conditional_columns": self.drivers, "calibration_rows": self.calibration_rows,
                "fit_r2": round(self.r_squared, 4), "residual_std": round(self.residual_std, 6),
                "features": "drivers, squares of the load drivers, pairwise products (standardised), least squares",
                "notes": self.notes}


def is_load_column(name: str) -> bool:
    """True for columns whose value near zero means the chiller is off."""
    lowered = name.lower()
    return any(keyword in lowered for keyword in LOAD_KEYWORDS)


def running_rule(frame: pd.DataFrame, columns: list[str], calibration: np.ndarray) -> RunningRule:
    """Thresholds for the load columns among `columns`, from their calibration levels."""
    loads = [c for c in dict.fromkeys(columns) if is_load_column(c) and c in frame]
    thresholds = {}
    for column in loads:
        values = frame.loc[calibration, column].to_numpy(dtype=float)
        high = float(np.nanpercentile(values, 95)) if len(values) else 0.0
        thresholds[column] = max(OFF_FRACTION * high, 1e-9)
    return RunningRule(loads, thresholds)


def running_mask(frame: pd.DataFrame, rule: RunningRule, segment_ids: np.ndarray | None = None) -> np.ndarray:
    """Rows where every load column is above its threshold and the machine has run for the warm-up."""
    running = np.ones(len(frame), dtype=bool)
    for column in rule.load_columns:
        running &= frame[column].to_numpy(dtype=float) > rule.thresholds[column]
    if not rule.load_columns:
        return running
    segments = np.zeros(len(frame)) if segment_ids is None else np.asarray(segment_ids)
    # A start is a running row whose predecessor is off or in another segment (a gap).
    start = running & ~np.r_[False, running[:-1] & (segments[1:] == segments[:-1])]
    run_id = np.cumsum(start)
    position = np.arange(len(frame)) - np.maximum.accumulate(np.where(start, np.arange(len(frame)), 0))
    settled = position >= rule.warmup_samples
    return running & settled & (run_id > 0)


def fit_conditional(frame: pd.DataFrame, target: str, drivers: list[str]) -> ConditionalModel:
    """Fit the target on its drivers over `frame` (running calibration rows only)."""
    if len(frame) < MIN_FIT_ROWS:
        raise TsfmError(
            f"Only {len(frame)} running calibration rows to learn '{target}' from {drivers} (at least "
            f"{MIN_FIT_ROWS} needed): use a longer window or a larger n_calibration."
        )
    values = frame[drivers].to_numpy(dtype=float)
    centre, scale = values.mean(axis=0), values.std(axis=0)
    notes = [f"'{d}' is constant in the calibration period and adds nothing" for d, s in zip(drivers, scale,
                                                                                           strict=True) if s == 0]
    scale = np.where(scale > 0, scale, 1.0)
    margin = DOMAIN_MARGIN * (values.max(axis=0) - values.min(axis=0))
    low, high = values.min(axis=0) - margin, values.max(axis=0) + margin
    design = _design(_standardise(frame, drivers, centre, scale), drivers)
    y = frame[target].to_numpy(dtype=float)
    gram = design.T @ design + RIDGE * len(y) * np.eye(design.shape[1])
    coefficients = np.linalg.solve(gram, design.T @ y)
    residual = y - design @ coefficients
    total = float(np.sum((y - y.mean()) ** 2))
    r_squared = 1.0 - float(np.sum(residual ** 2)) / total if total > 0 else 1.0
    return ConditionalModel(target, list(drivers), centre, scale, coefficients, r_squared,
                            float(residual.std()), len(y), low, high, notes)


def _standardise(frame: pd.DataFrame, drivers: list[str], centre: np.ndarray, scale: np.ndarray) -> np.ndarray:
    return (frame[drivers].to_numpy(dtype=float) - centre) / scale


def _design(x: np.ndarray, drivers: list[str]) -> np.ndarray:
    """[1, x_i, load_i^2, x_i x_j]: part-load curves are curved; temperatures act (near) linearly, and a
    straight line extrapolates sanely to a warmer day than any calibration day where a parabola would not."""
    squares = [x[:, i] ** 2 for i, name in enumerate(drivers) if is_load_column(name)]
    columns = [np.ones(len(x)), *x.T, *squares]
    columns += [x[:, i] * x[:, j] for i, j in combinations(range(x.shape[1]), 2)]
    return np.column_stack(columns)
