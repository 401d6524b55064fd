"""Server `tsfm`: time-series foundation models (TinyTimeMixer) for forecasting, fine-tuning and
conformal anomaly detection. The modelling lives in the `timeseries` package; this module validates
arguments, confines file paths to the work directory and runs the work off the event loop.

torch and granite-tsfm load on the first run call, so listing the tools stays cheap.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Annotated, Any

from pydantic import Field

from timeseries.quality import ColumnSpec
from timeseries.requests import (
    DataRequest,
    FinetuneRequest,
    ForecastRequest,
    IntegratedTsadRequest,
    TsadRequest,
)
from timeseries.ttm_config import BASE_CHECKPOINTS, DEFAULT_CHECKPOINT
from tools.framework import ToolError, tool, tool_context
from tools.framework.paths import resolve_in_workdir

OUTPUT_SUBDIR = "tsfm"  # result files land in <workdir>/tsfm/
DETECTOR_SUBDIR = "tsad_model_save"
ENERGY_ALIASES = {"ttm_energy_96_28": "ttm_96_28", "ttm_energy_512_96": "ttm_512_96"}

DatasetPath = Annotated[str, Field(description="Dataset file (.csv, .json or .xlsx) inside the work directory, "
                                               "e.g. a file written by iot.history_csv. Example: chiller9_june.csv")]
TimestampColumn = Annotated[str, Field(description="Name of the timestamp column (ISO-8601, offsets allowed). "
                                                   "Example: timestamp")]
TargetColumns = Annotated[list[str], Field(description="Columns to forecast / analyse. "
                                                       "Example: [\"Chiller 9 Supply Temperature\"]")]
ModelCheckpoint = Annotated[str | None, Field(description="ttm_96_28 (default), ttm_512_96, or a fine-tuned "
                                                          "checkpoint directory in the work directory.")]
ConditionalColumns = Annotated[list[str] | None, Field(description="Exogenous columns (checked to exist; the "
                                                                   "channel-independent models do not use them).")]
DriverColumns = Annotated[list[str] | None, Field(description=(
    "Drivers of the targets (e.g. for 'Chiller 6 Power Input': ['Chiller 6 Chiller % Loaded', 'Chiller 6 "
    "Tonnage', 'Chiller 6 Condenser Water Supply To Chiller Temperature', 'Chiller 6 Setpoint Temperature']). "
    "When given, each target is compared with its expected value at those conditions (learnt on the "
    "calibration part, off periods excluded) instead of its forecast: slow faults such as fouling show as "
    "sustained_anomalies. One series per call (no id_columns)."))]
IdColumns = Annotated[list[str] | None, Field(description="Columns identifying separate series. Example: [\"asset_id\"]")]
FrequencySampling = Annotated[str, Field(description="oov (estimate), minutely, 2_minutes, 5_minutes, 10_minutes, "
                                                     "15_minutes, half_hourly or hourly.")]
Autoregressive = Annotated[bool, Field(description="Allow horizons beyond the model's by feeding forecasts back.")]
FalseAlarm = Annotated[float, Field(description="Target false-alarm rate of the conformal detector. Example: 0.05")]
AdModelType = Annotated[str, Field(description="timeseries_conformal_adaptive (sliding calibration) or "
                                               "timeseries_conformal (fixed threshold).")]
NCalibration = Annotated[float, Field(description="Calibration points: a fraction (< 1) of the aligned points or "
                                                  "a count. Example: 0.2")]


def _modules() -> tuple[ModuleType, ...]:
    """The heavy modules (torch, granite-tsfm), imported on first use."""
    try:
        return tuple(importlib.import_module(f"timeseries.{name}")
                     for name in ("forecasting", "anomaly", "finetune", "models"))
    except ImportError as exc:
        raise ToolError(f"tsfm dependencies unavailable: {exc}") from exc


def _call(fn: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
    """Run a task, turning its actionable errors into tool errors."""
    from timeseries.errors import TsfmError

    try:
        return fn(*args)
    except (TsfmError, ValueError, KeyError, OSError) as exc:
        raise ToolError(str(exc).strip() or type(exc).__name__) from exc


def _checkpoint(value: str | None) -> str:
    """A base name -> its location under the checkpoint root; anything else must be a dir in the work dir."""
    from timeseries.models import base_checkpoint_location, base_name

    name = (value or "").strip() or DEFAULT_CHECKPOINT
    base = base_name(name)
    if base is not None:
        return base_checkpoint_location(base, tool_context().settings)
    path = resolve_in_workdir("model_checkpoint", name)
    if not path.is_dir():
        raise ToolError(
            f"Unknown model_checkpoint '{name}': use ttm_96_28, ttm_512_96 or the model_checkpoint directory "
            "returned by run_tsfm_finetuning."
        )
    return str(path)


def _data(dataset_path: str, timestamp_column: str, target_columns: list[str], conditional_columns: list[str] | None,
          id_columns: list[str] | None, frequency_sampling: str | None, autoregressive_modeling: bool) -> DataRequest:
    if not dataset_path or not dataset_path.strip():
        raise ToolError("dataset_path is required")
    if not target_columns or not all(isinstance(c, str) and c.strip() for c in target_columns):
        raise ToolError("target_columns must not be empty (give column names such as 'Chiller 9 Supply Temperature')")
    path = resolve_in_workdir("dataset_path", dataset_path, must_exist=True)
    columns = ColumnSpec(timestamp_column, list(target_columns), list(conditional_columns or []), list(id_columns or []))
    return DataRequest(path, columns, frequency_sampling, autoregressive_modeling)


def _output_dir() -> Path:
    return tool_context().workdir / OUTPUT_SUBDIR


@tool("tsfm")
def get_ai_tasks() -> dict[str, Any]:
    """List the time-series AI tasks this server supports (anomaly detection, forecasting, fine-tuning)."""
    return {"tasks": [
        {"task_id": "tsfm_integrated_tsad", "task_description": "Time series Anomaly detection"},
        {"task_id": "tsfm_forecasting", "task_description": "Time series Multivariate Forecasting"},
        {"task_id": "tsfm_forecasting_finetune", "task_description": "Finetuning of Multivariate Forecasting models"},
        {"task_id": "tsfm_forecasting_evaluation", "task_description": "Evaluation of Forecasting models"},
    ]}


@tool("tsfm")
def get_tsfm_models() -> dict[str, Any]:
    """List the pretrained TinyTimeMixer models with their context and horizon lengths."""
    models = []
    for model_id in ("ttm_96_28", "ttm_512_96", "ttm_energy_96_28", "ttm_energy_512_96"):
        spec = BASE_CHECKPOINTS[ENERGY_ALIASES.get(model_id, model_id)]
        energy = " tuned on energy data" if model_id in ENERGY_ALIASES else ""
        models.append({
            "model_id": model_id, "model_checkpoint": spec.name,
            "model_description": f"Pretrained forecasting model{energy} with context length {spec.context_length}",
            "context_length": spec.context_length, "prediction_length": spec.prediction_length,
        })
    return {"models": models}


@tool("tsfm", cpu_bound=True, cacheable=False, input_files=("dataset_path", "model_checkpoint"))
def run_tsfm_forecasting(
    dataset_path: DatasetPath,
    timestamp_column: TimestampColumn,
    target_columns: TargetColumns,
    model_checkpoint: ModelCheckpoint = None,
    forecast_horizon: Annotated[int | None, Field(description="Steps ahead; null/-1 = the model's horizon (28 "
                                                              "for ttm_96_28); larger values roll the model "
                                                              "forward from the end of the data. Example: 672")] = None,
    conditional_columns: ConditionalColumns = None,
    id_columns: IdColumns = None,
    frequency_sampling: FrequencySampling = "oov",
    autoregressive_modeling: Autoregressive = True,
    include_dataquality_summary: Annotated[bool, Field(description="Return the data-quality summary too.")] = False,
) -> dict[str, Any]:
    """Zero-shot TTM forecast of the target columns; writes predictions (windows x horizon x targets) to JSON."""
    forecasting = _modules()[0]
    data = _data(dataset_path, timestamp_column, target_columns, conditional_columns, id_columns,
                 frequency_sampling, autoregressive_modeling)
    request = ForecastRequest(data, _checkpoint(model_checkpoint), _output_dir(), forecast_horizon,
                              include_dataquality_summary)
    return _call(forecasting.run_forecasting, request)


@tool("tsfm", cpu_bound=True, cacheable=False, timeout_s=300.0)
def run_tsfm_finetuning(
    dataset_path: DatasetPath,
    timestamp_column: TimestampColumn,
    target_columns: TargetColumns,
    model_checkpoint: ModelCheckpoint = None,
    save_model_dir: Annotated[str, Field(description="Directory (in the work dir) for the tuned model.")] = "tuned_models",
    forecast_horizon: Annotated[int, Field(description="Horizon the metrics cover; -1 = the model's.")] = -1,
    n_finetune: Annotated[float, Field(description="Training windows: fraction (<= 1) or count. Example: 0.05")] = 0.05,
    n_calibration: Annotated[float, Field(description="Reserved for calibration; not used by fine-tuning.")] = 0.0,
    n_test: Annotated[float, Field(description="Held-out test rows per segment: fraction (<= 1) or count.")] = 0.05,
    conditional_columns: ConditionalColumns = None,
    id_columns: IdColumns = None,
    frequency_sampling: FrequencySampling = "oov",
    autoregressive_modeling: Autoregressive = True,
    include_dataquality_summary: Annotated[bool, Field(description="Add the data-quality summary to the results.")] = False,
) -> dict[str, Any]:
    """Fine-tune a TTM on the dataset (bounded, early stopping); reports test metrics before and after."""
    finetune = _modules()[2]
    data = _data(dataset_path, timestamp_column, target_columns, conditional_columns, id_columns,
                 frequency_sampling, autoregressive_modeling)
    request = FinetuneRequest(
        data, _checkpoint(model_checkpoint), resolve_in_workdir("save_model_dir", save_model_dir), _output_dir(),
        forecast_horizon, n_finetune, n_calibration, n_test, include_dataquality_summary,
    )
    return _call(finetune.run_finetuning, request)


@tool("tsfm", cpu_bound=True, cacheable=False, input_files=("dataset_path", "tsfm_output_json", "ad_model_checkpoint"))
def run_tsad(
    dataset_path: DatasetPath,
    tsfm_output_json: Annotated[str, Field(description="Forecast file from run_tsfm_forecasting (in the work dir).")],
    timestamp_column: TimestampColumn,
    target_columns: TargetColumns,
    task: Annotated[str, Field(description="fit (calibrate a detector) or inference (apply a saved one).")] = "fit",
    false_alarm: FalseAlarm = 0.05,
    ad_model_type: AdModelType = "timeseries_conformal_adaptive",
    ad_model_checkpoint: Annotated[str | None, Field(description="Saved detector dir (needed for inference).")] = None,
    ad_model_save: Annotated[str | None, Field(description="Dir to save the fitted detector in.")] = None,
    n_calibration: NCalibration = 0.2,
    conditional_columns: ConditionalColumns = None,
    id_columns: IdColumns = None,
    frequency_sampling: Annotated[str | None, Field(description="As for forecasting; null = estimate.")] = None,
    autoregressive_modeling: Autoregressive = True,
) -> dict[str, Any]:
    """Conformal anomaly detection on a forecast file: flags observations outside the forecast bounds."""
    anomaly = _modules()[1]
    if not tsfm_output_json or not tsfm_output_json.strip():
        raise ToolError("tsfm_output_json is required")
    data = _data(dataset_path, timestamp_column, target_columns, conditional_columns, id_columns,
                 frequency_sampling or "", autoregressive_modeling)
    request = TsadRequest(
        data, resolve_in_workdir("tsfm_output_json", tsfm_output_json, must_exist=True), _output_dir(), task,
        false_alarm, ad_model_type,
        resolve_in_workdir("ad_model_checkpoint", ad_model_checkpoint) if ad_model_checkpoint else None,
        resolve_in_workdir("ad_model_save", ad_model_save) if ad_model_save else None, n_calibration,
    )
    return _call(anomaly.run_tsad, request)


@tool("tsfm", cpu_bound=True, cacheable=False, input_files=("dataset_path", "model_checkpoint"))
def run_integrated_tsad(
    dataset_path: DatasetPath,
    timestamp_column: TimestampColumn,
    target_columns: TargetColumns,
    model_checkpoint: ModelCheckpoint = None,
    false_alarm: FalseAlarm = 0.05,
    ad_model_type: AdModelType = "timeseries_conformal_adaptive",
    n_calibration: NCalibration = 0.2,
    conditional_columns: DriverColumns = None,
    id_columns: IdColumns = None,
    frequency_sampling: FrequencySampling = "",
    autoregressive_modeling: Autoregressive = True,
) -> dict[str, Any]:
    """Flag anomalies column by column with a conformal detector on the TTM forecast residual, or, with
    conditional_columns, on the residual from the target's driver model (plus sustained shifts)."""
    anomaly = _modules()[1]
    data = _data(dataset_path, timestamp_column, target_columns, conditional_columns, id_columns,
                 frequency_sampling, autoregressive_modeling)
    request = IntegratedTsadRequest(
        data, _checkpoint(model_checkpoint), _output_dir(), tool_context().workdir / DETECTOR_SUBDIR,
        false_alarm, ad_model_type, n_calibration,
    )
    return _call(anomaly.run_integrated_tsad, request)
