"""One small training loop shared by pretraining and fine-tuning: AdamW, one-cycle LR, early stopping.

A plain torch loop instead of the HF Trainer: the models are tiny, so the Trainer's overhead
dominates on a CPU, and a loop bounded by steps *and* seconds keeps the wait predictable.
"""

from __future__ import annotations

import copy
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch
from tsfm_public import TinyTimeMixerForPrediction

from timeseries.forecast import predict_batch
from timeseries.models import LoadedModel, configure_torch
from timeseries.windows import WindowSet

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TrainPlan:
    """Budget and optimiser settings of one training run."""

    max_steps: int = 400
    max_seconds: float = 90.0
    batch_size: int = 256
    learning_rate: float = 1e-3
    eval_every: int = 50
    patience: int = 4  # evaluations without improvement before stopping
    min_improvement: float = 1e-4
    seed: int = 42


@dataclass
class TrainReport:
    """What happened: steps, time, best validation loss and whether it stopped early."""

    steps: int
    seconds: float
    best_validation_mae: float
    stopped_early: bool
    history: list[dict[str, float]]


Progress = Callable[[dict[str, float]], None]


def train(
    model: TinyTimeMixerForPrediction, train_set: WindowSet, validation: WindowSet, plan: TrainPlan,
    progress: Progress | None = None,
) -> TrainReport:
    """Train in place, keep the weights with the best validation loss, report every evaluation."""
    configure_torch()
    train_set, validation = train_set.normalised(), validation.normalised()
    torch.manual_seed(plan.seed)
    rng = np.random.default_rng(plan.seed)
    optimiser = torch.optim.AdamW(model.parameters(), lr=plan.learning_rate * 0.1, weight_decay=1e-4)
    best = (validation_mae(model, validation), copy.deepcopy(model.state_dict()))
    history = [{"step": 0.0, "validation_mae": best[0], "seconds": 0.0}]
    started, step, stale = time.perf_counter(), 0, 0
    while step < plan.max_steps and time.perf_counter() - started < plan.max_seconds and stale < plan.patience:
        model.train()
        batch = rng.integers(0, len(train_set), size=min(plan.batch_size, len(train_set)))
        loss = model(past_values=_tensor(train_set.past[batch]), future_values=_tensor(train_set.future[batch])).loss
        optimiser.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimiser.step()
        step += 1
        _set_learning_rate(optimiser, plan, max(step / plan.max_steps, (time.perf_counter() - started) / plan.max_seconds))
        if step % plan.eval_every == 0 or step == plan.max_steps:
            score = validation_mae(model, validation)
            entry = {"step": float(step), "train_loss": float(loss.detach()), "validation_mae": score,
                     "seconds": round(time.perf_counter() - started, 2)}
            history.append(entry)
            if progress is not None:
                progress(entry)
            if score < best[0] - plan.min_improvement:
                best, stale = (score, copy.deepcopy(model.state_dict())), 0
            else:
                stale += 1
    model.load_state_dict(best[1])
    model.eval()
    return TrainReport(step, round(time.perf_counter() - started, 2), best[0], stale >= plan.patience, history)


def _set_learning_rate(optimiser: torch.optim.Optimizer, plan: TrainPlan, progress: float) -> None:
    """Warm-up then cosine decay over whichever budget (steps or seconds) runs out first.

    A step-based one-cycle schedule would never finish annealing when the time budget stops the run.
    """
    warmup = 0.1
    if progress < warmup:
        factor = 0.1 + 0.9 * progress / warmup
    else:
        factor = 0.5 * (1 + math.cos(math.pi * min(1.0, (progress - warmup) / (1 - warmup))))
    for group in optimiser.param_groups:
        group["lr"] = plan.learning_rate * max(factor, 0.02)


def _tensor(values: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(values, dtype=np.float32)).unsqueeze(-1)


def validation_mae(model: TinyTimeMixerForPrediction, windows: WindowSet) -> float:
    """Mean absolute error on (normalised) `windows`: the scale-free twin of the MASE target."""
    if not len(windows):
        return float("nan")
    model.eval()
    loaded = LoadedModel(model, "in-training", windows.past.shape[1], windows.future.shape[1])
    predicted = predict_batch(loaded, windows.past)[:, : windows.future.shape[1]]
    return float(np.mean(np.abs(predicted - windows.future)))
