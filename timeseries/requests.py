"""Typed requests of the time-series tasks (paths already resolved and confined by the tool layer)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from timeseries.quality import ColumnSpec


@dataclass(frozen=True)
class DataRequest:
    """Which file, which columns, and how to read its time axis."""

    dataset: Path
    columns: ColumnSpec
    frequency_sampling: str | None = "oov"
    autoregressive_modeling: bool = True


@dataclass(frozen=True)
class ForecastRequest:
    """run_tsfm_forecasting."""

    data: DataRequest
    checkpoint: str
    output_dir: Path
    forecast_horizon: int | None = None
    include_dataquality_summary: bool = False


@dataclass(frozen=True)
class TsadRequest:
    """run_tsad: conformal detection on a forecast file."""

    data: DataRequest
    forecast_json: Path
    output_dir: Path
    task: str = "fit"
    false_alarm: float = 0.05
    ad_model_type: str = "timeseries_conformal_adaptive"
    ad_model_checkpoint: Path | None = None
    ad_model_save: Path | None = None
    n_calibration: float = 0.2


@dataclass(frozen=True)
class IntegratedTsadRequest:
    """run_integrated_tsad: forecast and detect, column by column."""

    data: DataRequest
    checkpoint: str
    output_dir: Path
    detector_dir: Path
    false_alarm: float = 0.05
    ad_model_type: str = "timeseries_conformal_adaptive"
    n_calibration: float = 0.2


@dataclass(frozen=True)
class FinetuneRequest:
    """run_tsfm_finetuning."""

    data: DataRequest
    checkpoint: str
    save_dir: Path
    output_dir: Path
    forecast_horizon: int = -1
    n_finetune: float = 0.05
    n_calibration: float = 0.0
    n_test: float = 0.05
    include_dataquality_summary: bool = False
    max_seconds: float = 45.0
    extra: dict[str, str] = field(default_factory=dict)
