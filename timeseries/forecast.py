"""Batched TTM inference: every context window of every segment in a few large forward passes."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch
from numpy.lib.stride_tricks import sliding_window_view

from timeseries.errors import TsfmError
from timeseries.models import LoadedModel
from timeseries.quality import QualityResult, output_timestamps

BATCH_WINDOWS = 2048  # contexts per forward pass: amortises call overhead, stays cache-friendly


@dataclass
class SegmentForecast:
    """Forecasts of one continuous segment.

    `predictions[w, k, c]` is step k+1 after the context window w for target c; window w reads the
    rows w .. w+L-1 of the segment, so its first step lands on row w+L (the last window forecasts
    past the end of the data).
    """

    predictions: np.ndarray
    first_step_utc: pd.DatetimeIndex
    offsets_min: np.ndarray
    values: np.ndarray  # (rows, targets): the actual data of the segment
    row_utc: pd.DatetimeIndex
    row_offsets_min: np.ndarray


def predict_batch(loaded: LoadedModel, contexts: np.ndarray) -> np.ndarray:
    """Forecast (N, L) univariate contexts -> (N, H), channel-independently, in large batches."""
    model = loaded.model
    outputs: list[np.ndarray] = []
    with torch.inference_mode():
        for start in range(0, len(contexts), BATCH_WINDOWS):
            # Strided window views are read-only; torch wants memory it may own, so copy those.
            chunk = torch.from_numpy(np.array(contexts[start:start + BATCH_WINDOWS], dtype=np.float32, copy=True))
            kwargs = {}
            if getattr(model.config, "resolution_prefix_tuning", False):
                kwargs["freq_token"] = torch.zeros(len(chunk), dtype=torch.long)  # "oov": unknown resolution
            result = model(past_values=chunk.unsqueeze(-1), return_loss=False, **kwargs)
            outputs.append(result.prediction_outputs[..., 0].numpy())
    if not outputs:
        return np.empty((0, loaded.prediction_length), dtype=np.float32)
    return np.concatenate(outputs, axis=0)


def forecast_all_windows(loaded: LoadedModel, quality: QualityResult) -> list[SegmentForecast]:
    """Every stride-1 context window of every kept segment, all targets, (windows, H, targets) each."""
    length = loaded.context_length
    plan: list[tuple[pd.DataFrame, np.ndarray]] = []
    contexts: list[np.ndarray] = []
    for segment in quality.segments():
        values = segment[quality.targets].to_numpy(dtype=np.float32)
        if len(values) < length:
            continue
        windows = sliding_window_view(values, length, axis=0)  # (W, targets, L)
        contexts.append(windows.reshape(-1, length))
        plan.append((segment, values))
    if not plan:
        raise TsfmError(f"No segment has the {length} rows the model's context length needs.")
    flat = predict_batch(loaded, np.concatenate(contexts, axis=0))
    return _split_per_segment(flat, plan, loaded, quality)


def _split_per_segment(
    flat: np.ndarray, plan: list[tuple[pd.DataFrame, np.ndarray]], loaded: LoadedModel, quality: QualityResult
) -> list[SegmentForecast]:
    targets = len(quality.targets)
    results: list[SegmentForecast] = []
    cursor = 0
    for segment, values in plan:
        windows = len(values) - loaded.context_length + 1
        block = flat[cursor:cursor + windows * targets].reshape(windows, targets, -1).transpose(0, 2, 1)
        cursor += windows * targets
        row_utc = pd.DatetimeIndex(segment["ts"])
        last_rows = np.arange(loaded.context_length - 1, len(values))
        results.append(SegmentForecast(
            predictions=block,
            first_step_utc=row_utc[last_rows] + quality.frequency,
            offsets_min=segment["offset_min"].to_numpy()[last_rows],
            values=values,
            row_utc=row_utc,
            row_offsets_min=segment["offset_min"].to_numpy(),
        ))
    return results


def rollout(loaded: LoadedModel, contexts: np.ndarray, horizon: int) -> np.ndarray:
    """Autoregressive forecast of `horizon` steps from (series, L, targets) contexts -> (series, horizon, targets).

    All series and targets advance together, so a week ahead costs horizon / H forward passes.
    """
    series, length, targets = contexts.shape
    history = np.asarray(contexts, dtype=np.float32).transpose(0, 2, 1).reshape(series * targets, length)
    produced: list[np.ndarray] = []
    steps = 0
    while steps < horizon:
        step = predict_batch(loaded, history[:, -loaded.context_length:])
        produced.append(step)
        history = np.concatenate([history[:, -loaded.context_length:], step], axis=1)
        steps += step.shape[1]
    flat = np.concatenate(produced, axis=1)[:, :horizon]
    return flat.reshape(series, targets, horizon).transpose(0, 2, 1)


def window_timestamps(
    quality: QualityResult, first_step_utc: pd.DatetimeIndex, offsets_min: np.ndarray, horizon: int
) -> np.ndarray:
    """(windows, horizon) ISO strings: each window's future steps, shown in its last row's offset."""
    steps = pd.timedelta_range(start=pd.Timedelta(0), periods=horizon, freq=quality.frequency).to_numpy()
    grid = first_step_utc.tz_convert(None).to_numpy()[:, None] + steps[None, :]
    flat = pd.DatetimeIndex(grid.ravel()).tz_localize("UTC")
    shown = output_timestamps(quality, flat, np.repeat(offsets_min, horizon))
    return shown.reshape(len(first_step_utc), horizon)
