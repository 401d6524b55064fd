"""Charts of artifact data for the web page: telemetry windows, anomaly results, forecasts (PNG).

Every panel names its sensor and its unit on the y axis; long windows are thinned to at most
MAX_POINTS per series before plotting (a multi-year window has ~200k samples, more points than a
chart has pixels, and plotting them all is what made a chart take seconds). Rendered PNGs are kept
by app/services/chart_cache.py, so a chart is drawn once.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import pandas as pd

from assetops.db.tables.telemetry import SENSOR_UNITS

MAX_PANELS = 6
MAX_POINTS = 2000


def unit_of(column: str) -> str:
    """The unit of a sensor column ("Chiller 6 Power Input" -> "kW"); "" when unknown."""
    name = column.removesuffix(" (forecast)")
    for sensor, unit in SENSOR_UNITS.items():
        if name == sensor or name.endswith(" " + sensor):
            return unit
    return ""


def thin(frame: pd.DataFrame, max_points: int = MAX_POINTS) -> pd.DataFrame:
    """Every n-th row so at most `max_points` remain (the shape of a long series, at chart resolution)."""
    step = max(1, -(-len(frame) // max_points))
    return frame.iloc[::step] if step > 1 else frame


def _figure(panels: int) -> tuple[plt.Figure, list[plt.Axes]]:
    fig, axes = plt.subplots(panels, 1, figsize=(10, 2.1 * panels + 0.8), sharex=True, squeeze=False)
    return fig, [a for row in axes for a in row]


def _label(ax: plt.Axes, name: str) -> None:
    unit = unit_of(name)
    ax.set_title(f"{name} ({unit})" if unit else name, fontsize=10, loc="left")
    ax.set_ylabel(unit or "value", fontsize=9)
    ax.grid(True, alpha=0.25)
    ax.tick_params(labelsize=8)


def _png(fig: plt.Figure, axes: list[plt.Axes]) -> bytes:
    axes[-1].set_xlabel("time (UTC)", fontsize=9)
    locator = mdates.AutoDateLocator()
    axes[-1].xaxis.set_major_locator(locator)
    axes[-1].xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator))
    buffer = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buffer, format="png", dpi=100)
    plt.close(fig)
    return buffer.getvalue()


def anomaly_chart(frame: pd.DataFrame, title: str) -> bytes:
    """Value with its conformal band and flagged points, one panel per KPI."""
    frame = frame.assign(timestamp=pd.to_datetime(frame["timestamp"], utc=True, format="ISO8601"))
    kpis = list(dict.fromkeys(frame["KPI"]))[:MAX_PANELS]
    fig, axes = _figure(len(kpis))
    for ax, kpi in zip(axes, kpis, strict=False):
        whole = frame[frame["KPI"] == kpi]
        part = thin(whole)
        ax.fill_between(part["timestamp"], part["lower_bound"], part["upper_bound"], color="#cfe3f5", label="expected band")
        ax.plot(part["timestamp"], part["value"], lw=0.8, color="#1f4e79", label="value")
        flagged = whole[whole["anomaly_label"].astype(str).str.lower() == "true"]
        ax.scatter(flagged["timestamp"], flagged["value"], s=10, color="#c0392b", label="anomaly", zorder=3)
        _label(ax, str(kpi))
    axes[0].legend(loc="upper right", fontsize=8)
    fig.suptitle(title, fontsize=11)
    return _png(fig, axes)


def telemetry_chart(frame: pd.DataFrame, title: str) -> bytes:
    """One panel per numeric sensor column (first six)."""
    frame = thin(frame.assign(timestamp=pd.to_datetime(frame["timestamp"], utc=True, format="ISO8601")))
    columns = [c for c in frame.columns if c not in ("timestamp", "asset_id")
               and pd.api.types.is_numeric_dtype(frame[c])][:MAX_PANELS]
    fig, axes = _figure(max(len(columns), 1))
    for ax, column in zip(axes, columns, strict=False):
        ax.plot(frame["timestamp"], frame[column], lw=0.7, color="#1f4e79")
        _label(ax, column)
    fig.suptitle(title, fontsize=11)
    return _png(fig, axes)


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
            _label(ax, f"{target} (forecast)")
    fig.suptitle(title, fontsize=11)
    return _png(fig, axes)


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
