"""Forecast planning, summaries and scoring (pure).

The TSFM models forecast a fixed number of steps natively (28 for ttm_96_28, 96 for ttm_512_96). A
request for "the next two weeks" at 15 minutes is 1344 steps: the tool rolls the model forward
autoregressively beyond its native horizon, and the plan says so (the error grows with lead time);
requests beyond MAX_STEPS are cut there and the note states the horizon actually covered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

# Model id -> (context length, horizon) of the contract's pretrained checkpoints.
MODEL_SHAPES: dict[str, tuple[int, int]] = {"ttm_96_28": (96, 28), "ttm_512_96": (512, 96)}
DEFAULT_MODEL = "ttm_96_28"
MAX_STEPS = 2016  # three weeks at 15 minutes: beyond this an autoregressive rollout is not worth reporting
_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*(step|minute|min|hour|h|day|d|week|w)s?\b", re.IGNORECASE)
_UNIT_MINUTES = {
    "minute": 1,
    "min": 1,
    "hour": 60,
    "h": 60,
    "day": 1440,
    "d": 1440,
    "week": 10080,
    "w": 10080,
}


@dataclass
class HorizonPlan:
    """Which model forecasts how far, and how that compares with what was asked."""

    model_checkpoint: str
    requested_steps: int
    forecast_steps: int
    minutes_per_step: float
    native_steps: int  # what the model forecasts in one pass
    autoregressive: bool  # forecast_steps > native_steps: rolled out beyond the native horizon
    truncated: bool  # the request exceeded MAX_STEPS
    note: str


def requested_steps(params: dict[str, Any], minutes_per_step: float) -> int | None:
    """Steps asked for in task params: `horizon_steps`, `horizon_hours`, `horizon_days` or a text
    `horizon` such as "two weeks"/"2 weeks"/"12 hours"; None when nothing was asked."""
    if params.get("horizon_steps"):
        return int(params["horizon_steps"])
    for key, minutes in (("horizon_hours", 60), ("horizon_days", 1440)):
        if params.get(key):
            return round(float(params[key]) * minutes / minutes_per_step)
    text = (
        str(params.get("horizon", ""))
        .lower()
        .replace("two", "2")
        .replace("one", "1")
        .replace("a week", "1 week")
    )
    match = _DURATION.search(text)
    if not match:
        return None
    amount, unit = float(match.group(1)), match.group(2).lower()
    if unit == "step":
        return int(amount)
    return round(amount * _UNIT_MINUTES[unit] / minutes_per_step)


def plan_horizon(
    requested: int | None, rows_available: int, minutes_per_step: float, checkpoint: str | None = None
) -> HorizonPlan:
    """Pick the checkpoint and horizon: the longest-horizon pretrained model the data has context for,
    unless a checkpoint is given. Beyond the native horizon the forecast is an autoregressive rollout
    (said in the note); beyond MAX_STEPS it is cut (also said)."""
    if checkpoint is None:
        fitting = [m for m, (ctx, _) in MODEL_SHAPES.items() if rows_available >= ctx]
        checkpoint = max(fitting, key=lambda m: MODEL_SHAPES[m][1]) if fitting else DEFAULT_MODEL
    native = MODEL_SHAPES.get(checkpoint, MODEL_SHAPES[DEFAULT_MODEL])[1]
    wanted = requested or native
    steps = min(wanted, MAX_STEPS)

    def span(n: int) -> str:
        hours = n * minutes_per_step / 60.0
        return f"{hours / 24:.1f} days" if hours >= 48 else f"{hours:.1f} h"

    note = f"Forecast covers the next {span(steps)} ({steps} steps) with {checkpoint}"
    if steps > native:
        note += (
            f"; the model forecasts {native} steps ({span(native)}) per pass, the rest is rolled out "
            "autoregressively, so the error grows with lead time"
        )
    if wanted > steps:
        note += f"; {wanted} steps ({span(wanted)}) were asked, capped at {MAX_STEPS}"
    return HorizonPlan(
        checkpoint, wanted, steps, minutes_per_step, native, steps > native, wanted > steps, note + "."
    )


def forecast_frames(payload: dict[str, Any]) -> list[pd.DataFrame]:
    """The forecast JSON (target_prediction windows x h x targets, timestamp windows x h) as one
    frame per window: index timestamp, one column per target."""
    predictions = np.asarray(payload.get("target_prediction", []), dtype=float)
    stamps = payload.get("timestamp", [])
    targets = list(payload.get("target_columns", []))
    frames: list[pd.DataFrame] = []
    for window, times in zip(predictions, stamps, strict=False):
        index = pd.to_datetime(pd.Series(times), format="ISO8601", utc=True)
        frames.append(pd.DataFrame(window[: len(index)], index=pd.DatetimeIndex(index), columns=targets))
    return frames


def summarise_forecast(window: pd.DataFrame, tz: Any = None, decimals: int = 2) -> dict[str, dict[str, Any]]:
    """Per target: start/end time (in `tz`, the site's zone, when given) and value, range, mean and
    direction of the forecast window, values rounded to `decimals` (sensor precision, not float noise)."""
    out: dict[str, dict[str, Any]] = {}
    if tz is not None and isinstance(window.index, pd.DatetimeIndex):
        window = window.tz_convert(tz)
    for column in window.columns:
        values = window[column].dropna()
        if values.empty:
            continue
        change = float(values.iloc[-1] - values.iloc[0])
        spread = float(values.max() - values.min())
        direction = (
            "flat" if spread == 0 or abs(change) < 0.1 * spread else "rising" if change > 0 else "falling"
        )
        out[str(column)] = {
            "from": values.index[0].isoformat(),
            "to": values.index[-1].isoformat(),
            "first": round(float(values.iloc[0]), decimals),
            "last": round(float(values.iloc[-1]), decimals),
            "min": round(float(values.min()), decimals),
            "max": round(float(values.max()), decimals),
            "mean": round(float(values.mean()), decimals),
            "direction": direction,
        }
    return out


def forecast_line(target: str, summary: dict[str, Any], period: str) -> str:
    """One target's forecast in words. An all-zero forecast (an off chiller's power or load) says the
    chiller is expected to stay off, not "flat from 0.00 to 0.00"."""
    if summary["min"] == 0 and summary["max"] == 0:
        return f"{target}: stays at 0 (the chiller is expected to stay off) {period}"
    if summary["direction"] == "flat":
        return f"{target}: flat around {summary['mean']:.2f} (range {summary['min']:.2f}-{summary['max']:.2f}) {period}"
    return (f"{target}: {summary['direction']} from {summary['first']:.2f} to {summary['last']:.2f} "
            f"(range {summary['min']:.2f}-{summary['max']:.2f}) {period}")


@dataclass
class ForecastError:
    """Forecast accuracy against actuals."""

    target: str
    pairs: int
    mae: float
    mape_pct: float | None  # None when actuals are ~0 (undefined)
    bias: float  # mean(forecast - actual): positive means over-forecast

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly view."""
        return {
            "target": self.target,
            "pairs": self.pairs,
            "mae": round(self.mae, 4),
            "mape_pct": None if self.mape_pct is None else round(self.mape_pct, 2),
            "bias": round(self.bias, 4),
        }


def forecast_errors(windows: list[pd.DataFrame], actuals: pd.DataFrame) -> list[ForecastError]:
    """MAE, MAPE and bias of every forecast point that has an actual at the same timestamp."""
    errors: list[ForecastError] = []
    if not windows:
        return errors
    stacked = pd.concat(windows)
    for target in stacked.columns:
        if target not in actuals.columns:
            continue
        joined = (
            stacked[[target]].join(actuals[[target]].rename(columns={target: "actual"}), how="inner").dropna()
        )
        if joined.empty:
            continue
        diff = joined[target] - joined["actual"]
        nonzero = joined["actual"].abs() > 1e-6
        mape = (
            float((diff[nonzero].abs() / joined["actual"][nonzero].abs()).mean() * 100)
            if nonzero.any()
            else None
        )
        errors.append(
            ForecastError(
                target=str(target),
                pairs=len(joined),
                mae=float(diff.abs().mean()),
                mape_pct=mape,
                bias=float(diff.mean()),
            )
        )
    return errors
