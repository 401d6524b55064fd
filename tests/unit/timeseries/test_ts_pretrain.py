"""Base-checkpoint building and the setup step that only trains what is missing."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from assetops.settings import Settings
from timeseries.ensure import ensure_checkpoints, missing_checkpoints
from timeseries.fleet_series import FleetSeries
from timeseries.models import is_checkpoint_dir, load_model
from timeseries.pretrain import pretrain_checkpoint, read_training_record, save_checkpoint
from timeseries.training import TrainPlan
from timeseries.ttm_config import CheckpointSpec


def _fleet() -> FleetSeries:
    steps = np.arange(2000)
    series = [np.sin(steps * 2 * np.pi / 96 + k).astype(np.float32) * (k + 1) for k in range(3)]
    return FleetSeries(["a", "b", "c"], [s[:1500] for s in series], [s[1500 - 32:] for s in series], "v-test", "test",
                       lead=32)


def test_pretraining_saves_a_loadable_checkpoint_with_its_training_record(tmp_path: Path) -> None:
    spec = CheckpointSpec("tiny", 32, 8, 8, d_model=8, num_layers=1, decoder_d_model=8, decoder_num_layers=1)
    plan = TrainPlan(max_steps=5, max_seconds=30, batch_size=16, eval_every=5)
    record = pretrain_checkpoint(spec, _fleet(), tmp_path / "tiny", plan=plan, seed=7)
    loaded = load_model(str(tmp_path / "tiny"))
    assert (loaded.context_length, loaded.prediction_length) == (32, 8)
    saved = read_training_record(tmp_path / "tiny")
    assert saved is not None
    assert (saved["seed"], saved["data_version"], saved["steps"]) == (7, "v-test", record["steps"])
    assert saved["command"]
    assert not (tmp_path / "tiny.partial").exists()


def test_ensure_is_a_no_op_when_the_checkpoints_exist(tiny_checkpoint: Path, tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", work_dir=tmp_path / "work", models_dir=tmp_path / "models")
    assert missing_checkpoints(settings) == ["ttm_96_28", "ttm_512_96"]
    model = load_model(str(tiny_checkpoint)).model
    for name in ("ttm_96_28", "ttm_512_96"):
        save_checkpoint(model, settings.models_dir / name, {"name": name})
    assert missing_checkpoints(settings) == []
    assert ensure_checkpoints(settings) == []
    assert is_checkpoint_dir(settings.models_dir / "ttm_512_96")


def test_an_external_checkpoint_root_needs_no_local_training(tmp_path: Path) -> None:
    settings = Settings(models_dir=tmp_path / "models", model_checkpoint="ibm-granite/granite-timeseries-ttm-r2")
    assert missing_checkpoints(settings) == []
