"""Conditional (driver-model) anomaly detection: off rows, the fitted relation, point flags and sustained shifts."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tests.unit.timeseries.fixtures import DRIVERS, chiller_frame
from timeseries.conditional import fit_conditional, running_mask, running_rule
from timeseries.conditional_tsad import detect_conditional
from timeseries.errors import TsfmError
from timeseries.sustained import DailyResiduals, _cusum_runs, find_sustained_shifts


def test_off_rows_and_the_warm_up_after_each_start_are_not_running() -> None:
    frame = pd.DataFrame({"Tonnage": [0, 0, 50, 60, 70, 0, 80, 80, 80], "x": range(9)})
    rule = running_rule(frame, ["x", "Tonnage"], np.ones(9, dtype=bool))
    assert rule.load_columns == ["Tonnage"]
    assert running_mask(frame, rule).tolist() == [False, False, False, False, True, False, False, False, True]


def test_without_a_load_column_every_row_runs() -> None:
    frame = pd.DataFrame({"Setpoint Temperature": [44.0, 0.0, 45.0]})
    rule = running_rule(frame, ["Setpoint Temperature"], np.ones(3, dtype=bool))
    assert running_mask(frame, rule).all()
    assert "every row is scored" in rule.describe()


def test_the_driver_model_recovers_a_quadratic_load_relation() -> None:
    rng = np.random.default_rng(3)
    load, temperature = rng.uniform(20, 100, 500), rng.uniform(65, 85, 500)
    truth = 5 + 0.02 * load ** 2 + 3 * temperature + 0.05 * load * temperature
    frame = pd.DataFrame({"y": truth, "Chiller % Loaded": load, "t": temperature})
    model = fit_conditional(frame, "y", ["Chiller % Loaded", "t"])
    assert model.r_squared > 0.9999
    np.testing.assert_allclose(model.predict(frame), truth, rtol=1e-4)


def test_too_few_calibration_rows_is_an_actionable_error() -> None:
    frame = pd.DataFrame({"y": np.arange(10.0), "x": np.arange(10.0)})
    with pytest.raises(TsfmError, match="longer window or a larger n_calibration"):
        fit_conditional(frame, "y", ["x"])


def test_cusum_alarms_on_the_day_the_sum_first_exceeds_h_and_dates_the_change_from_its_start() -> None:
    z = np.r_[np.zeros(5), np.full(10, 2.0)]  # each shifted day adds 2 - 0.5 = 1.5
    (start, alarm, stop), = _cusum_runs(z, 0.5, 6.0)
    assert (start, alarm, stop) == (5, 9, 14)  # 1.5 x 5 = 7.5 > 6 on the fifth shifted day


def test_the_episode_view_needs_enough_calibration_days() -> None:
    daily = DailyResiduals(pd.date_range("2021-05-01", periods=6, freq="D"), np.zeros(6), np.ones(6),
                           np.array([True, True, False, False, False, False]))
    shifts, note = find_sustained_shifts("Power Input", daily)
    assert shifts == [] and note is not None and "calibration days" in note


def test_a_slow_rise_of_power_at_equal_load_is_a_sustained_shift_after_its_onset() -> None:
    frame = chiller_frame(40, fault_from_day=22)
    found = detect_conditional(frame, "Power Input", DRIVERS, n_calibration=0.5, false_alarm=0.05,
                               ad_model_type="timeseries_conformal")
    onset = frame["ts"].iloc[22 * 96]
    assert found.shifts, "the fouling-like rise was not found"
    first = found.shifts[0]
    assert first.direction == "above" and first.flagged_from >= onset.floor("D")
    assert 0 < first.relative_shift_pct < 8.0
    assert found.excluded_off_rows >= 40 * 96 * 10 // 24  # the ten off hours of every day


def test_a_fault_free_chiller_has_no_sustained_shift_and_about_false_alarm_point_flags() -> None:
    frame = chiller_frame(40, seed=5)
    found = detect_conditional(frame, "Power Input", DRIVERS, n_calibration=0.5, false_alarm=0.05,
                               ad_model_type="timeseries_conformal")
    assert found.shifts == []
    test_flags = found.detection.anomaly_label[found.detection.split == "test"]
    assert test_flags.mean() < 0.1


def test_rows_whose_drivers_leave_the_calibration_range_are_not_scored() -> None:
    frame = chiller_frame(20)
    frame.loc[frame.index[-96:], DRIVERS[1]] = 120.0  # a condenser temperature never seen in calibration
    found = detect_conditional(frame, "Power Input", DRIVERS, n_calibration=0.5, false_alarm=0.05,
                               ad_model_type="timeseries_conformal")
    assert found.outside_calibration_range_rows > 0
    assert not set(found.rows) & set(range(len(frame) - 96, len(frame)))
