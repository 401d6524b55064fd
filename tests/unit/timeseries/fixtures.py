"""Shared test data for the time-series tests: a tiny TTM trained in seconds and synthetic series."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from timeseries.ttm_config import CheckpointSpec

TINY_SPEC = CheckpointSpec("ttm_96_28", 96, 28, 8, d_model=16, num_layers=1, decoder_d_model=8, decoder_num_layers=1)


def sine_frame(days: int, *, noise: float = 0.02, seed: int = 0, start: str = "2021-06-01T00:00:00-04:00") -> pd.DataFrame:
    """A 15-minute daily sine (amplitude 1) with a little noise, timestamps as ISO text with offsets."""
    rng = np.random.default_rng(seed)
    steps = days * 96
    ts = pd.date_range(pd.Timestamp(start), periods=steps, freq="15min")
    values = np.sin(np.arange(steps) * 2 * np.pi / 96) + rng.normal(0, noise, steps)
    return pd.DataFrame({"timestamp": [t.isoformat() for t in ts], "value": values, "other": values * 2 + 10})


def train_tiny_checkpoint(directory: Path) -> Path:
    """Train the tiny model briefly on noisy sines of several periods/levels and save it to `directory`."""
    from tsfm_public import TinyTimeMixerForPrediction

    from timeseries.pretrain import save_checkpoint
    from timeseries.training import TrainPlan, train
    from timeseries.ttm_config import build_config
    from timeseries.windows import cut_windows

    rng = np.random.default_rng(1)
    steps = np.arange(3000)
    series = [
        (level + amplitude * np.sin(steps * 2 * np.pi / period + phase) + rng.normal(0, 0.05, len(steps))).astype(np.float32)
        for level, amplitude, period, phase in [(0, 1, 96, 0), (10, 3, 96, 1), (5, 1, 48, 2), (-3, 2, 96, 3)]
    ]
    train_set = cut_windows([s[:2400] for s in series], 96, 28, limit=4000, rng=rng)
    validation = cut_windows([s[2400:] for s in series], 96, 28, limit=400, rng=rng)
    model = TinyTimeMixerForPrediction(build_config(TINY_SPEC, dropout=0.0))
    plan = TrainPlan(max_steps=120, max_seconds=20, batch_size=64, learning_rate=1e-2, eval_every=40, patience=10)
    report = train(model, train_set, validation, plan)
    save_checkpoint(model, directory, {"name": "tiny-test", "seed": 42, "data_version": "test-sines",
                                       "steps": report.steps})
    return directory


@pytest.fixture(scope="session")
def tiny_checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny trained TTM (context 96, horizon 28) in a temporary directory, built once per session."""
    return train_tiny_checkpoint(tmp_path_factory.mktemp("tiny_ttm") / "ttm_96_28")


DRIVERS = ["Chiller % Loaded", "Condenser Temperature"]


def chiller_frame(days: int, *, fault_from_day: int | None = None, fault_pct: float = 8.0, seed: int = 0) -> pd.DataFrame:
    """15-minute samples of a chiller running 06:00-20:00; power = load curve x condenser temperature.

    With `fault_from_day`, power at equal load ramps up to `fault_pct` percent above the relation over
    ten days (a fouling-like slow fault).
    """
    rng = np.random.default_rng(seed)
    ts = pd.date_range("2021-05-01", periods=days * 96, freq="15min", tz="UTC")
    hour = ts.hour.to_numpy() + ts.minute.to_numpy() / 60
    running = (hour >= 6) & (hour < 20)
    load = np.where(running, 40 + 40 * np.sin(np.pi * (hour - 6) / 14) + rng.normal(0, 5, len(ts)), 0.0)
    condenser = 75 + 5 * np.sin(2 * np.pi * np.arange(len(ts)) / (96 * 9)) + rng.normal(0, 0.5, len(ts))
    power = load * (2.0 + 0.01 * (load - 60) ** 2 / 60) * (1 + 0.01 * (condenser - 75))
    if fault_from_day is not None:
        progress = np.clip((np.arange(len(ts)) - fault_from_day * 96) / (10 * 96), 0, 1)
        power = power * (1 + fault_pct / 100 * progress)
    power = np.where(running, power + rng.normal(0, 1.0, len(ts)), rng.normal(0, 0.2, len(ts)).clip(0))
    return pd.DataFrame({"ts": ts, "Power Input": power, DRIVERS[0]: load, DRIVERS[1]: condenser})
