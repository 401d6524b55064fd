"""Conformal detection numerics on series with known answers."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from timeseries.conformal import detect, fit_and_detect, load_detector, save_detector
from timeseries.errors import TsfmError


def _noise(n: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).normal(0, 1, n)


def test_a_step_change_is_flagged() -> None:
    actual = _noise(1000) * 0.1
    actual[700:] += 3.0
    predicted = np.zeros(1000)  # a forecaster that has not seen the step yet
    _, detection = fit_and_detect(actual, predicted, false_alarm=0.01, n_calibration=0.3,
                                  ad_model_type="timeseries_conformal")
    assert detection.anomaly_label[700:].all()
    assert detection.anomaly_label[:700].mean() < 0.03


def test_a_clean_sine_forecast_within_noise_is_not_flagged() -> None:
    steps = np.arange(2000)
    actual = np.sin(steps * 2 * np.pi / 96)
    predicted = actual + 1e-4 * np.sin(steps * 0.37)  # a near-perfect forecast
    for kind in ("timeseries_conformal", "timeseries_conformal_adaptive"):
        _, detection = fit_and_detect(actual, predicted, false_alarm=0.05, n_calibration=0.2, ad_model_type=kind)
        assert not detection.anomaly_label.any()


@pytest.mark.parametrize("false_alarm", [0.02, 0.1, 0.25])
def test_false_alarm_controls_the_flag_rate_on_exchangeable_residuals(false_alarm: float) -> None:
    actual, predicted = _noise(20_000, seed=3), np.zeros(20_000)
    for kind in ("timeseries_conformal", "timeseries_conformal_adaptive"):
        _, detection = fit_and_detect(actual, predicted, false_alarm=false_alarm, n_calibration=2000,
                                      ad_model_type=kind)
        rate = detection.anomaly_label[detection.split == "test"].mean()
        assert abs(rate - false_alarm) < 0.25 * false_alarm + 0.005


def test_static_threshold_is_the_conformal_rank_of_the_calibration_scores() -> None:
    actual = np.r_[np.arange(1.0, 20.0), [0.5, 30.0]] * 100  # 19 calibration scores 100..1900, then 2 tests
    predicted = np.zeros_like(actual)
    _, detection = fit_and_detect(actual, predicted, false_alarm=0.1, n_calibration=19,
                                  ad_model_type="timeseries_conformal")
    rank = math.ceil((19 + 1) * (1 - 0.1))  # 18th smallest of 100..1900 -> 1800
    assert detection.upper_bound[-1] == pytest.approx(rank * 100)
    assert detection.anomaly_label.tolist()[-2:] == [False, True]
    # score 3000 is above all 19 scores: only the +inf one is greater -> p = 1/20
    assert detection.anomaly_score[-1] == pytest.approx(1 - 1 / 20)
    assert detection.split.tolist()[:19] == ["calibration"] * 19


def test_too_few_calibration_points_is_an_error_with_the_needed_count() -> None:
    with pytest.raises(TsfmError, match="at least 20"):
        fit_and_detect(_noise(100), np.zeros(100), false_alarm=0.05, n_calibration=0.1,
                       ad_model_type="timeseries_conformal_adaptive")


def test_saved_detector_reproduces_the_static_labels(tmp_path: Path) -> None:
    actual, predicted = _noise(600, seed=5), np.zeros(600)
    detector, _ = fit_and_detect(actual[:300], predicted[:300], false_alarm=0.05, n_calibration=200,
                                 ad_model_type="timeseries_conformal")
    save_detector(detector, tmp_path / "detector")
    again = load_detector(tmp_path / "detector")
    first = detect(detector, actual[300:], predicted[300:])
    second = detect(again, actual[300:], predicted[300:])
    assert np.array_equal(first.anomaly_label, second.anomaly_label)
    assert np.allclose(first.upper_bound, second.upper_bound)


def test_loading_from_a_directory_without_a_detector_says_how_to_make_one(tmp_path: Path) -> None:
    with pytest.raises(TsfmError, match="task='fit' and ad_model_save"):
        load_detector(tmp_path)
