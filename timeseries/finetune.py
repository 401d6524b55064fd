"""run_tsfm_finetuning: few-shot tuning of a TTM on a dataset, with metrics before and after on held-out data.

Time split per segment: the last `n_test` of each segment's rows is the test period, the tenth of the
rest just before it validates (early stopping), the remainder trains; `n_finetune` of the training
windows are sampled across that period. The run is bounded by steps, seconds and patience, and the
weights with the best validation loss are kept (the base model's own included).
"""

from __future__ import annotations

import copy
import json
import logging
import math
import uuid
from collections.abc import Callable
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from timeseries.errors import TsfmError
from timeseries.forecast import predict_batch
from timeseries.io import read_dataset
from timeseries.models import LoadedModel, load_model
from timeseries.pretrain import save_checkpoint
from timeseries.quality import QualityResult, assess
from timeseries.requests import FinetuneRequest
from timeseries.results import new_output_path, write_json
from timeseries.training import TrainPlan, train
from timeseries.windows import WindowSet, cut_windows, seasonal_naive

log = logging.getLogger(__name__)

SEED = 42
MAX_EVAL_WINDOWS = 4000


def fraction_or_count(value: float, total: int, name: str) -> int:
    """`value` <= 1 is a fraction of `total`, above 1 a count (clipped to `total`)."""
    if value < 0:
        raise TsfmError(f"{name} must be >= 0 (a fraction <= 1 or a count), got {value}.")
    return min(total, math.ceil(value * total) if value <= 1 else int(value))


def run_finetuning(request: FinetuneRequest, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Fine-tune, evaluate before/after on the test period, save the model under `save_dir`."""
    base = load_model(request.checkpoint)
    raw = read_dataset(request.data.dataset, request.data.columns.timestamp_column)
    quality = assess(raw, request.data.columns, frequency_sampling=request.data.frequency_sampling,
                     min_length=base.context_length + base.prediction_length)
    horizon = _metric_horizon(request.forecast_horizon, base)
    train_pool, validation, test = _split(quality, base, request.n_test)
    finetune_count = fraction_or_count(request.n_finetune, len(train_pool), "n_finetune")
    if finetune_count < 10:
        raise TsfmError(
            f"n_finetune selects {finetune_count} training windows (of {len(train_pool)}); at least 10 are needed: "
            "raise n_finetune or give more data."
        )
    # A sample spread over the whole training period generalises better than its most recent slice.
    chosen = np.sort(np.random.default_rng(SEED).choice(len(train_pool), size=finetune_count, replace=False))
    train_set = train_pool.subset(chosen)
    model = copy.deepcopy(base.model)  # the cached base model stays untouched
    before = evaluate(base, test, horizon, quality)
    plan = _plan(len(train_set), request.max_seconds)
    report = train(model, train_set, validation, plan, _progress_logger(progress))
    tuned = LoadedModel(model, "fine-tuned", base.context_length, base.prediction_length)
    after = evaluate(tuned, test, horizon, quality)
    run_dir = request.save_dir / f"{_base_label(base)}_ft_{datetime.now(UTC):%Y%m%dT%H%M%S}_{uuid.uuid4().hex[:6]}"
    record = {
        "base_checkpoint": base.source, "dataset": str(request.data.dataset), "target_columns": quality.targets,
        "seed": SEED, "plan": asdict(plan), "steps": report.steps, "train_seconds": report.seconds,
        "stopped_early": report.stopped_early, "train_windows": len(train_set),
        "validation_windows": len(validation), "test_windows": len(test), "history": report.history,
        "metrics_before": before, "metrics_after": after, "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    save_checkpoint(model, run_dir, record)
    return _result(request, quality, run_dir, record, horizon)


def _metric_horizon(requested: int, base: LoadedModel) -> int:
    if requested in (-1, 0):
        return base.prediction_length
    if requested < -1 or requested > base.prediction_length:
        raise TsfmError(
            f"forecast_horizon must be -1 or between 1 and the model's horizon {base.prediction_length}, got {requested}."
        )
    return requested


def _split(quality: QualityResult, base: LoadedModel, n_test: float) -> tuple[WindowSet, WindowSet, WindowSet]:
    """Per segment, by time: training rows, then a validation tenth, then the `n_test` rows.

    Validation and test windows forecast only inside their own period (their context may reach back).
    """
    length, horizon = base.context_length, base.prediction_length
    rng = np.random.default_rng(SEED)
    parts: dict[str, list[np.ndarray]] = {"train": [], "validation": [], "test": []}
    for segment in quality.segments():
        for target in quality.targets:
            values = segment[target].to_numpy(dtype=np.float32)
            test_cut = len(values) - (fraction_or_count(n_test, len(values), "n_test") if n_test > 0 else 0)
            validation_cut = test_cut - test_cut // 10
            parts["train"].append(values[:validation_cut])
            if test_cut - validation_cut >= horizon:
                parts["validation"].append(values[max(0, validation_cut - length):test_cut])
            if len(values) - test_cut >= horizon:
                parts["test"].append(values[max(0, test_cut - length):])
    train_pool = cut_windows(parts["train"], length, horizon, limit=None, rng=rng)
    validation = cut_windows(parts["validation"], length, horizon, limit=MAX_EVAL_WINDOWS // 2, rng=rng)
    test = cut_windows(parts["test"], length, horizon, limit=MAX_EVAL_WINDOWS, rng=rng)
    if not len(train_pool) or not len(validation):
        raise TsfmError(
            f"Too little data before the test period for training and validation windows of {length + horizon} "
            "rows; lower n_test or give a longer dataset."
        )
    if not len(test):
        raise TsfmError(f"n_test leaves fewer than {horizon} rows per segment to test on; raise n_test (fraction or count).")
    return train_pool, validation, test


def _plan(train_windows: int, max_seconds: float) -> TrainPlan:
    """Up to ~20 passes over small sets, bounded by 600 steps and the time budget."""
    batch = 64 if train_windows < 2000 else 128
    steps = int(min(600, max(40, 20 * train_windows / batch)))
    return TrainPlan(max_steps=steps, max_seconds=max_seconds, batch_size=batch, learning_rate=2e-4,
                     eval_every=max(10, steps // 20), patience=4, seed=SEED)


def _progress_logger(progress: Callable[[str], None] | None) -> Callable[[dict[str, float]], None]:
    def report(entry: dict[str, float]) -> None:
        """Log each evaluation and pass it on."""
        line = (f"fine-tuning step {int(entry['step'])}: validation mae {entry['validation_mae']:.4f} "
                f"after {entry['seconds']:.1f} s")
        log.info(line)
        if progress is not None:
            progress(line)
    return report


def evaluate(loaded: LoadedModel, windows: WindowSet, horizon: int, quality: QualityResult) -> dict[str, float]:
    """MAE, RMSE and MASE (vs seasonal naive over one day, or last value when the context is shorter)."""
    predicted = predict_batch(loaded, windows.past)[:, :horizon]
    actual = windows.future[:, :horizon]
    season = max(1, round(pd.Timedelta(days=1) / quality.frequency))
    if windows.past.shape[1] >= season:
        naive = seasonal_naive(windows.past, horizon, season)
    else:
        naive = np.repeat(windows.past[:, -1:], horizon, axis=1)
    mae = float(np.mean(np.abs(predicted - actual)))
    naive_mae = float(np.mean(np.abs(naive - actual)))
    return {"mae": round(mae, 6), "rmse": round(float(np.sqrt(np.mean((predicted - actual) ** 2))), 6),
            "mase": round(mae / naive_mae, 6) if naive_mae > 0 else float("nan"), "windows": len(windows)}


def _base_label(base: LoadedModel) -> str:
    return f"ttm_{base.context_length}_{base.prediction_length}"


def _result(
    request: FinetuneRequest, quality: QualityResult, run_dir: Path, record: dict[str, Any], horizon: int
) -> dict[str, Any]:
    rows = [
        {"target": ",".join(quality.targets), "forecast": horizon, "metric": metric, "value": value,
         "split": "test", "stage": stage, "train_time": record["train_seconds"]}
        for stage, key in (("zero_shot", "metrics_before"), ("fine_tuned", "metrics_after"))
        for metric, value in record[key].items() if metric != "windows"
    ]
    payload: dict[str, Any] = {"performance": pd.DataFrame(rows).to_dict(), "save_model_dir": str(run_dir),
                               "experiment_config_path": str(run_dir / "TRAINING.json")}
    if request.include_dataquality_summary:
        payload["dataquality_summary"] = quality.summary
    results_file = new_output_path(request.output_dir, "finetune", ".json")
    write_json(results_file, json.loads(json.dumps(payload, default=str)))
    return {
        "status": "success", "model_checkpoint": str(run_dir), "results_file": str(results_file),
        "message": f"Fine-tuning complete. Model saved to {run_dir}. Metrics saved to {results_file}.",
        "metrics_before": record["metrics_before"], "metrics_after": record["metrics_after"],
        "improved": record["metrics_after"]["mae"] < record["metrics_before"]["mae"],
        "train_seconds": record["train_seconds"], "steps": record["steps"], "stopped_early": record["stopped_early"],
    }
