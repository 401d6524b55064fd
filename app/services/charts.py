"""Charts of artifact data for the web page: telemetry windows, anomaly results, forecasts (PNG)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd

MAX_PANELS = 6


def _figure(panels: int) -> tuple[plt.Figure, list[plt.Axes]]:
    fig, axes = plt.subplots(panels, 1, figsize=(10, 1.9 * panels + 0.6), sharex=True, squeeze=False)
    return fig, [a for row in axes for a in row]


def _png(fig: plt.Figure) -> bytes:
    buffer = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buffer, format="png", dpi=90)
    plt.close(fig)
    return buffer.getvalue()


def anomaly_chart(frame: pd.DataFrame, title: str) -> bytes:
    """Value with its conformal band and flagged points, one panel per KPI."""
    frame = frame.assign(timestamp=pd.to_datetime(frame["timestamp"], utc=True, format="ISO8601"))
    kpis = list(dict.fromkeys(frame["KPI"]))[:MAX_PANELS]
    fig, axes = _figure(len(kpis))
    for ax, kpi in zip(axes, kpis, strict=False):
        part = frame[frame["KPI"] == kpi]
        ax.fill_between(part["timestamp"], part["lower_bound"], part["upper_bound"], color="#cfe3f5", label="band")
        ax.plot(part["timestamp"], part["value"], lw=0.8, color="#1f4e79", label="value")
        flagged = part[part["anomaly_label"].astype(str).str.lower() == "true"]
        ax.scatter(flagged["timestamp"], flagged["value"], s=10, color="#c0392b", label="anomaly", zorder=3)
        ax.set_title(str(kpi), fontsize=9, loc="left")
    axes[0].legend(loc="upper right", fontsize=7)
    fig.suptitle(title, fontsize=10)
    return _png(fig)


def telemetry_chart(frame: pd.DataFrame, title: str) -> bytes:
    """One panel per numeric sensor column (first six)."""
    frame = frame.assign(timestamp=pd.to_datetime(frame["timestamp"], utc=True, format="ISO8601"))
    columns = [c for c in frame.columns if c not in ("timestamp", "asset_id")
               and pd.api.types.is_numeric_dtype(frame[c])][:MAX_PANELS]
    fig, axes = _figure(max(len(columns), 1))
    for ax, column in zip(axes, columns, strict=False):
        ax.plot(frame["timestamp"], frame[column], lw=0.7, color="#1f4e79")
        ax.set_title(column, fontsize=9, loc="left")
    fig.suptitle(title, fontsize=10)
    return _png(fig)


def forecast_chart(payload: dict[str, object], title: str) -> bytes:
    """The last forecast window of each target column."""
    targets = list(payload.get("target_columns") or [])[:MAX_PANELS]  # type: ignore[call-overload]
    predictions = payload.get("target_prediction") or []
    stamps = payload.get("timestamp") or []
    fig, axes = _figure(max(len(targets), 1))
    if predictions and stamps:
        last, times = predictions[-1], pd.to_datetime(stamps[-1], utc=True, format="ISO8601")  # type: ignore[index]
        for i, (ax, target) in enumerate(zip(axes, targets, strict=False)):
            ax.plot(times, [step[i] for step in last], color="#8e44ad", lw=1.0)
            ax.set_title(f"{target} (forecast)", fontsize=9, loc="left")
    fig.suptitle(title, fontsize=10)
    return _png(fig)


def chart_for_file(path: Path, title: str) -> bytes | None:
    """A PNG for a CSV/JSON data file an artifact refers to; None when the file has no chartable shape."""
    if path.suffix == ".json":
        payload = json.loads(path.read_text())
        return forecast_chart(payload, title) if isinstance(payload, dict) and "target_prediction" in payload else None
    if path.suffix != ".csv":
        return None
    frame = pd.read_csv(path)
    if "timestamp" not in frame.columns or frame.empty:
        return None
    if {"value", "upper_bound", "lower_bound", "anomaly_label", "KPI"} <= set(frame.columns):
        return anomaly_chart(frame, title)
    return telemetry_chart(frame, title)
