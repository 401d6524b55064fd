"""Pure statistics of the timeseries specialist on hand-made series with known answers."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from specialists.common.derived import EVAP_APPROACH, KW_PER_TON, add_derived_signals
from specialists.common.trend import longest_flat_run_hours, slope_per_day, trend_table
from specialists.timeseries.anomaly import flagged_runs, summarise_anomalies
from specialists.timeseries.forecast import forecast_errors, plan_horizon, requested_steps, summarise_forecast
from specialists.timeseries.load_bins import load_bins
from specialists.timeseries.thresholds import signal_for_rule, suggest_threshold
from specialists.timeseries.tsfm_retry import corrected_tsfm_args, needs_longer_window
from tests.unit.specialists_timeseries.synthetic import chiller_frame, ramp


def test_slope_per_day_recovers_a_known_linear_trend() -> None:
    index = pd.date_range("2021-01-01", periods=10 * 96, freq="15min", tz="UTC")
    series = pd.Series(5.0 + 0.3 * np.arange(len(index)) / 96, index=index)
    assert slope_per_day(series) == pytest.approx(0.3, rel=1e-6)


def test_trend_table_flags_a_drifting_sensor_and_leaves_the_others_alone() -> None:
    frame = chiller_frame(days=28)
    offset = 2.0 * ramp(frame, 0.3)
    frame["Return Temperature"] += offset
    trends = {t.sensor: t for t in trend_table(frame)}
    assert "drift_up" in trends["Return Temperature"].flags
    # drift = last quarter vs first quarter, at equal load: the median offset of the last quarter
    assert trends["Return Temperature"].drift == pytest.approx(
        np.median(offset[-len(offset) // 4 :]), abs=0.15
    )
    assert not any(f.startswith("drift") for f in trends["Supply Temperature"].flags)


def test_trend_table_flags_a_stuck_sensor_and_missing_data() -> None:
    frame = chiller_frame(days=7)
    frame.iloc[100:160, frame.columns.get_loc("Supply Temperature")] = 44.3  # 15 hours frozen
    frame.iloc[300:400, frame.columns.get_loc("Tonnage")] = np.nan  # 100 of 672 samples missing
    trends = {t.sensor: t for t in trend_table(frame, running_only=False)}
    assert "stuck" in trends["Supply Temperature"].flags
    assert trends["Supply Temperature"].longest_flat_hours == pytest.approx(59 * 0.25)
    assert trends["Tonnage"].missing_pct == pytest.approx(100 / 672 * 100, abs=0.2)
    assert "missing_data" in trends["Tonnage"].flags
    assert "stuck" not in trends["Setpoint Temperature"].flags  # constant by design


def test_longest_flat_run_counts_consecutive_equal_values_only() -> None:
    series = pd.Series([1.0, 1.0, 1.0, 2.0, 2.0, 3.0])
    assert longest_flat_run_hours(series, minutes_per_sample=15) == pytest.approx(0.5)


def test_derived_signals_compute_approach_and_kw_per_ton() -> None:
    frame = pd.DataFrame(
        {
            "Supply Temperature": [44.0],
            "Liquid Refrigerant Evaporator Temperature": [41.5],
            "Power Input": [300.0],
            "Tonnage": [500.0],
        }
    )
    derived = add_derived_signals(frame)
    assert derived[EVAP_APPROACH].iloc[0] == pytest.approx(2.5)
    assert derived[KW_PER_TON].iloc[0] == pytest.approx(0.6)


def test_load_bins_show_the_approach_growing_with_load() -> None:
    report = load_bins(chiller_frame(days=7))
    populated = [b for b in report.bins if b.samples]
    assert len(populated) == 3
    assert populated[-1].means[EVAP_APPROACH] > populated[0].means[EVAP_APPROACH]
    assert report.high_minus_low[EVAP_APPROACH] > 0.5


def test_load_bins_without_a_load_sensor_say_so() -> None:
    with pytest.raises(ValueError, match="Chiller % Loaded"):
        load_bins(chiller_frame(days=2).drop(columns=["Chiller % Loaded"]))


def test_threshold_levels_count_alert_episodes_and_the_reduction() -> None:
    index = pd.date_range("2021-01-01", periods=1000, freq="15min", tz="UTC")
    values = np.random.default_rng(3).normal(3.0, 0.2, len(index))
    values[[100, 101, 500, 800]] = 5.0  # three excursions (100-101 merge into one)
    series = pd.Series(values, index=index, name="Evaporator Approach")
    suggestion = suggest_threshold(series, side="upper", current_alerts=30)
    top = next(lv for lv in suggestion.levels if lv.k == 4.0)
    assert top.alert_episodes == 3
    assert top.reduction_vs_current == pytest.approx(1 - 3 / 30)
    episodes = [lv.alert_episodes for lv in suggestion.levels]
    assert episodes == sorted(episodes, reverse=True)  # higher k never raises more alerts
    assert suggestion.recommended_k == 2.0 or suggestion.levels[0].reduction_vs_current < 0.5


def test_alert_rules_map_to_the_signal_they_watch() -> None:
    assert signal_for_rule("Chiller - Evaporator Approach High") == (EVAP_APPROACH, "upper")
    assert signal_for_rule("Chiller - Chiller Cycling") is None


def test_flagged_runs_merge_short_gaps() -> None:
    flags = np.array([0, 1, 1, 0, 1, 0, 0, 0, 1], dtype=bool)
    assert flagged_runs(flags, max_gap=1) == [(1, 4), (8, 8)]
    assert flagged_runs(flags, max_gap=0) == [(1, 2), (4, 4), (8, 8)]


def test_summarise_anomalies_groups_periods_per_kpi_and_ignores_calibration() -> None:
    times = pd.date_range("2021-05-01", periods=10, freq="15min").astype(str)
    labels = [True, False, False, True, True, False, False, False, True, False]
    frame = pd.DataFrame(
        {
            "timestamp": list(times) * 2,
            "value": [10.0] * 20,
            "upper_bound": [5.0] * 20,
            "lower_bound": [0.0] * 20,
            "anomaly_score": [0.99] * 20,
            "anomaly_label": labels + [False] * 10,
            "split": ["calibration"] + ["test"] * 19,
            "KPI": ["Chiller 9 Power Input"] * 10 + ["Chiller 9 Tonnage"] * 10,
        }
    )
    result = {s.sensor: s for s in summarise_anomalies(frame)}
    power = result["Chiller 9 Power Input"]
    assert (power.records, power.anomalies, power.periods_total) == (9, 3, 2)
    assert power.periods[0].direction == "above"
    assert result["Chiller 9 Tonnage"].anomalies == 0


def test_two_weeks_at_15_minutes_is_1344_steps_rolled_out_beyond_the_native_horizon() -> None:
    steps = requested_steps({"horizon": "next two weeks"}, 15.0)
    assert steps == 1344
    plan = plan_horizon(steps, rows_available=2000, minutes_per_step=15.0)
    assert (plan.model_checkpoint, plan.forecast_steps, plan.native_steps) == ("ttm_512_96", 1344, 96)
    assert plan.autoregressive and not plan.truncated
    assert "14.0 days" in plan.note and "autoregressively" in plan.note
    short = plan_horizon(None, rows_available=200, minutes_per_step=15.0)
    assert (short.model_checkpoint, short.forecast_steps, short.autoregressive) == ("ttm_96_28", 28, False)
    capped = plan_horizon(5000, rows_available=200, minutes_per_step=15.0)
    assert capped.truncated and capped.forecast_steps == 2016 and "capped" in capped.note


def test_forecast_errors_match_hand_computed_mae_mape_and_bias() -> None:
    index = pd.date_range("2021-01-01", periods=4, freq="15min", tz="UTC")
    forecast = pd.DataFrame({"x": [11.0, 12.0, 9.0, 10.0]}, index=index)
    actual = pd.DataFrame({"x": [10.0, 10.0, 10.0, 10.0]}, index=index)
    (error,) = forecast_errors([forecast], actual)
    assert error.mae == pytest.approx(1.0)
    assert error.bias == pytest.approx(0.5)
    assert error.mape_pct == pytest.approx(10.0)


def test_forecast_summary_reports_direction_and_range() -> None:
    index = pd.date_range("2021-01-01", periods=5, freq="15min", tz="UTC")
    summary = summarise_forecast(pd.DataFrame({"p": [1.0, 2.0, 3.0, 4.0, 5.0]}, index=index))["p"]
    assert (summary["direction"], summary["min"], summary["max"]) == ("rising", 1.0, 5.0)


def test_tsfm_errors_get_narrow_corrections_or_none() -> None:
    args = {"dataset_path": "d.csv", "target_columns": ["Chiller 9 Power Input", "Chiller 9 Tonnage"]}
    dropped = corrected_tsfm_args(args, "['Chiller 9 Tonnage'] not in index")
    assert dropped is not None and dropped["target_columns"] == ["Chiller 9 Power Input"]
    longer = {**args, "model_checkpoint": "ttm_512_96", "forecast_horizon": 96}
    fallback = corrected_tsfm_args(longer, "No segment has the 512 rows the model's context length needs.")
    assert fallback is not None and (fallback["model_checkpoint"], fallback["forecast_horizon"]) == (
        "ttm_96_28",
        28,
    )
    assert needs_longer_window("No segment has the 96 rows the model's context length needs.")
    short = corrected_tsfm_args(args, "n_calibration gives 6 calibration points but at least 20 are needed")
    assert short is not None and (short["n_calibration"], short["false_alarm"]) == (0.5, 0.1)
    assert corrected_tsfm_args(args, "something unexpected broke") is None


def test_the_largest_sustained_shift_leads_an_anomaly_finding() -> None:
    from specialists.timeseries.handlers_anomaly import _shift_size

    shifts = [{"KPI": "Tonnage", "relative_shift_pct": -0.2}, {"KPI": "Condenser Water Flow", "relative_shift_pct": -29.1},
              {"KPI": "Power Input", "relative_shift_pct": None}]
    assert [s["KPI"] for s in sorted(shifts, key=_shift_size)] == ["Condenser Water Flow", "Tonnage", "Power Input"]


def test_a_mostly_idle_chillers_readings_holding_still_while_off_are_not_stuck() -> None:
    index = pd.date_range("2021-03-01", periods=2976, freq="15min", tz="UTC")
    load = np.zeros(len(index))
    load[1000:1017] = 60.0  # about four hours of running in a month: too few samples to judge levels on
    power = np.where(load > 0, 150.0 + np.arange(len(index)) % 7, 1.5)  # flat 1.5 kW while off
    frame = pd.DataFrame({"Chiller % Loaded": load, "Power Input": power}, index=index)
    flags = {t.sensor: t.flags for t in trend_table(frame)}
    assert "stuck" not in flags["Power Input"]
    stuck = frame.copy()
    stuck.loc[stuck.index[:800], "Chiller % Loaded"] = 60.0  # runs 200 h with the power frozen
    stuck.loc[stuck.index[:800], "Power Input"] = 150.0
    assert "stuck" in {t.sensor: t.flags for t in trend_table(stuck)}["Power Input"]
