"""Split and adaptive conformal anomaly detection on forecast residuals.

Nonconformity score: |y - ŷ|. The threshold is the conformal quantile at level 1 - false_alarm of the
calibration scores plus one +inf score, so on exchangeable data a point is flagged with probability at
most `false_alarm`. The adaptive variant slides the calibration window over the most recent scores
(online recalibration); the split variant keeps the calibration threshold.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from timeseries.errors import TsfmError

AD_MODEL_TYPES = ("timeseries_conformal_adaptive", "timeseries_conformal")
# A forecast that is nearly perfect yields nearly-zero quantiles, and then every numerical wiggle of
# a flat or perfectly periodic signal would be flagged at the false-alarm rate. Deviations smaller
# than this fraction of the calibration data's spread are never anomalous.
MIN_DEVIATION_FRACTION = 0.05
_CHUNK = 2048
CONFIG_FILE, MODEL_FILE = "config.json", "model.json"


@dataclass
class ConformalDetector:
    """A fitted detector: the calibration scores it compares new residuals with."""

    false_alarm: float
    ad_model_type: str
    calibration_scores: np.ndarray
    min_deviation: float

    @property
    def adaptive(self) -> bool:
        """True when the calibration window slides with the data."""
        return self.ad_model_type == "timeseries_conformal_adaptive"


@dataclass
class Detection:
    """Per-point outputs, aligned with the inputs."""

    upper_bound: np.ndarray
    lower_bound: np.ndarray
    anomaly_score: np.ndarray
    anomaly_label: np.ndarray
    split: np.ndarray


def calibration_size(n_calibration: float, total: int, false_alarm: float) -> int:
    """Points used for calibration: a fraction of `total` when < 1, a count otherwise."""
    if not 0 < false_alarm < 1:
        raise TsfmError(f"false_alarm must be between 0 and 1 (exclusive), got {false_alarm}.")
    if n_calibration <= 0:
        raise TsfmError(f"n_calibration must be > 0 (a fraction < 1 or a count), got {n_calibration}.")
    size = math.ceil(n_calibration * total) if n_calibration < 1 else int(n_calibration)
    needed = math.ceil(1 / false_alarm)
    if size < needed:
        raise TsfmError(
            f"n_calibration gives {size} calibration points but at least {needed} are needed at "
            f"false_alarm {false_alarm}: use more data, a larger n_calibration or a larger false_alarm."
        )
    if size >= total:
        raise TsfmError(f"n_calibration ({size} points) leaves none of the {total} aligned points to test.")
    return size


def check_ad_model_type(ad_model_type: str) -> None:
    """Reject unknown detector types with the list of known ones."""
    if ad_model_type not in AD_MODEL_TYPES:
        raise TsfmError(f"ad_model_type must be one of {list(AD_MODEL_TYPES)}, got '{ad_model_type}'.")


def fit_and_detect(
    actual: np.ndarray, predicted: np.ndarray, *, false_alarm: float, n_calibration: float, ad_model_type: str
) -> tuple[ConformalDetector, Detection]:
    """Calibrate on the first points, then label every point (the calibration ones included)."""
    check_ad_model_type(ad_model_type)
    scores = np.abs(actual - predicted)
    size = calibration_size(n_calibration, len(scores), false_alarm)
    calibration = scores[:size]
    min_deviation = MIN_DEVIATION_FRACTION * float(np.std(actual[:size]))
    static = ConformalDetector(false_alarm, ad_model_type, calibration, min_deviation)
    thresholds, tail_prob = np.empty(len(scores)), np.empty(len(scores))
    thresholds[:size], tail_prob[:size] = _static_stats(calibration, scores[:size], false_alarm)
    if static.adaptive:
        thresholds[size:], tail_prob[size:] = _sliding_stats(scores, size, false_alarm)
        final = ConformalDetector(false_alarm, ad_model_type, scores[-size:].copy(), min_deviation)
    else:
        thresholds[size:], tail_prob[size:] = _static_stats(calibration, scores[size:], false_alarm)
        final = static
    split = np.where(np.arange(len(scores)) < size, "calibration", "test")
    return final, _detection(predicted, scores, thresholds, tail_prob, min_deviation, split)


def detect(detector: ConformalDetector, actual: np.ndarray, predicted: np.ndarray) -> Detection:
    """Label new points with a saved detector (adaptive ones keep sliding from the saved window)."""
    scores = np.abs(actual - predicted)
    if detector.adaptive:
        history = np.concatenate([detector.calibration_scores, scores])
        thresholds, tail_prob = _sliding_stats(history, len(detector.calibration_scores), detector.false_alarm)
    else:
        thresholds, tail_prob = _static_stats(detector.calibration_scores, scores, detector.false_alarm)
    split = np.full(len(scores), "test", dtype=object)
    return _detection(predicted, scores, thresholds, tail_prob, detector.min_deviation, split)


def _detection(
    predicted: np.ndarray, scores: np.ndarray, thresholds: np.ndarray, tail_prob: np.ndarray,
    min_deviation: float, split: np.ndarray,
) -> Detection:
    effective = np.maximum(thresholds, min_deviation)
    return Detection(
        upper_bound=predicted + effective,
        lower_bound=predicted - effective,
        anomaly_score=1.0 - tail_prob,
        anomaly_label=scores > effective,
        split=np.asarray(split, dtype=object),
    )


def _quantile_rank(size: int, false_alarm: float) -> int:
    """1-based rank of the conformal quantile among `size` scores (size + 1 means +inf)."""
    return math.ceil((size + 1) * (1 - false_alarm))


def _static_stats(calibration: np.ndarray, scores: np.ndarray, false_alarm: float) -> tuple[np.ndarray, np.ndarray]:
    ordered = np.sort(calibration)
    rank = _quantile_rank(len(ordered), false_alarm)
    threshold = np.inf if rank > len(ordered) else ordered[rank - 1]
    greater = len(ordered) - np.searchsorted(ordered, scores, side="right")
    tail = (greater + 1) / (len(ordered) + 1)  # the +inf score is always greater
    return np.full(len(scores), threshold), tail


def _sliding_stats(scores: np.ndarray, size: int, false_alarm: float) -> tuple[np.ndarray, np.ndarray]:
    """For each point after the first `size`: threshold and tail probability from the `size` before it."""
    windows = sliding_window_view(scores, size)[:-1]  # window t covers scores[t : t+size]
    targets = scores[size:]
    rank = _quantile_rank(size, false_alarm)
    thresholds = np.empty(len(targets))
    tail = np.empty(len(targets))
    for start in range(0, len(targets), _CHUNK):
        block = windows[start:start + _CHUNK]
        if rank > size:
            thresholds[start:start + _CHUNK] = np.inf
        else:
            thresholds[start:start + _CHUNK] = np.partition(block, rank - 1, axis=1)[:, rank - 1]
        greater = (block > targets[start:start + _CHUNK, None]).sum(axis=1)
        tail[start:start + _CHUNK] = (greater + 1) / (size + 1)
    return thresholds, tail


def save_detector(detector: ConformalDetector, directory: Path) -> None:
    """Write config.json and model.json (plain JSON: nothing executable is ever loaded back)."""
    directory.mkdir(parents=True, exist_ok=True)
    config = {"context_length": 1, "false_alarm": detector.false_alarm, "ad_model_type": detector.ad_model_type,
              "n_calibration": len(detector.calibration_scores), "min_deviation": detector.min_deviation}
    (directory / CONFIG_FILE).write_text(json.dumps(config, indent=2), encoding="utf-8")
    payload = {"calibration_scores": detector.calibration_scores.tolist()}
    (directory / MODEL_FILE).write_text(json.dumps(payload), encoding="utf-8")


def load_detector(directory: Path) -> ConformalDetector:
    """Read a detector written by `save_detector`; a clear error when there is none."""
    if not (directory / CONFIG_FILE).is_file() or not (directory / MODEL_FILE).is_file():
        raise TsfmError(
            f"No saved anomaly detector in '{directory}' (config.json and model.json expected). Run run_tsad "
            "with task='fit' and ad_model_save=<dir> first, then pass that dir as ad_model_checkpoint."
        )
    config = json.loads((directory / CONFIG_FILE).read_text(encoding="utf-8"))
    scores = np.asarray(json.loads((directory / MODEL_FILE).read_text(encoding="utf-8"))["calibration_scores"])
    check_ad_model_type(str(config.get("ad_model_type")))
    return ConformalDetector(float(config["false_alarm"]), str(config["ad_model_type"]), scores,
                             float(config.get("min_deviation", 0.0)))
