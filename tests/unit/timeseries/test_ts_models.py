"""Checkpoints, batched forecasting, integrated detection and fine-tuning with a tiny TTM."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tests.unit.timeseries.fixtures import sine_frame
from timeseries.anomaly import run_integrated_tsad
from timeseries.errors import TsfmError
from timeseries.finetune import run_finetuning
from timeseries.forecast import predict_batch
from timeseries.forecasting import run_forecasting
from timeseries.models import clear_model_cache, load_model
from timeseries.pretrain import read_training_record, save_checkpoint
from timeseries.quality import ColumnSpec
from timeseries.requests import DataRequest, FinetuneRequest, ForecastRequest, IntegratedTsadRequest


def _csv(tmp_path: Path, frame: pd.DataFrame, name: str = "data.csv") -> Path:
    path = tmp_path / name
    frame.to_csv(path, index=False)
    return path


def test_checkpoint_round_trip_through_from_pretrained_predicts_the_same(tiny_checkpoint: Path, tmp_path: Path) -> None:
    original = load_model(str(tiny_checkpoint))
    save_checkpoint(original.model, tmp_path / "copy", {"name": "copy"})
    clear_model_cache()
    copy = load_model(str(tmp_path / "copy"))
    contexts = np.sin(np.arange(5 * 96).reshape(5, 96) / 7.0).astype(np.float32)
    assert np.allclose(predict_batch(original, contexts), predict_batch(copy, contexts), atol=1e-6)
    assert (copy.context_length, copy.prediction_length) == (96, 28)
    assert read_training_record(tmp_path / "copy") == {"name": "copy"}


def test_loading_a_directory_without_a_checkpoint_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(TsfmError, match="No TTM checkpoint"):
        load_model(str(tmp_path))


def test_forecast_covers_every_window_with_offset_timestamps(tiny_checkpoint: Path, tmp_path: Path) -> None:
    frame = sine_frame(3)
    data = DataRequest(_csv(tmp_path, frame), ColumnSpec("timestamp", ["value", "other"]))
    result = run_forecasting(ForecastRequest(data, str(tiny_checkpoint), tmp_path, forecast_horizon=10))
    payload = pd.read_json(result["results_file"], typ="series")
    predictions = np.asarray(payload["target_prediction"])
    assert predictions.shape == (len(frame) - 96 + 1, 10, 2)
    assert payload["timestamp"][0][0] == frame["timestamp"][96]
    assert payload["timestamp"][-1][0].endswith("-04:00")


def test_a_horizon_beyond_the_model_rolls_out_from_the_end_of_the_data(tiny_checkpoint: Path, tmp_path: Path) -> None:
    frame = sine_frame(3)
    data = DataRequest(_csv(tmp_path, frame), ColumnSpec("timestamp", ["value"]))
    result = run_forecasting(ForecastRequest(data, str(tiny_checkpoint), tmp_path, forecast_horizon=96))
    assert result["forecast_mode"] == "autoregressive_rollout"
    assert result["windows"] == 1
    forecast = np.asarray(pd.read_json(result["results_file"], typ="series")["target_prediction"])[0, :, 0]
    expected = np.sin(np.arange(len(frame), len(frame) + 96) * 2 * np.pi / 96)
    assert np.mean(np.abs(forecast - expected)) < 0.5  # a day ahead of a clean daily sine


def test_a_horizon_beyond_the_model_without_autoregression_is_refused(tiny_checkpoint: Path, tmp_path: Path) -> None:
    data = DataRequest(_csv(tmp_path, sine_frame(2)), ColumnSpec("timestamp", ["value"]), autoregressive_modeling=False)
    with pytest.raises(TsfmError, match="above what is supported"):
        run_forecasting(ForecastRequest(data, str(tiny_checkpoint), tmp_path, forecast_horizon=100))


def test_integrated_detection_flags_a_step_and_not_the_clean_sine(tiny_checkpoint: Path, tmp_path: Path) -> None:
    frame = sine_frame(8)
    frame.loc[600:, "other"] += 8.0  # the second column steps up; "value" stays clean
    data = DataRequest(_csv(tmp_path, frame), ColumnSpec("timestamp", ["value", "other"]))
    result = run_integrated_tsad(IntegratedTsadRequest(data, str(tiny_checkpoint), tmp_path, tmp_path / "det",
                                                       false_alarm=0.01, n_calibration=0.3))
    rows = pd.read_csv(result["results_file"])
    assert list(rows.columns) == result["columns"]
    stepped = rows[rows["KPI"] == "other"].reset_index(drop=True)
    onset = stepped.index[stepped["timestamp"] == frame["timestamp"][600]][0]
    assert stepped["anomaly_label"][onset:onset + 3].any()
    clean = rows[rows["KPI"] == "value"]
    assert clean["anomaly_label"].mean() < 0.03
    assert set(result["ad_model_checkpoints"]) == {"value", "other"}


def test_finetuning_a_tiny_slice_saves_a_checkpoint_later_calls_can_load(tiny_checkpoint: Path, tmp_path: Path) -> None:
    frame = sine_frame(10, noise=0.05)
    frame["value"] = frame["value"] * 3 + 20  # a level and scale the base model never saw
    data = DataRequest(_csv(tmp_path, frame), ColumnSpec("timestamp", ["value"]))
    lines: list[str] = []
    result = run_finetuning(
        FinetuneRequest(data, str(tiny_checkpoint), tmp_path / "tuned", tmp_path, n_finetune=0.5, n_test=0.2,
                        max_seconds=10),
        progress=lines.append,
    )
    assert lines and "fine-tuning step" in lines[0]
    for stage in ("metrics_before", "metrics_after"):
        assert set(result[stage]) >= {"mae", "rmse", "mase"} and np.isfinite(result[stage]["mae"])
    assert result["improved"] == (result["metrics_after"]["mae"] < result["metrics_before"]["mae"])
    tuned = load_model(result["model_checkpoint"])
    assert tuned.context_length == 96
    record = read_training_record(Path(result["model_checkpoint"]))
    assert record is not None and record["base_checkpoint"] == str(tiny_checkpoint)
    assert 0 < record["steps"] <= record["plan"]["max_steps"]


def test_base_names_resolve_under_the_configured_checkpoint_root(tmp_path: Path) -> None:
    from assetops.settings import Settings
    from timeseries.models import base_checkpoint_location, base_name

    local = Settings(models_dir=tmp_path)
    assert base_checkpoint_location("ttm_96_28", local) == str(tmp_path / "ttm_96_28")
    hub = Settings(models_dir=tmp_path, model_checkpoint="ibm-granite/granite-timeseries-ttm-r2")
    assert base_checkpoint_location("ttm_512_96", hub) == "ibm-granite/granite-timeseries-ttm-r2#ttm_512_96"
    assert base_name("ttm_energy_96_28") == "ttm_96_28"
    assert base_name("my_model") is None


def test_an_oversized_forecast_keeps_the_latest_windows_and_says_so(
    tiny_checkpoint: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import timeseries.forecasting as forecasting

    monkeypatch.setattr(forecasting, "MAX_FORECAST_VALUES", 28 * 10)
    frame = sine_frame(2)
    data = DataRequest(_csv(tmp_path, frame), ColumnSpec("timestamp", ["value"]))
    result = run_forecasting(ForecastRequest(data, str(tiny_checkpoint), tmp_path))
    assert result["windows"] == 10
    assert result["windows_left_out"] == len(frame) - 96 + 1 - 10
    assert "oldest windows were left out" in result["message"]
    stamps = pd.read_json(result["results_file"], typ="series")["timestamp"]
    assert stamps[-1][-1] == result["latest_forecast"]["end"]
