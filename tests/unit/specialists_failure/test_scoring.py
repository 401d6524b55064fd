"""Diagnosis scoring on hand-made chiller series: each injected signature ranks its failure mode first."""

from __future__ import annotations

import pandas as pd
import pytest

from specialists.common.evidence import Evidence, build_evidence
from specialists.common.frames import running_mask
from specialists.common.validity import sensor_validity
from specialists.common.windows import split_by_running
from specialists.failure.reasoning import discriminating_measurement, headline, revise
from specialists.failure.scoring import rank_hypotheses, softmax
from specialists.failure.signatures import (
    CONDENSER_FLOW,
    CONDENSER_FOULING,
    EVAPORATOR_FOULING,
    NO_FAULT,
    SENSOR_DRIFT,
    TRIP,
)
from tests.unit.specialists_timeseries.synthetic import ASSET, chiller_frame, ramp


def evidence_of(frame: pd.DataFrame) -> Evidence:
    running = frame.index[running_mask(frame).to_numpy()]
    windows = split_by_running(running, frame.index[0], frame.index[-1] + pd.Timedelta(minutes=15))
    assert windows is not None
    baseline, recent = windows
    return build_evidence(frame, ASSET, baseline=baseline, recent=recent)


def condenser_fouled() -> pd.DataFrame:
    frame = chiller_frame(days=30, seed=1)
    extra = 1 + 0.08 * ramp(frame, 0.4) * frame["Chiller % Loaded"] / 100
    frame["Power Input"] *= extra
    frame["Chiller Efficiency"] *= extra
    return frame


def test_rising_power_at_equal_load_with_normal_flow_ranks_condenser_fouling_first() -> None:
    ranking = rank_hypotheses(evidence_of(condenser_fouled()))
    assert ranking[0].failure_mode == CONDENSER_FOULING
    assert any("kW per Ton" in line for line in ranking[0].evidence_for)
    assert ranking[0].low <= ranking[0].probability <= ranking[0].high


def test_an_isolated_drifting_supply_temperature_ranks_sensor_drift_first() -> None:
    frame = chiller_frame(days=30, seed=2)
    frame["Supply Temperature"] += 1.5 * ramp(frame, 0.3)
    evidence = evidence_of(frame)
    assert rank_hypotheses(evidence)[0].failure_mode == SENSOR_DRIFT
    verdict = sensor_validity(evidence, "Supply Temperature")
    assert verdict.verdict == "sensor_drift"
    assert not verdict.followers


def test_a_real_supply_rise_that_drags_return_and_refrigerant_is_not_called_sensor_drift() -> None:
    frame = chiller_frame(days=30, seed=3)
    rise = 1.5 * ramp(frame, 0.3)
    for sensor in ("Supply Temperature", "Return Temperature", "Liquid Refrigerant Evaporator Temperature"):
        frame[sensor] += rise
    verdict = sensor_validity(evidence_of(frame), "Supply Temperature")
    assert verdict.verdict == "real_change"
    assert set(verdict.followers) == {"Return Temperature", "Liquid Refrigerant Evaporator Temperature"}


def test_an_evaporator_approach_widening_with_load_ranks_evaporator_fouling_first() -> None:
    frame = chiller_frame(days=30, seed=4)
    plr = frame["Chiller % Loaded"] / 100
    frame["Liquid Refrigerant Evaporator Temperature"] -= 3.0 * ramp(frame, 0.4) * plr**1.5
    assert rank_hypotheses(evidence_of(frame))[0].failure_mode == EVAPORATOR_FOULING


def test_a_condenser_flow_drop_ranks_improper_flow_first() -> None:
    frame = chiller_frame(days=30, seed=5)
    frame["Condenser Water Flow"] *= 1 - 0.3 * ramp(frame, 0.5)
    frame["Power Input"] *= 1 + 0.04 * ramp(frame, 0.5)
    assert rank_hypotheses(evidence_of(frame))[0].failure_mode == CONDENSER_FLOW


def test_a_healthy_chiller_ranks_no_significant_fault_first() -> None:
    ranking = rank_hypotheses(evidence_of(chiller_frame(days=30, seed=6)))
    assert ranking[0].failure_mode == NO_FAULT


def test_a_trip_with_a_dead_sensor_ranks_the_trip_first() -> None:
    frame = chiller_frame(days=20, seed=7)
    stop = frame.index[-30]
    daytime = frame.index[(frame.index < stop) & (frame["Chiller % Loaded"] > 70)][-1]
    after = frame.index > daytime
    frame.loc[after, ["Chiller % Loaded", "Tonnage", "Power Input", "Chiller Efficiency"]] = 0.0
    frame.loc[after, "Condenser Water Flow"] = float("nan")
    ranking = rank_hypotheses(evidence_of(frame))
    assert ranking[0].failure_mode == TRIP
    assert any("Condenser Water Flow" in line for line in ranking[0].evidence_for)


def test_probabilities_sum_to_one_and_ranges_contain_them() -> None:
    ranking = rank_hypotheses(evidence_of(condenser_fouled()))
    assert sum(h.probability for h in ranking) == pytest.approx(1.0)
    assert all(0.0 <= h.low <= h.probability <= h.high <= 1.0 for h in ranking)
    assert softmax([0.0, 0.0]) == [0.5, 0.5]


def test_the_discriminating_measurement_names_a_signal_the_leaders_disagree_on() -> None:
    evidence = evidence_of(condenser_fouled())
    first, second = rank_hypotheses(evidence)[:2]
    text = discriminating_measurement(first, second, evidence)
    assert first.failure_mode in text and second.failure_mode in text


def test_revision_reports_a_new_leader_and_probability_changes() -> None:
    now = rank_hypotheses(evidence_of(condenser_fouled()))
    before = [
        {"failure_mode": EVAPORATOR_FOULING, "probability": 0.6},
        {"failure_mode": CONDENSER_FOULING, "probability": 0.3},
    ]
    changes = revise(before, now)
    assert changes[0] == f"The leading hypothesis changed from {EVAPORATOR_FOULING} to {CONDENSER_FOULING}."
    assert any(line.startswith(f"{CONDENSER_FOULING}: 0.30 ->") for line in changes)
    assert revise([], now) == []
    assert CONDENSER_FOULING in headline(now)
