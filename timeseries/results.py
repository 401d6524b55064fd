"""Result files of the time-series tools: forecast JSON and anomaly CSV, written into an output dir."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from assetops.files import atomic_write_text
from timeseries.conformal import Detection

TSAD_COLUMNS = ["timestamp", "value", "upper_bound", "lower_bound", "anomaly_score", "anomaly_label", "split", "KPI"]
MAX_PERIODS = 10


def new_output_path(output_dir: Path, prefix: str, suffix: str) -> Path:
    """A fresh, collision-free file name in `output_dir` (created when missing)."""
    output_dir.mkdir(parents=True, exist_ok=True)
    return output_dir / f"{prefix}_{uuid.uuid4().hex}{suffix}"


def write_json(path: Path, payload: dict[str, Any]) -> None:
    """Compact JSON (forecast files hold many numbers; indentation would triple their size)."""
    atomic_write_text(path, json.dumps(payload, separators=(",", ":")))


def slug(text: str) -> str:
    """A file-system-safe name for a column ('Chiller 9 Supply Temperature' -> 'chiller_9_supply_temperature')."""
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "column"


def detection_frame(kpi: str, timestamps: np.ndarray, values: np.ndarray, detection: Detection) -> pd.DataFrame:
    """One KPI's rows in the contract's TSAD column order."""
    return pd.DataFrame({
        "timestamp": timestamps,
        "value": values,
        "upper_bound": detection.upper_bound,
        "lower_bound": detection.lower_bound,
        "anomaly_score": np.round(detection.anomaly_score, 6),
        "anomaly_label": detection.anomaly_label.astype(bool),
        "split": detection.split,
        "KPI": kpi,
    })[TSAD_COLUMNS]


def anomaly_periods(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """Runs of consecutive flagged rows per KPI, longest first (a caller's summary of the CSV)."""
    periods: list[dict[str, Any]] = []
    for kpi, rows in frame.groupby("KPI", sort=False):
        flags = rows["anomaly_label"].to_numpy(dtype=bool)
        if not flags.any():
            continue
        edges = np.diff(np.r_[0, flags.astype(np.int8), 0])
        starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)  # ends exclusive
        value, upper, lower = (rows[c].to_numpy(dtype=float) for c in ("value", "upper_bound", "lower_bound"))
        deviation = np.maximum(value - upper, lower - value)
        above = (value > upper).astype(np.int64)
        scores, stamps = rows["anomaly_score"].to_numpy(dtype=float), rows["timestamp"].to_numpy()
        lengths = ends - starts
        for i in np.argsort(-lengths, kind="stable")[:MAX_PERIODS]:
            a, b = starts[i], ends[i]
            periods.append({
                "KPI": kpi, "start": str(stamps[a]), "end": str(stamps[b - 1]), "points": int(b - a),
                "max_anomaly_score": float(scores[a:b].max()), "max_deviation": round(float(deviation[a:b].max()), 6),
                "direction": "above" if 2 * above[a:b].sum() >= b - a else "below",
            })
    periods.sort(key=lambda p: (-p["points"], -p["max_deviation"]))
    return periods[:MAX_PERIODS]


def tsad_summary(frame: pd.DataFrame, results_file: Path, message_head: str, columns_note: str = "") -> dict[str, Any]:
    """The contract's TSAD result plus per-KPI counts and the main anomaly periods."""
    total, anomalies = len(frame), int(frame["anomaly_label"].sum())
    per_kpi = {
        str(kpi): {"records": len(rows), "anomalies": int(rows["anomaly_label"].sum()),
                   "flagged_fraction": round(float(rows["anomaly_label"].mean()), 4)}
        for kpi, rows in frame.groupby("KPI", sort=False)
    }
    return {
        "status": "success", "results_file": str(results_file), "total_records": total,
        "anomaly_count": anomalies, "columns": TSAD_COLUMNS,
        "message": f"{message_head} {anomalies} anomalies in {total} records{columns_note}. "
                   f"Results saved to {results_file}.",
        "per_kpi": per_kpi, "anomaly_periods": anomaly_periods(frame),
    }
