"""run_tsad and run_integrated_tsad: conformal anomaly detection on TTM forecast residuals, or, for
run_integrated_tsad targets given conditional columns, on the residual of a driver model (conditional_tsad)."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from assetops.files import atomic_to_csv
from timeseries.conditional_tsad import detect_conditional
from timeseries.conformal import (
    ConformalDetector,
    Detection,
    check_ad_model_type,
    detect,
    fit_and_detect,
    load_detector,
    save_detector,
)
from timeseries.errors import TsfmError
from timeseries.forecast import forecast_all_windows
from timeseries.io import read_dataset
from timeseries.models import LoadedModel, load_model
from timeseries.quality import ColumnSpec, QualityResult, assess, output_timestamps
from timeseries.requests import IntegratedTsadRequest, TsadRequest
from timeseries.results import detection_frame, new_output_path, slug, tsad_summary
from timeseries.timestamps import parse_timestamps

log = logging.getLogger(__name__)

TASKS = ("fit", "inference")


def run_integrated_tsad(request: IntegratedTsadRequest) -> dict[str, Any]:
    """Per target column: with conditional columns, a driver model's residual (slow faults: the relation
    shifts); without, the TTM forecast residual. Then a conformal detector on that residual."""
    check_ad_model_type(request.ad_model_type)
    columns = request.data.columns
    raw = read_dataset(request.data.dataset, columns.timestamp_column)
    missing = [c for c in [*columns.target_columns, *columns.conditional_columns] if c not in raw.columns]
    if missing:
        raise TsfmError(f"{missing} not in index: the dataset has columns {list(raw.columns)[:30]}")
    targets = list(dict.fromkeys(columns.target_columns))
    needs_forecaster = any(not _drivers(columns.conditional_columns, t) for t in targets)
    loaded = load_model(request.checkpoint) if needs_forecaster else None
    frames, skipped, detectors, conditional = [], {}, {}, ConditionalReport()
    for target in targets:
        try:
            if loaded is None or _drivers(columns.conditional_columns, target):
                frame, detector = _conditional_column(raw, request, target, conditional)
            else:
                frame, detector = _integrated_column(raw, request, target, loaded)
        except TsfmError as exc:  # one bad column must not hide the others' results
            log.warning("integrated TSAD skipped %s: %s", target, exc)
            skipped[target] = str(exc)
            continue
        directory = request.detector_dir / slug(target)
        save_detector(detector, directory)
        frames.append(frame)
        detectors[target] = str(directory)
    if not frames:
        reasons = "; ".join(f"{k}: {v}" for k, v in skipped.items())
        raise TsfmError(f"No TSAD results produced for any target column. {reasons}")
    combined = pd.concat(frames, ignore_index=True)
    results_file = new_output_path(request.output_dir, "integrated_tsad", ".csv")
    atomic_to_csv(combined, results_file, index=False)
    summary = tsad_summary(combined, results_file, "Integrated TSAD complete.",
                           f" across {len(columns.target_columns)} column(s)")
    return {**summary, "model_checkpoint": loaded.source if loaded else None, "ad_model_checkpoints": detectors,
            "skipped_columns": skipped, "false_alarm": request.false_alarm, "ad_model_type": request.ad_model_type,
            **conditional.output()}


@dataclass
class ConditionalReport:
    """The extra output keys of driver-model targets: the model per target and the sustained shifts."""

    models: dict[str, dict[str, Any]] = field(default_factory=dict)
    shifts: list[dict[str, Any]] = field(default_factory=list)

    def output(self) -> dict[str, Any]:
        """Nothing when no target used a driver model (the plain contract output stays as it was)."""
        if not self.models:
            return {}
        return {"conditional_models": self.models, "sustained_anomalies": self.shifts}


def _drivers(conditional_columns: list[str], target: str) -> list[str]:
    """The conditional columns that can explain `target` (never the target itself)."""
    return [c for c in dict.fromkeys(conditional_columns) if c != target]


def _conditional_column(
    raw: pd.DataFrame, request: IntegratedTsadRequest, target: str, report: ConditionalReport
) -> tuple[pd.DataFrame, ConformalDetector]:
    """Residual of the target against its driver model on running rows; point flags and sustained shifts."""
    columns = request.data.columns
    if columns.id_columns:
        raise TsfmError("conditional_columns work on one series per call: filter the dataset to one id "
                        f"instead of passing id_columns {columns.id_columns}.")
    drivers = _drivers(columns.conditional_columns, target)
    spec = ColumnSpec(columns.timestamp_column, [target], drivers, columns.id_columns)
    quality = assess(raw, spec, frequency_sampling=request.data.frequency_sampling, min_length=1)
    dropped = [d for d in drivers if d not in quality.conditionals]
    if dropped:
        raise TsfmError(f"Conditional columns {dropped} were removed for missing values; fill or drop them.")
    found = detect_conditional(quality.frame, target, drivers, n_calibration=request.n_calibration,
                               false_alarm=request.false_alarm, ad_model_type=request.ad_model_type)
    scored = quality.frame.iloc[found.rows]
    shown = output_timestamps(quality, pd.DatetimeIndex(scored["ts"]), scored["offset_min"].to_numpy())
    report.models[target] = found.summary()
    report.shifts.extend(shift.to_dict() for shift in found.shifts)
    return detection_frame(target, shown, found.actual, found.detection), found.detector


def _integrated_column(
    raw: pd.DataFrame, request: IntegratedTsadRequest, target: str, loaded: LoadedModel
) -> tuple[pd.DataFrame, ConformalDetector]:
    spec = ColumnSpec(request.data.columns.timestamp_column, [target], [], request.data.columns.id_columns)
    quality = assess(raw, spec, frequency_sampling=request.data.frequency_sampling,
                     min_length=loaded.context_length + 1)
    actual, predicted, utc, offsets = [], [], [], []
    for segment in forecast_all_windows(loaded, quality):
        # Window w's first step lands on row w + L; the last window forecasts past the data.
        actual.append(segment.values[loaded.context_length:, 0])
        predicted.append(segment.predictions[:-1, 0, 0])
        utc.append(segment.row_utc[loaded.context_length:])
        offsets.append(segment.row_offsets_min[loaded.context_length:])
    y, y_hat = np.concatenate(actual), np.concatenate(predicted)
    detector, detection = fit_and_detect(y, y_hat, false_alarm=request.false_alarm,
                                         n_calibration=request.n_calibration, ad_model_type=request.ad_model_type)
    shown = output_timestamps(quality, _join(utc), np.concatenate(offsets))
    return detection_frame(target, shown, y, detection), detector


def _join(parts: list[pd.DatetimeIndex]) -> pd.DatetimeIndex:
    return parts[0].append(parts[1:]) if len(parts) > 1 else parts[0]


def run_tsad(request: TsadRequest) -> dict[str, Any]:
    """Align a forecast file's first steps with the data, then fit or apply a conformal detector per target."""
    if request.task not in TASKS:
        raise TsfmError("task must be 'fit' or 'inference'")
    check_ad_model_type(request.ad_model_type)
    if request.task == "inference" and request.ad_model_checkpoint is None:
        raise TsfmError(
            "task='inference' needs ad_model_checkpoint: the directory a previous run_tsad fit saved with "
            "ad_model_save (or run_integrated_tsad's ad_model_checkpoints)."
        )
    forecast = _read_forecast(request.forecast_json)
    columns = request.data.columns
    raw = read_dataset(request.data.dataset, columns.timestamp_column)
    quality = assess(raw, columns, frequency_sampling=request.data.frequency_sampling, min_length=1)
    frames, saved = [], {}
    for target in quality.targets:
        if target not in forecast["target_columns"]:
            raise TsfmError(
                f"Target '{target}' is not in the forecast file's target_columns {forecast['target_columns']}; "
                "forecast it first with run_tsfm_forecasting."
            )
        y, y_hat, shown = _align(quality, forecast, target)
        detection, directory = _fit_or_apply(request, target, y, y_hat, multiple=len(quality.targets) > 1)
        frames.append(detection_frame(target, shown, y, detection))
        if directory is not None:
            saved[target] = str(directory)
    combined = pd.concat(frames, ignore_index=True)
    results_file = new_output_path(request.output_dir, "tsad_output", ".csv")
    atomic_to_csv(combined, results_file, index=False)
    extra = {"false_alarm": request.false_alarm, "ad_model_type": request.ad_model_type} if request.task == "fit" else {}
    return {**tsad_summary(combined, results_file, "Anomaly detection complete."), "ad_model_checkpoints": saved,
            **extra}


def _read_forecast(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise TsfmError(f"tsfm_output_json file not found: {path}. Run run_tsfm_forecasting first.")
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise TsfmError(f"tsfm_output_json {path.name} is not valid JSON: {exc}") from exc
    if not isinstance(payload, dict) or not {"target_prediction", "timestamp"} <= payload.keys():
        raise TsfmError(f"tsfm_output_json {path.name} lacks target_prediction / timestamp (a forecast file).")
    payload.setdefault("target_columns", [])
    return payload


def _align(quality: QualityResult, forecast: dict[str, Any], target: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Match each window's first forecast step to the observation at that time (±20% of a step)."""
    index = forecast["target_columns"].index(target)
    first_steps = [row[0] for row in forecast["timestamp"] if row]
    predicted = np.asarray([window[0][index] for window in forecast["target_prediction"] if window], dtype=float)
    stamps = parse_timestamps(pd.Series(first_steps, dtype="string"), "timestamp").utc
    forecasts = pd.DataFrame({"ts": stamps, "y_hat": predicted}).dropna().sort_values("ts")
    observed = quality.frame[["ts", "offset_min", target]].sort_values("ts")
    matched = pd.merge_asof(observed, forecasts, on="ts", direction="nearest",
                            tolerance=quality.frequency * 0.2).dropna(subset=["y_hat"])
    if matched.empty:
        raise TsfmError(f"No forecast step of the file falls on an observation of '{target}'; check the files match.")
    shown = output_timestamps(quality, pd.DatetimeIndex(matched["ts"]), matched["offset_min"].to_numpy())
    return matched[target].to_numpy(), matched["y_hat"].to_numpy(), shown


def _fit_or_apply(
    request: TsadRequest, target: str, y: np.ndarray, y_hat: np.ndarray, *, multiple: bool
) -> tuple[Detection, Path | None]:
    if request.task == "inference":
        checkpoint = request.ad_model_checkpoint or Path()
        return detect(load_detector(_detector_dir(checkpoint, target)), y, y_hat), None
    detector, detection = fit_and_detect(y, y_hat, false_alarm=request.false_alarm,
                                         n_calibration=request.n_calibration, ad_model_type=request.ad_model_type)
    if request.ad_model_save is None:
        return detection, None
    directory = request.ad_model_save / slug(target) if multiple else request.ad_model_save
    save_detector(detector, directory)
    return detection, directory


def _detector_dir(root: Path, target: str) -> Path:
    """A detector saved for one target sits in `root`; one of several in `root/<slug>`."""
    return root if (root / "config.json").is_file() else root / slug(target)

