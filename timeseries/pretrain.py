"""Build the base checkpoints (`ttm_96_28`, `ttm_512_96`) from a configuration and the fleet's telemetry.

Every sensor of every chiller is one univariate series (TTM is channel-independent); the last weeks
are held out by time. Each checkpoint is written with `save_pretrained` into a temporary directory
that is renamed into place, next to a TRAINING.json recording how it was made.
"""

from __future__ import annotations

import json
import logging
import platform
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import torch
from tsfm_public import TinyTimeMixerForPrediction

from timeseries.fleet_series import FleetSeries
from timeseries.training import TrainPlan, train, validation_mae
from timeseries.ttm_config import BASE_CHECKPOINTS, CheckpointSpec, build_config
from timeseries.windows import cut_windows

log = logging.getLogger(__name__)

TRAINING_RECORD = "TRAINING.json"
DEFAULT_SEED = 42
TRAIN_WINDOWS = 40_000
VALIDATION_WINDOWS = 2_000
PLANS: dict[str, TrainPlan] = {
    "ttm_96_28": TrainPlan(max_steps=500, max_seconds=60.0, batch_size=128, learning_rate=3e-3, eval_every=50),
    "ttm_512_96": TrainPlan(max_steps=400, max_seconds=60.0, batch_size=128, learning_rate=3e-3, eval_every=50),
}


def pretrain_checkpoint(
    spec: CheckpointSpec, fleet: FleetSeries, out_dir: Path, *, plan: TrainPlan | None = None,
    seed: int = DEFAULT_SEED, progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Train `spec` on `fleet` and save it into `out_dir` (replaced atomically); return its record."""
    plan = plan or PLANS.get(spec.name, TrainPlan())
    plan = TrainPlan(**{**asdict(plan), "seed": seed})
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    train_set = cut_windows(fleet.train, spec.context_length, spec.prediction_length, limit=TRAIN_WINDOWS, rng=rng)
    validation = cut_windows(
        fleet.held_out(spec.context_length), spec.context_length, spec.prediction_length, limit=VALIDATION_WINDOWS, rng=rng
    )
    if not len(train_set) or not len(validation):
        raise ValueError(
            f"Not enough gap-free telemetry to train {spec.name}: {len(train_set)} training and "
            f"{len(validation)} validation windows of {spec.context_length + spec.prediction_length} steps."
        )
    model = TinyTimeMixerForPrediction(build_config(spec))

    def report(entry: dict[str, float]) -> None:
        """One progress line per evaluation."""
        if progress is not None:
            progress(f"{spec.name}: step {int(entry['step'])} validation mae {entry['validation_mae']:.4f} "
                     f"({entry['seconds']:.0f} s)")

    started = time.perf_counter()
    outcome = train(model, train_set, validation, plan, report)
    record = {
        "name": spec.name, "command": " ".join(sys.argv) or "assetops tsfm pretrain", "seed": seed,
        "data_version": fleet.data_version, "data_source": fleet.source, "data_window": fleet.window,
        "series": len(fleet.names), "train_windows": len(train_set), "validation_windows": len(validation),
        "spec": asdict(spec), "plan": asdict(plan), "steps": outcome.steps, "train_seconds": outcome.seconds,
        "best_validation_mae_normalised": outcome.best_validation_mae, "stopped_early": outcome.stopped_early,
        "validation_mae_normalised_final": validation_mae(model, validation.normalised()),
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"), "torch": torch.__version__,
        "python": platform.python_version(), "total_seconds": round(time.perf_counter() - started, 2),
    }
    save_checkpoint(model, out_dir, record)
    return record


def save_checkpoint(model: TinyTimeMixerForPrediction, out_dir: Path, record: dict[str, Any]) -> None:
    """save_pretrained into a sibling temp dir, add TRAINING.json, then swap it into place."""
    staging = out_dir.with_name(out_dir.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    model.save_pretrained(staging)
    (staging / TRAINING_RECORD).write_text(json.dumps(record, indent=2, default=str), encoding="utf-8")
    if out_dir.exists():
        shutil.rmtree(out_dir)
    staging.rename(out_dir)


def read_training_record(checkpoint_dir: Path) -> dict[str, Any] | None:
    """The TRAINING.json next to a checkpoint, if there is one."""
    path = checkpoint_dir / TRAINING_RECORD
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def pretrain_all(
    fleet: FleetSeries, models_dir: Path, *, names: list[str] | None = None, seed: int = DEFAULT_SEED,
    progress: Callable[[str], None] | None = None,
) -> list[dict[str, Any]]:
    """Train the named base checkpoints (all by default) into `models_dir/<name>`."""
    records = []
    for name in names or list(BASE_CHECKPOINTS):
        if progress is not None:
            progress(f"{name}: training on {len(fleet.names)} series ({fleet.source}, data {fleet.data_version})")
        records.append(pretrain_checkpoint(BASE_CHECKPOINTS[name], fleet, models_dir / name, seed=seed,
                                           progress=progress))
    return records
