"""run_tsfm_forecasting: zero-shot TTM forecasts of a dataset, written as the contract's JSON."""

from __future__ import annotations

import logging
from typing import Any

import numpy as np
import pandas as pd

from timeseries.errors import TsfmError
from timeseries.forecast import SegmentForecast, forecast_all_windows, rollout, window_timestamps
from timeseries.io import read_dataset
from timeseries.models import LoadedModel, load_model
from timeseries.quality import QualityResult, assess
from timeseries.requests import ForecastRequest
from timeseries.results import new_output_path, write_json

log = logging.getLogger(__name__)

# A year of 15-minute data is 35,000 windows; all of them for 10 targets would be a ~100 MB file.
# Beyond this many predicted values only the most recent windows are written (the message says so).
MAX_FORECAST_VALUES = 3_000_000


def resolve_horizon(requested: int | None, loaded: LoadedModel, autoregressive: bool) -> int:
    """None / -1 / 0 -> the model's horizon; above it needs autoregressive rollout."""
    if requested is None or requested in (-1, 0):
        return loaded.prediction_length
    if requested < -1:
        raise TsfmError(f"forecast_horizon must be -1 (the model's horizon) or a positive number, got {requested}.")
    if requested > loaded.prediction_length and not autoregressive:
        raise TsfmError(
            " Selected forecast horizon is above what is supported by the model. Set a forecast horizon of at "
            f"most {loaded.prediction_length}, or autoregressive_modeling=true to roll the model forward."
        )
    return requested


def run_forecasting(request: ForecastRequest) -> dict[str, Any]:
    """Forecast every window (horizon <= the model's) or roll out from the end of each segment."""
    raw = read_dataset(request.data.dataset, request.data.columns.timestamp_column)
    loaded = load_model(request.checkpoint)
    horizon = resolve_horizon(request.forecast_horizon, loaded, request.data.autoregressive_modeling)
    quality = assess(raw, request.data.columns, frequency_sampling=request.data.frequency_sampling,
                     min_length=loaded.context_length)
    dropped = 0
    if horizon <= loaded.prediction_length:
        predictions, timestamps = _all_windows(loaded, quality, horizon)
        keep = max(1, MAX_FORECAST_VALUES // (horizon * len(quality.targets)))
        dropped = max(0, len(predictions) - keep)
        predictions, timestamps = predictions[dropped:], timestamps[dropped:]
        mode = "all_windows"
    else:
        predictions, timestamps = _rollouts(loaded, quality, horizon)
        mode = "autoregressive_rollout"
    predictions, floored = floor_never_negative(predictions, quality)
    results_file = new_output_path(request.output_dir, "forecast", ".json")
    write_json(results_file, {
        "target_prediction": np.round(predictions, 5).tolist(), "timestamp": timestamps.tolist(),
        "target_columns": quality.targets, "model_checkpoint": loaded.source, "forecast_mode": mode,
    })
    return {
        "status": "success", "results_file": str(results_file),
        "dataquality_summary": quality.summary if request.include_dataquality_summary else None,
        "message": f"Forecasting complete. Predictions saved to {results_file}."
                   + (f" The {dropped} oldest windows were left out to bound the file size; pass a shorter "
                      "dataset to forecast them." if dropped else "")
                   + (f" Forecasts of {', '.join(floored)} (never negative in the data) were floored at 0."
                      if floored else ""),
        "model_checkpoint": loaded.source, "context_length": loaded.context_length,
        "forecast_horizon": horizon, "forecast_mode": mode, "windows": len(predictions), "windows_left_out": dropped,
        "target_columns": quality.targets, "latest_forecast": latest_summary(predictions, timestamps, quality),
    }


def floor_never_negative(predictions: np.ndarray, quality: QualityResult) -> tuple[np.ndarray, list[str]]:
    """Floor at 0 the targets whose data never went below 0; the targets whose forecast changed.

    Flow, power, tonnage and load cannot be negative, yet the model extrapolates a stopped chiller
    (a run of zeros) into negative values, e.g. -115 gpm of condenser water on Chiller 9.
    `predictions` is (windows, horizon, targets).
    """
    floored: list[str] = []
    for index, target in enumerate(quality.targets):
        column = predictions[..., index]
        if quality.frame[target].min() >= 0 and (column < 0).any():
            predictions[..., index] = np.maximum(column, 0.0)
            floored.append(target)
    return predictions, floored


def _all_windows(loaded: LoadedModel, quality: QualityResult, horizon: int) -> tuple[np.ndarray, np.ndarray]:
    segments = forecast_all_windows(loaded, quality)
    predictions = np.concatenate([s.predictions[:, :horizon, :] for s in segments], axis=0)
    timestamps = np.concatenate([_stamps(quality, s, horizon) for s in segments], axis=0)
    return predictions, timestamps


def _stamps(quality: QualityResult, segment: SegmentForecast, horizon: int) -> np.ndarray:
    return window_timestamps(quality, segment.first_step_utc, segment.offsets_min, horizon)


def _rollouts(loaded: LoadedModel, quality: QualityResult, horizon: int) -> tuple[np.ndarray, np.ndarray]:
    """One long forecast from the end of the data (the latest segment of each series), batched together."""
    latest = _latest_segments(quality)
    contexts = np.stack([s[quality.targets].to_numpy(dtype=np.float32)[-loaded.context_length:] for s in latest])
    predictions = rollout(loaded, contexts, horizon)
    timestamps = np.stack([
        window_timestamps(quality, pd.DatetimeIndex(s["ts"].iloc[[-1]]) + quality.frequency,
                          s["offset_min"].to_numpy()[[-1]], horizon)[0]
        for s in latest
    ])
    return predictions, timestamps


def _latest_segments(quality: QualityResult) -> list[pd.DataFrame]:
    """The last segment of every series (one series unless id columns split the data)."""
    segments = quality.segments()
    if not quality.id_columns:
        return segments[-1:]
    latest: dict[tuple[Any, ...], pd.DataFrame] = {}
    for segment in segments:
        latest[tuple(segment[quality.id_columns].iloc[0])] = segment
    return list(latest.values())


def latest_summary(predictions: np.ndarray, timestamps: np.ndarray, quality: QualityResult) -> dict[str, Any]:
    """The last window's forecast per target, summarised so a caller need not open the file."""
    last = predictions[-1]
    return {
        "start": str(timestamps[-1][0]), "end": str(timestamps[-1][-1]),
        "targets": {
            target: {"mean": round(float(last[:, i].mean()), 4), "min": round(float(last[:, i].min()), 4),
                     "max": round(float(last[:, i].max()), 4)}
            for i, target in enumerate(quality.targets)
        },
    }
