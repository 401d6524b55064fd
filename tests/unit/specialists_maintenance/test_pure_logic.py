"""Maintenance planning logic on hand-made work orders and artifacts with known answers."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from artifacts.model import Artifact
from assetops.domain.turn import SpecialistTask
from specialists.maintenance.alerts import rule_activity, triage
from specialists.maintenance.bundling import MOBILISATION_HOURS, bundle_corrective, hours, savings
from specialists.maintenance.drafting import codes_for, draft_work_order
from specialists.maintenance.evidence import offline_sensors, running_baselines, top_hypothesis
from specialists.maintenance.history import summarise_work_orders
from specialists.maintenance.prioritize import prioritise
from specialists.maintenance.protocols import monitoring_config, restart_checklist, validation_protocol
from specialists.maintenance.report import management_report


def wo(wo_id: str, finish: str, *, preventive: bool = False, code: str = "M013", labour: str = "2:00",
       equipment: str = "CWC04006") -> dict[str, object]:
    return {"wo_id": wo_id, "actual_finish": finish, "preventive": preventive, "primary_code": code,
            "primary_code_description": f"desc {code}", "equipment_id": equipment, "actual_labor_hours": labour}


def test_summary_counts_types_years_and_corrective_trend() -> None:
    orders = [wo("1", "2018-01-05T10:00:00"), wo("2", "2019-03-01T10:00:00"), wo("3", "2019-06-01T10:00:00"),
              wo("4", "2020-01-01T10:00:00"), wo("5", "2020-02-01T10:00:00"), wo("6", "2020-03-01T10:00:00"),
              wo("7", "2020-04-01T10:00:00", preventive=True, code="MT001")]
    s = summarise_work_orders(orders)
    assert (s.total, s.preventive, s.corrective) == (7, 1, 6)
    assert s.per_year[2020] == {"preventive": 1, "corrective": 3}
    assert s.corrective_trend_per_year == 1.0  # 1, 2, 3 corrective orders in 2018, 2019, 2020
    assert s.top_codes[0] == ("M013", "desc M013", 6)
    assert s.first == "2018-01-05" and s.last == "2020-04-01"
    assert s.recent[0]["wo_id"] == "7"


def test_bundles_group_orders_within_the_window_per_equipment() -> None:
    orders = [wo("a", "2019-01-01T08:00:00"), wo("b", "2019-01-10T08:00:00"), wo("c", "2019-01-20T08:00:00"),
              wo("d", "2019-05-01T08:00:00"), wo("e", "2019-05-02T08:00:00", equipment="CWC04009"),
              wo("f", "2019-05-03T08:00:00", preventive=True)]
    bundles = bundle_corrective(orders, window_days=14)
    assert [[o["wo_id"] for o in b.orders] for b in bundles] == [["a", "b"]]  # c is 19 days after a
    assert savings(bundles) == {"bundles": 1, "visits_saved": 1, "hours_saved": MOBILISATION_HOURS}
    assert hours("3:30") == 3.5 and hours(None) == 0.0


def test_rule_activity_counts_alerts_per_rule_and_lists_silent_rules() -> None:
    events = [{"event_group": "ALERT", "event_type": "RUL0018", "event_time": f"2021-06-{d:02d}T10:00:00"}
              for d in range(1, 11)] + [{"event_group": "WORK_ORDER", "event_type": "M013",
                                         "event_time": "2021-06-05T10:00:00"}]
    activity = rule_activity(events, {"RUL0018": "Chiller - Evaporator Approach High", "RUL0017": "Chiller - Load Low"})
    assert [(a.rule_id, a.count) for a in activity] == [("RUL0018", 10), ("RUL0017", 0)]
    assert activity[0].busiest_month == "2021-06"


def test_triage_verdicts_follow_the_stated_thresholds() -> None:
    followed = [{"transition": "WORK_ORDER", "probability": 0.5, "average_hours_to_maintenance": 30.0},
                {"transition": "No Maintenance", "probability": 0.5}]
    never = [{"transition": "No Maintenance", "probability": 1.0, "average_hours_to_maintenance": None}]
    assert triage("R1", 20, followed).verdict == "meaningful"
    assert triage("R1", 20, followed).mean_hours_to_maintenance == 30.0
    assert triage("R2", 50, never).verdict == "likely spurious"
    assert triage("R3", 2, never).verdict == "too few alerts"
    assert triage("R4", 5, never).verdict == "weak"


def test_condenser_fouling_draft_gets_a_condenser_code_and_flags_recent_duplicates() -> None:
    primary, secondary, _ = codes_for("Condenser Water side fouling")
    assert primary == "M013" and secondary is not None and secondary.startswith("M013")
    existing = [wo("WO1", "2020-06-20T10:00:00", code="M013"), wo("WO0", "2019-01-01T10:00:00", code="M013")]
    draft = draft_work_order(equipment_id="CWC04006", asset_id="Chiller 6", failure_mode="Condenser Water side fouling",
                             confidence=0.7, evidence=["approach +4 F"], existing=existing,
                             now=datetime(2020, 7, 1))
    assert draft.priority == 1 and draft.possible_duplicates == ["WO1"]
    assert "lock out" in draft.scope[0] and len(draft.scope) >= 3
    low = draft_work_order(equipment_id="CWC04006", asset_id="Chiller 6", failure_mode="Condenser Water side fouling",
                           confidence=0.3, evidence=[], existing=[], now=datetime(2020, 7, 1))
    assert low.priority == 2


def _art(producer: str, results: dict[str, object], asset: str = "Chiller 9", **kw: object) -> Artifact:
    return Artifact(id=f"artifact_{producer}_{len(results)}", session_id="s", producer=producer, kind="k",
                    asset_ids=[asset], results=results, **kw)  # type: ignore[arg-type]


def test_evidence_readers_find_hypothesis_baselines_and_offline_sensors() -> None:
    arts = [_art("data", {"stats": {"Chiller 9 Supply Temperature": {"mean": 44.0, "std": 0.5}},
                          "sensors_without_data": ["Chiller 9 Condenser Water Flow"]}),
            _art("failure", {"hypotheses": [{"failure_mode": "Evaporator Water side fouling", "probability": 0.62,
                                             "evidence_for": ["evap approach +3 F"]}]})]
    task = SpecialistTask(specialist="maintenance", action="draft_wo", asset_ids=["Chiller 9"])
    mode, conf, support = top_hypothesis(arts, "Chiller 9", task)
    assert mode == "Evaporator Water side fouling" and conf == 0.62 and "evap approach +3 F" in support
    assert offline_sensors(arts, "Chiller 9") == ["Chiller 9 Condenser Water Flow"]
    assert top_hypothesis(arts, "Chiller 3", task)[0] is None


def test_protocols_carry_thresholds_from_baselines() -> None:
    base = {"Chiller 9 Supply Temperature": {"mean": 44.0, "std": 0.5}}
    validation = validation_protocol("Chiller 9", base)
    assert validation.criteria[0]["accept_low"] == 43.5 and validation.criteria[0]["accept_high"] == 44.5
    monitor = monitoring_config("Chiller 9", base)
    assert monitor.criteria[0]["high"] == 45.5
    restart = restart_checklist("Chiller 9", ["Chiller 9 Condenser Water Flow"], "Compressor Overheating")
    assert any("Condenser Water Flow" in s for s in restart.steps)
    assert any("Compressor Overheating" in s for s in restart.steps)


def test_prioritise_ranks_the_asset_with_more_adverse_evidence_first() -> None:
    arts = [_art("timeseries", {"anomaly_rate": 0.12}, asset="Chiller 4"),
            _art("timeseries", {"anomaly_rate": 0.02}, asset="Chiller 3"),
            _art("failure", {"hypotheses": [{"failure_mode": "Condenser Water side fouling", "probability": 0.7}]},
                 asset="Chiller 4")]
    ranking = prioritise(arts, ["Chiller 3", "Chiller 4"])
    assert [p.asset_id for p in ranking] == ["Chiller 4", "Chiller 3"]
    assert ranking[0].score > ranking[1].score


def test_report_cites_artifacts_by_section_and_says_when_there_is_nothing() -> None:
    arts = [_art("data", {}, summary="Chiller 9 power mean 300 kW"),
            _art("failure", {}, summary="Evaporator fouling most likely")]
    text, cited = management_report(arts, ["Chiller 9"], "May-June 2021")
    assert "Operating data" in text and "Root cause" in text and set(cited) == {a.id for a in arts}
    empty, none = management_report([], ["Chiller 9"], "May-June 2021")
    assert none == [] and "No findings" in empty


def test_artifacts_of_other_assets_do_not_leak_into_a_report() -> None:
    arts = [_art("data", {}, asset="Chiller 3", summary="Chiller 3 fine",
                 created_at=datetime(2021, 1, 1, tzinfo=UTC))]
    _, cited = management_report(arts, ["Chiller 9"], "x")
    assert cited == []


def test_no_fault_is_never_drafted_and_the_best_fault_carries_the_caveat() -> None:
    arts = [_art("failure", {"hypotheses": [
        {"failure_mode": "No fault: normal operation", "confidence_range": [0.44, 0.54]},
        {"failure_mode": "Condenser Water side fouling", "confidence_range": [0.0, 0.33]}]}, asset="Chiller 4")]
    task = SpecialistTask(specialist="maintenance", action="draft_wo", asset_ids=["Chiller 4"],
                          params={"failure_mode": "No fault"})
    mode, conf, support = top_hypothesis(arts, "Chiller 4", task)
    assert mode == "Condenser Water side fouling" and conf == pytest.approx(0.165)
    assert "normal operation first" in support[0]


def test_a_confident_no_fault_diagnosis_never_outranks_a_diagnosed_fault() -> None:
    # The QA case: Chiller 6 condenser fouling 0.75-0.85 vs Chiller 9 "no fault" 0.77-0.87, similar anomaly rates.
    arts = [_art("failure", {"hypotheses": [{"failure_mode": "Condenser Water side fouling", "confidence_range": [0.75, 0.85]},
                                            {"failure_mode": "No fault: normal operation", "confidence_range": [0.1, 0.2]}]},
                 asset="Chiller 6"),
            _art("failure", {"hypotheses": [{"failure_mode": "No fault: normal operation", "confidence_range": [0.77, 0.87]},
                                            {"failure_mode": "Evaporator Water side fouling", "confidence_range": [0.05, 0.1]}]},
                 asset="Chiller 9"),
            _art("timeseries", {"anomaly_rate": 0.066}, asset="Chiller 6"),
            _art("timeseries", {"anomaly_rate": 0.071}, asset="Chiller 9")]
    ranking = prioritise(arts, ["Chiller 6", "Chiller 9"])
    assert ranking[0].asset_id == "Chiller 6"
    assert "Condenser Water side fouling" in ranking[0].reasons[0]
    assert ranking[0].score > 2 * ranking[1].score


def test_anomaly_share_at_the_false_alarm_rate_adds_nothing() -> None:
    ranking = prioritise([_art("timeseries", {"anomaly_rate": 0.05}, asset="Chiller 3")], ["Chiller 3"])
    assert ranking[0].score == 0.0


def test_protocol_baselines_use_running_samples_only() -> None:
    import pandas as pd

    running = {"Chiller 9 Chiller % Loaded": 60.0, "Chiller 9 Supply Temperature": 44.0, "Chiller 9 Setpoint Temperature": 44.0}
    off = {"Chiller 9 Chiller % Loaded": 0.0, "Chiller 9 Supply Temperature": 70.0, "Chiller 9 Setpoint Temperature": 44.0}
    rows = [dict(running, **{"Chiller 9 Supply Temperature": 44.0 + (i % 3 - 1) * 0.5}) for i in range(120)] + [off] * 200
    base = running_baselines(pd.DataFrame(rows), "Chiller 9", [])
    assert set(base) == {"Chiller 9 Supply Temperature"}  # load and set-point are operation, not health
    assert base["Chiller 9 Supply Temperature"]["mean"] == pytest.approx(44.0, abs=0.01)
    assert base["Chiller 9 Supply Temperature"]["std"] < 0.5  # the 70 degF off state is not in the band
    assert running_baselines(pd.DataFrame(rows[:50]), "Chiller 9", []) == {}  # under a day of running data


def test_the_partial_reference_year_does_not_bend_the_trend() -> None:
    orders = [wo(str(i), f"2020-0{1 + i % 9}-01T10:00:00") for i in range(14)]
    orders += [wo(f"b{i}", f"2019-0{1 + i % 9}-01T10:00:00") for i in range(10)]
    orders += [wo(f"c{i}", "2021-03-01T10:00:00") for i in range(3)]
    with_partial = summarise_work_orders(orders)
    complete_only = summarise_work_orders(orders, until=date(2021, 7, 1))
    assert with_partial.corrective_trend_per_year is not None and with_partial.corrective_trend_per_year < 0
    assert complete_only.corrective_trend_per_year == 4.0  # 10 -> 14 over 2019-2020
    assert complete_only.per_year[2021]["corrective"] == 3  # still reported, just not trended


def test_an_explicit_failure_mode_takes_its_confidence_from_the_diagnosis() -> None:
    arts = [_art("failure", {"hypotheses": [{"failure_mode": "Condenser Water side fouling",
                                             "confidence_range": [0.84, 0.96], "evidence_for": ["power +17 kW"]}]},
                 asset="Chiller 4")]
    task = SpecialistTask(specialist="maintenance", action="draft_wo", asset_ids=["Chiller 4"],
                          params={"failure_mode": "Condenser Water side fouling"})
    mode, conf, support = top_hypothesis(arts, "Chiller 4", task)
    assert mode == "Condenser Water side fouling" and conf == pytest.approx(0.90)
    assert "power +17 kW" in support


def test_an_instrument_fault_counts_half_a_machine_fault() -> None:
    # a confident sensor drift against a likelier-than-not condenser fouling: the machine fault comes first
    arts = [_art("failure", {"hypotheses": [{"failure_mode": "Temperature Sensor: Calibration drift",
                                             "confidence_range": [0.95, 0.99]}]}, asset="Chiller 4"),
            _art("failure", {"hypotheses": [{"failure_mode": "Condenser Water side fouling",
                                             "confidence_range": [0.6, 0.76]}]}, asset="Chiller 6")]
    ranking = prioritise(arts, ["Chiller 4", "Chiller 6"])
    assert ranking[0].asset_id == "Chiller 6"
    assert "an instrument fault" in ranking[1].reasons[0]


def test_kpi_anomaly_events_are_counted_per_kind_from_the_same_event_log() -> None:
    from specialists.maintenance.alerts import kpi_anomalies

    events = [{"event_group": "ANOMALY", "event_type": "KPI Flow Efficiency above upper bound"}] * 3 + [
        {"event_group": "ANOMALY", "event_type": "KPI Delta Setpoint above upper bound"},
        {"event_group": "ALERT", "event_type": "RUL0018"}]
    assert kpi_anomalies(events) == [("Flow Efficiency above upper bound", 3), ("Delta Setpoint above upper bound", 1)]
    assert kpi_anomalies([{"event_group": "ALERT", "event_type": "RUL0018"}]) == []


def test_alerts_are_counted_per_month() -> None:
    from specialists.maintenance.alerts import alerts_per_month

    events = [{"event_group": "ALERT", "event_type": "RUL0018", "event_time": f"2021-0{m}-0{d}T10:00:00"}
              for m, d in ((3, 1), (3, 2), (1, 5))] + [{"event_group": "ANOMALY", "event_time": "2021-02-01T00:00:00"}]
    assert alerts_per_month(events) == {"2021-01": 1, "2021-03": 2}


def test_the_summary_books_the_labour_of_all_and_of_corrective_orders() -> None:
    from specialists.maintenance.history import summarise_work_orders

    found = summarise_work_orders([
        {"wo_id": "a", "preventive": False, "actual_labor_hours": "2:30", "actual_finish": "2020-08-01T10:00:00"},
        {"wo_id": "b", "preventive": True, "actual_labor_hours": "1:00", "actual_finish": "2020-08-02T10:00:00"}])
    assert (found.labor_hours, found.corrective_labor_hours) == (3.5, 2.5)
