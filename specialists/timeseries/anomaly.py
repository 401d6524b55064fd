"""Anomaly periods from per-point detector output (pure).

`tsfm.run_integrated_tsad` labels every point; people think in periods ("Power Input was anomalous
from 3 to 5 May, peaking at ..."). Contiguous flagged points, allowing short gaps, become one period.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

MAX_PERIODS_REPORTED = 5


def flagged_runs(flags: np.ndarray, *, max_gap: int = 1) -> list[tuple[int, int]]:
    """Index ranges [first, last] of runs of True, merging runs separated by <= `max_gap` False values."""
    positions = np.flatnonzero(flags)
    if positions.size == 0:
        return []
    runs: list[tuple[int, int]] = []
    first = last = int(positions[0])
    for position in positions[1:]:
        if position - last - 1 <= max_gap:
            last = int(position)
        else:
            runs.append((first, last))
            first = last = int(position)
    runs.append((first, last))
    return runs


@dataclass
class AnomalyPeriod:
    """One contiguous anomalous period of one signal."""

    start: str
    end: str
    points: int
    peak_score: float
    peak_value: float
    direction: str  # above | below | mixed (against the detector's bounds)


@dataclass
class SensorAnomalies:
    """Anomaly summary of one signal."""

    sensor: str
    records: int
    anomalies: int
    rate: float
    periods_total: int
    periods: list[AnomalyPeriod] = field(default_factory=list)  # the strongest few, by peak score

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly view."""
        return {
            "sensor": self.sensor,
            "records": self.records,
            "anomalies": self.anomalies,
            "rate": round(self.rate, 4),
            "periods_total": self.periods_total,
            "periods": [vars(p) for p in self.periods],
        }


def _direction(chunk: pd.DataFrame) -> str:
    above = bool((chunk["value"] > chunk["upper_bound"]).any()) if "upper_bound" in chunk else False
    below = bool((chunk["value"] < chunk["lower_bound"]).any()) if "lower_bound" in chunk else False
    return "mixed" if above and below else "above" if above else "below" if below else "mixed"


def _period(chunk: pd.DataFrame) -> AnomalyPeriod:
    scores = (
        chunk["anomaly_score"].astype(float) if "anomaly_score" in chunk else pd.Series([1.0] * len(chunk))
    )
    peak = int(np.argmax(scores.to_numpy()))
    return AnomalyPeriod(
        start=str(chunk["timestamp"].iloc[0]),
        end=str(chunk["timestamp"].iloc[-1]),
        points=len(chunk),
        peak_score=round(float(scores.iloc[peak]), 4),
        peak_value=round(float(chunk["value"].iloc[peak]), 4),
        direction=_direction(chunk),
    )


def _labels(frame: pd.DataFrame) -> np.ndarray:
    raw = frame["anomaly_label"]
    if raw.dtype == bool:
        return raw.to_numpy()
    return raw.astype(str).str.lower().isin({"true", "1", "1.0"}).to_numpy()


def summarise_anomalies(
    results: pd.DataFrame, *, max_gap: int = 1, max_periods: int = MAX_PERIODS_REPORTED
) -> list[SensorAnomalies]:
    """Per-KPI anomaly counts, rates and periods from a TSAD results frame.

    Expected columns: timestamp, value, anomaly_label, KPI (and optionally anomaly_score, upper_bound,
    lower_bound). Only the detector's test split counts when a split column exists: calibration
    points are by construction not scored against a fitted threshold.
    """
    frame = results
    if "split" in frame.columns and (frame["split"] == "test").any():
        frame = frame[frame["split"] == "test"]
    out: list[SensorAnomalies] = []
    groups = frame.groupby("KPI", sort=True) if "KPI" in frame.columns else [("value", frame)]
    for kpi, group in groups:
        group = group.sort_values("timestamp").reset_index(drop=True)
        labels = _labels(group)
        runs = flagged_runs(labels, max_gap=max_gap)
        periods = [_period(group.iloc[a : b + 1][labels[a : b + 1]]) for a, b in runs]
        periods.sort(key=lambda p: (-p.peak_score, -p.points))
        count = int(labels.sum())
        out.append(
            SensorAnomalies(
                sensor=str(kpi),
                records=len(group),
                anomalies=count,
                rate=count / len(group) if len(group) else 0.0,
                periods_total=len(runs),
                periods=periods[:max_periods],
            )
        )
    return out
