"""Shaped openings: fleet ranking, the pick, procedures, verdicts, recommendations, reports, confidence."""

import pytest

from graph.answering.confidence import confidence_line
from graph.answering.figures import telemetry_figures
from graph.answering.fleet_ranking import compare_assets
from graph.answering.markdown import whole_sentences
from graph.answering.shapes import AnswerInputs, decision_shape, shaped_lead
from tests.unit.answering.builders import alerts, anomaly, art, diagnosis, work_orders


def _inputs(shape: str, artifacts: list, **kw: object) -> AnswerInputs:  # type: ignore[type-arg]
    return AnswerInputs(shape=shape, scope=str(kw.pop("scope", "asset")), question=str(kw.pop("question", "")),
                        artifacts=artifacts, **kw)  # type: ignore[arg-type]


def test_fleet_anomalies_rank_the_odd_one_out_first() -> None:
    found = [anomaly("Chiller 3", 0.02), anomaly("Chiller 6", 0.31), anomaly("Chiller 4", 0.03),
             anomaly("Chiller 9", 0.01)]
    comparison = compare_assets(found)
    assert comparison is not None
    assert comparison.headline == ("Chiller 6 stands out: 31.0% of running samples off its expected power-load "
                                   "relation; Chillers 3, 4 and 9 look normal.")
    assert comparison.lines[0].startswith("| Asset |") and "| Chiller 6 |" in comparison.lines[2]


def test_fleet_work_orders_table_sorted_by_count() -> None:
    low = art("work_order_summary", {"total": 3, "corrective": 1}, asset=None, equipment=["CWC04013"], id="a1")
    high = art("work_order_summary", {"total": 45, "corrective": 12}, asset=None, equipment=["CWC04009"], id="a2")
    comparison = compare_assets([low, high])
    assert comparison is not None and comparison.headline.startswith("CWC04009 has the most work orders from 2021-03-01 to 2021-06-01: 45")
    assert comparison.lines[2].startswith("| CWC04009 |")


def test_alerts_and_work_orders_per_chiller_are_one_table_of_both_records() -> None:
    records = [art("work_order_summary", {"total": 14, "corrective": 14}, asset="Chiller 6", equipment=["CWC04006"],
                   id="w6"),
               art("work_order_summary", {"total": 3, "corrective": 3}, asset="Chiller 9", equipment=["CWC04009"],
                   id="w9"),
               alerts("Chiller 6", "CWC04006", {"RUL0017": 33, "RUL0022": 30}, start="2020-01-01", end="2021-01-01"),
               alerts("Chiller 9", "CWC04009", {"RUL0017": 46, "RUL0022": 33}, start="2020-01-01", end="2021-01-01")]
    comparison = compare_assets(records, "alerts and corrective WOs per chiller for 2020")
    assert comparison is not None
    assert comparison.headline.startswith("Chiller 6 (CWC04006) has the most work orders from 2021-03-01 to 2021-06-01: 14")
    assert comparison.headline.endswith("CWC04009 has the most alerts: 79 alerts.")
    assert comparison.lines[0] == "| Asset | Work orders | Alerts | Alerts mostly |"
    assert "| 63 alerts |" in comparison.lines[2] and "| 79 alerts |" in comparison.lines[3]
    only_orders = compare_assets(records, "corrective WOs per chiller for 2020")
    assert only_orders is not None and "Alerts" not in only_orders.lines[0]


def test_the_fewest_records_lead_when_the_fewest_are_asked_for() -> None:
    low = art("work_order_summary", {"total": 3, "corrective": 1}, asset=None, equipment=["CWC04013"], id="a1")
    high = art("work_order_summary", {"total": 45, "corrective": 12}, asset=None, equipment=["CWC04009"], id="a2")
    comparison = compare_assets([high, low], "which one needed the fewest corrective jobs in 2020?")
    assert comparison is not None and comparison.headline.startswith("CWC04013 has the fewest work orders from 2021-03-01 to 2021-06-01: 3")
    assert comparison.lines[2].startswith("| CWC04013 |")


def test_which_question_gets_the_pick_first() -> None:
    lead = shaped_lead(_inputs("which", [anomaly("Chiller 3", 0.02), anomaly("Chiller 6", 0.31)]))
    assert lead is not None and lead.first.startswith("Chiller 6 ")  # the pick first, said once


def test_fleet_scope_open_question_is_compared() -> None:
    lead = shaped_lead(_inputs("open", [anomaly("Chiller 3", 0.02), anomaly("Chiller 6", 0.31)], scope="fleet"))
    assert lead is not None and lead.first.startswith("Chiller 6 stands out")


def test_how_to_is_a_numbered_procedure() -> None:
    checklist = art("restart_checklist", {"steps": ["Check the oil level", "Start the pumps", "Start the chiller"]},
                    asset="Chiller 9", producer="maintenance")
    lead = shaped_lead(_inputs("how_to", [checklist]))
    assert lead is not None and lead.first == "To restart Chiller 9 safely, follow these 3 steps:"
    assert lead.lines[:3] == ["1. Check the oil level", "2. Start the pumps", "3. Start the chiller"]


def test_verdict_summarises_the_session_conclusion_first() -> None:
    session = [diagnosis("Chiller 6", ("Condenser Water side fouling", 0.75, 0.85)), anomaly("Chiller 6", 0.31),
               work_orders("Chiller 6", {"2019": 3, "2020": 5}, 2.0), anomaly("Chiller 3", 0.02)]
    lead = shaped_lead(_inputs("verdict", [], session=session))
    assert lead is not None
    assert lead.first == "Verdict: Chiller 6: Condenser Water side fouling (0.75-0.85)."
    assert any("31.0%" in line for line in lead.lines)
    assert any(line.startswith("Open: Chiller 3") for line in lead.lines)


def test_recommend_gives_advice_reasons_and_offer_never_a_draft() -> None:
    session = [diagnosis("Chiller 6", ("Condenser Water side fouling", 0.75, 0.85))]
    lead = shaped_lead(_inputs("recommend", [], session=session, question="Would it be worth planning an "
                               "inspection shutdown?", pending_offer="draft_wo"))
    assert lead is not None and lead.first.startswith("Yes, plan the inspection: Condenser Water side fouling")
    assert lead.offer == "Say 'draft it' and I will draft the work order."


def test_replace_or_repair_reads_the_corrective_trend() -> None:
    wos = work_orders("Chiller 6", {"2016": 1, "2017": 2, "2018": 4, "2019": 7, "2020": 11}, 2.5)
    lead = shaped_lead(_inputs("recommend", [wos], question="Is it time to retire this unit?"))
    assert lead is not None and lead.first.startswith("Start planning a replacement")
    wos_flat = work_orders("Chiller 6", {"2019": 2, "2020": 2}, 0.0)
    lead = shaped_lead(_inputs("recommend", [wos_flat], question="replace it or keep fixing?"))
    assert lead is not None and lead.first.startswith("Keep fixing it for now")


def test_report_is_linked_with_diagnosis_and_actions() -> None:
    session = [diagnosis("Chiller 6", ("Condenser Water side fouling", 0.75, 0.85), id="artifact_fm_1")]
    text = ("## Management summary: Chiller 6 (spring)\n\n**Root cause**\n- x [artifact_fm_1]\n\n"
            "**Recommended next steps**: act on the finding, then validate.")
    report = art("management_report", {"report": text, "cites": ["artifact_fm_1"]}, producer="maintenance",
                 id="artifact_mt_r")
    lead = shaped_lead(_inputs("open", [report], session=session))
    assert lead is not None
    joined = "\n".join([lead.first, *lead.lines])
    assert "Condenser Water side fouling" in joined and "Actions: act on the finding, then validate." in joined
    assert "Full report: /v1/sessions/ses_1/artifacts/artifact_mt_r/markdown" in joined


def test_confidence_says_what_it_rests_on() -> None:
    diag = diagnosis("Chiller 6", ("Condenser Water side fouling", 0.85, 0.95))
    assert confidence_line([diag], evidence_missing=False) == (
        "Confidence: high (0.90, diagnosis from 3 months of telemetry).")
    knowledge = art("failure_modes", {"failure_modes": []}, producer="failure")
    assert "failure-mode knowledge only" in confidence_line([knowledge], evidence_missing=False)
    assert confidence_line([art("capabilities", {}, producer="timeseries")], evidence_missing=False) == ""


def test_telemetry_figures_are_bullets_with_units() -> None:
    window = art("telemetry_window", {"running_share": 0.6, "stats": {
        "Chiller 6 Power Input": {"count": 10, "mean": 150.0, "min": 0.0, "max": 420.0, "running_mean": 312.4,
                                  "unit": "kW", "trend_per_day": None},
        "Chiller 6 Chiller Efficiency": {"count": 10, "mean": 0.4, "min": 0.0, "max": 0.9, "running_mean": 0.62,
                                         "unit": "kW/ton"}}}, producer="data")
    lines = telemetry_figures(window)
    assert lines[0] == "- Power Input: 312.4 kW while running (all samples 150.0 kW, range 0 to 420.0 kW)"
    assert lines[1].startswith("- Efficiency: 0.62 kW/ton while running")
    assert lines[-1] == "- Running: 60% of the time"
    assert not any(";" in line for line in lines)


def test_whole_sentences_never_cut_mid_sentence() -> None:
    text = "First finding is here. Second one is longer than the rest. Third."
    assert whole_sentences(text, 30) == "First finding is here."
    assert whole_sentences(text, 5) == "First finding is here."


def test_decision_shape_reads_the_typed_turn_decision() -> None:
    from assetops.domain.turn import Decision, TurnDecision

    assert decision_shape(TurnDecision(shape="yes_no", scope="fleet")) == ("yes_no", "fleet")
    assert decision_shape(TurnDecision.of(Decision(kind="run", shape="which"))) == ("which", "asset")


def test_advice_names_the_job_asked_about_and_answers_now_or_later() -> None:
    from graph.answering.recommend import recommend
    from tests.unit.answering.builders import diagnosis

    found = [diagnosis("Chiller 4", ("Condenser Water side fouling", 0.84, 0.96))]
    advice = recommend("Is it worth a condenser tube cleaning before July, or can that wait till the fall?", found, None)
    assert advice.sentence.startswith("Yes, do the condenser tube cleaning now, don't wait: Condenser Water side fouling")
    calm = recommend("Should I pull it offline for a leak check now, or ride it out?",
                     [diagnosis("Chiller 4", ("No fault: normal operation", 0.8, 0.9))], None)
    assert calm.sentence.startswith("Not yet: the leak check can wait")


@pytest.mark.parametrize(("question", "count"), [("sum it up for my manager in three bullets", 3),
                                                  ("give me 2 bullet points", 2), ("sum it up", None)])
def test_the_number_of_bullets_asked_is_read(question: str, count: int | None) -> None:
    from graph.understanding.request import bullets_asked

    assert bullets_asked(question) == count


def test_a_summary_in_n_bullets_has_n_points_the_last_one_the_next_step() -> None:
    from graph.answering.long_output import report_summary
    from tests.unit.answering.builders import diagnosis

    report = art("management_report", {"report": "# Management summary: Chiller 4\n\n**Next steps:** clean the tubes",
                                       "cites": ["artifact_diag_Chiller4"]}, asset="Chiller 4", producer="maintenance")
    found = diagnosis("Chiller 4", ("Condenser Water side fouling", 0.84, 0.96))
    lines = report_summary(report, [found], bullets=3)
    points = [line for line in lines if line.startswith("- ")]
    assert lines[0].endswith("in 3 points:") and len(points) == 3
    assert points[-1] == "- Next: clean the tubes" and "Condenser Water side fouling" in points[0]


def test_the_findings_name_the_latest_job_done_per_chiller() -> None:
    from graph.answering.findings import session_findings
    from tests.unit.answering.builders import orders

    listing = orders("Chiller 4", "CWC04704", total=17, corrective=4, start="2021-01-01", end="2021-08-11",
                     recent=[{"wo_id": "WO157366", "date": "2021-07-12", "code": "MT002",
                              "description": "Condenser Tube Cleaning"}])
    assert any("latest: Condenser Tube Cleaning on 2021-07-12" in line for line in session_findings([listing]).lines)


def test_the_findings_say_when_and_count_alerts_and_lead_with_one_when_nothing_was_diagnosed() -> None:
    from datetime import UTC, datetime

    from graph.answering.findings import session_findings

    june = {"start": datetime(2021, 6, 1, 4, tzinfo=UTC), "end": datetime(2021, 7, 1, 4, tzinfo=UTC)}
    six = art("alert_rules", {"rules": [{"rule_id": "RUL0014", "rule_name": "Delta T Low", "count": 37},
                                        {"rule_id": "RUL0012", "rule_name": "Setpoint Attainment", "count": 30}]},
              asset="Chiller 6", producer="maintenance", **june)
    nine = art("alert_rules", {"rules": [{"rule_id": "RUL0018", "count": 31}]}, asset="Chiller 9",
               producer="maintenance", **june)
    found = session_findings([six, nine])
    assert found.lines[0].startswith("- Chiller 6 in June 2021: 67 alerts, most from RUL0014 Delta T Low (37)")
    assert "Chiller 9 in June 2021: 31 alerts" in found.lines[1]
    assert found.conclusion.startswith("Verdict: no diagnosis yet; the main finding: Chiller 6 in June 2021: 67 alerts")


def test_a_short_summary_quotes_the_findings_of_every_chiller_it_covers() -> None:
    from graph.answering.long_output import report_summary

    report = art("management_report", {"report": "## Management summary: Chiller 4, Chiller 9 (June 2021)\n",
                                       "cites": ["artifact_anom_Chiller9", "artifact_diag_Chiller4"]},
                 asset=None, producer="maintenance")
    four = diagnosis("Chiller 4", ("Condenser Water side fouling", 0.84, 0.96), id="artifact_diag_Chiller4")
    lines = report_summary(report, [four, anomaly("Chiller 9", 0.12)])
    text = "\n".join(lines)
    assert lines[0].startswith("Management summary: Chiller 4, Chiller 9 (June 2021): Chiller 4: Condenser Water")
    assert "- Chiller 9 from 2021-03-01 to 2021-06-01: 12.0% of running samples flagged (abnormal)" in text
    assert lines[-1].startswith("Full report: /v1/sessions/") and "(2 findings cited)" in lines[-1]


def test_an_existing_work_order_is_named_with_its_code_and_the_period_searched() -> None:
    from graph.answering.verdicts import work_order_existence_verdict
    from tests.unit.answering.builders import orders

    listing = orders("Chiller 4", "CWC04704", total=2, corrective=2, start="2020-11-26", end="2021-06-16",
                     recent=[{"wo_id": "WO156507", "date": "2021-03-31", "code": "M013",
                              "description": "Condenser Plugged"}])
    verdict = work_order_existence_verdict([listing], "did anybody already log a work order for that?")
    assert verdict is not None and verdict.sentence == (
        "Yes, 2 work orders from 2020-11-26 to 2021-06-16; the latest is WO156507 on 2021-03-31 (M013 Condenser Plugged).")


def test_a_summary_in_bullets_restates_what_the_dialog_found_when_nothing_was_diagnosed() -> None:
    from graph.answering.long_output import report_summary

    report = art("management_report", {"report": "## Management summary: Chiller 4 (this year)\n\n"
                                                 "**Recommended next steps**: keep monitoring.", "cites": []},
                 asset="Chiller 4", producer="maintenance")
    earlier = ["Chiller 4, 2021-04-01 to 2021-07-01: Efficiency 0.47 kW/ton while running.",
               "Which chiller do you mean?",
               "Yes, Chiller 4 runs more efficiently after WO157366 on 2021-07-12: 0.47 kW/ton against 0.49 before."]
    lines = report_summary(report, [], bullets=3, earlier=earlier)
    assert lines[1:4] == ["- Chiller 4, 2021-04-01 to 2021-07-01: Efficiency 0.47 kW/ton while running.",
                          "- Chiller 4 runs more efficiently after WO157366 on 2021-07-12: 0.47 kW/ton against 0.49 "
                          "before.", "- Next: keep monitoring."]


def test_a_clause_never_ends_inside_parentheses_and_a_question_keeps_its_mark() -> None:
    from graph.answering.sections import first_clause
    from graph.nodes.respond import lead_of

    assert first_clause("Chiller 3 has the highest load: 63% (Chiller 4 61%; Chiller 9 59%). More") == \
        "Chiller 3 has the highest load: 63% (Chiller 4 61%; Chiller 9 59%)."
    assert first_clause("Which chiller do you mean?") == "Which chiller do you mean?"
    assert lead_of("Chiller 4. Chiller 4 runs least efficiently: 0.49 kW/ton.\n- more") == \
        "Chiller 4 runs least efficiently: 0.49 kW/ton."


def test_when_did_it_start_leads_with_the_day_the_largest_sustained_shift_began() -> None:
    shifted = art("anomaly_detection", {"anomaly_rate": 0.21, "sustained_shifts": [
        {"message": "From 2020-07-20 Chiller 3 Condenser Water Flow is 310 below its calibration relation (-16% of "
                    "the expected value); sustained enough to flag on 2020-07-21."}]}, asset="Chiller 3")
    lead = shaped_lead(_inputs("open", [shifted], question="When did that start?"))
    assert lead is not None and lead.first.startswith(
        "It started around 2020-07-20: Chiller 3 Condenser Water Flow is 310 below its calibration relation")
    assert shaped_lead(_inputs("open", [shifted], question="what does it show?")) is None


def test_without_a_sustained_shift_the_start_is_the_earliest_of_the_strongest_flagged_stretches() -> None:
    flagged = art("anomaly_detection", {"anomaly_rate": 0.21, "sustained_shifts": [], "per_sensor": {
        "Chiller 3 Condenser Water Flow": {"sensor": "Chiller 3 Condenser Water Flow", "rate": 0.21, "periods": [
            {"start": "2020-08-01T06:00:00-04:00", "end": "2020-08-03T03:30:00-04:00"},
            {"start": "2020-07-29T18:00:00-04:00", "end": "2020-07-30T02:00:00-04:00"}]}}}, asset="Chiller 3")
    lead = shaped_lead(_inputs("open", [flagged], question="since when has it been like this?"))
    assert lead is not None and lead.first == (
        "It shows from around 2020-07-29: the earliest of the strongest flagged stretches of Chiller 3 Condenser "
        "Water Flow runs 2020-07-29 18:00 to 2020-07-30 02:00.")


def test_when_was_it_last_cleaned_names_the_latest_order_of_that_job_and_serviced_any_planned_one() -> None:
    listing = art("work_order_summary", {"total": 3, "latest_per_job": [
        {"wo_id": "WO3", "date": "2021-06-25", "code": "MT013", "description": "Routine Vibration Analysis",
         "preventive": True},
        {"wo_id": "WO2", "date": "2021-05-05", "code": "MT002", "description": "Cleaning: Condenser Tube Cleaning",
         "preventive": True}]}, asset="Chiller 9", producer="maintenance")
    cleaned = shaped_lead(_inputs("open", [listing], question="when was it last cleaned?"))
    assert cleaned is not None and cleaned.first == (
        "Chiller 9: last on 2021-05-05, WO2 (MT002 Cleaning: Condenser Tube Cleaning).")
    serviced = shaped_lead(_inputs("open", [listing], question="when did it last get serviced?"))
    assert serviced is not None and serviced.first.startswith("Chiller 9: last on 2021-06-25, WO3")
    flushed = shaped_lead(_inputs("open", [listing], question="when was it last flushed?"))
    assert flushed is not None and flushed.first.startswith("Chiller 9: no such work order")


def test_how_many_alarms_across_the_plant_leads_with_the_total() -> None:
    from tests.unit.answering.builders import alerts

    six = alerts("Chiller 6", "CWC04006", {"RUL0014": 20, "RUL0012": 4}, start="2021-04-01", end="2021-05-01")
    nine = alerts("Chiller 9", "CWC04009", {"RUL0018": 15}, start="2021-04-01", end="2021-05-01")
    lead = shaped_lead(_inputs("open", [six, nine], scope="fleet",
                               question="how many alarms did the plant have in April?"))
    assert lead is not None and lead.first.startswith("39 alerts in all: 24 alerts on CWC04006 from 2 rules")


def test_with_no_fault_diagnosed_the_procedure_checks_the_best_candidate_instead_of_fixing() -> None:
    from graph.answering.procedure import fix_plan

    found = diagnosis("Chiller 6", ("No fault: normal operation", 0.6, 0.7), ("Purge Unit Excessive purge", 0.03, 0.35))
    plan = fix_plan([found])
    assert plan is not None and plan[0].startswith("No fault is diagnosed on Chiller 6, so nothing needs fixing")
    assert plan[1][0] == "1. Check the condenser approach."  # the diagnosis's own confirming test
    fault = fix_plan([diagnosis("Chiller 6", ("Condenser Water side fouling", 0.8, 0.9))])
    assert fault is not None and fault[0] == "To deal with Condenser Water side fouling on Chiller 6, three steps:"


def test_derived_figures_are_stated_when_asked() -> None:
    from graph.answering.asked_figures import derived_figure_texts
    from tests.unit.answering.builders import window

    read = window("Chiller 3", "2021-05-16", "2021-06-15", {"Return Temperature": (49.8, "degF"),
                                                           "Supply Temperature": (44.0, "degF"),
                                                           "Liquid Refrigerant Evaporator Temperature": (41.7, "degF")})
    assert derived_figure_texts("what's the delta T on ch3?", read) == [
        "delta T 5.8 degF while running (return temperature 49.8 degF, supply temperature 44.0 degF)"]
    assert derived_figure_texts("and the evap approach?", read)[0].startswith("evaporator approach 2.3 degF")
    assert derived_figure_texts("condenser approach trend?", read) == []
    assert derived_figure_texts("whats up w/ the evap aproach", read)[0].startswith("evaporator approach")  # typo


def test_clauses_split_only_outside_parentheses() -> None:
    from graph.answering.markdown import clauses_outside_parentheses, whole_clauses

    text = "Chiller 3 has the highest load: 63% while running (Chiller 4 61%; Chiller 9 59%); the rest is steady"
    assert clauses_outside_parentheses(text) == [
        "Chiller 3 has the highest load: 63% while running (Chiller 4 61%; Chiller 9 59%)", "the rest is steady"]
    assert whole_clauses(text + ".", 90) == "Chiller 3 has the highest load: 63% while running (Chiller 4 61%; Chiller 9 59%)."


def test_advice_on_one_chiller_rests_on_its_own_evidence_not_another_ones_later_diagnosis() -> None:
    from graph.answering.recommend import recommend
    own = diagnosis("Chiller 6", ("Condenser Improper water side flow rate", 0.95, 1.0), turn=1)
    other = diagnosis("Chiller 3", ("Evaporator Water side fouling", 0.8, 0.9), turn=2)
    advice = recommend("should i pull the strainer on 6 this weekend or wait?", [own, other], None, {"Chiller 6"})
    assert "Condenser Improper water side flow rate" in advice.sentence
    assert not any("Evaporator" in reason for reason in advice.reasons)


def test_after_a_sensor_drift_finding_the_fix_asked_for_is_a_recalibration() -> None:
    from graph.answering.shapes import AnswerInputs, shaped_lead
    validity = art("sensor_validity", {"verdicts": [
        {"sensor": "Chiller 6 Supply Temperature", "verdict": "sensor_drift", "shift": 0.54, "followers": []},
        {"sensor": "Chiller 6 Return Temperature", "verdict": "real_change", "shift": 1.2, "followers": ["x"]}]},
        asset="Chiller 6", producer="failure", turn=3)
    older = diagnosis("Chiller 6", ("Condenser Water side fouling", 0.6, 0.7), turn=1)
    for shape, question in (("recommend", "ok what would you do about it"),
                            ("how_to", "how do I check and recalibrate it in the field?")):
        lead = shaped_lead(AnswerInputs(shape=shape, scope="asset", question=question, artifacts=[],
                                        session=[older, validity]))
        assert lead is not None and lead.first.startswith("Recalibrate Chiller 6's Supply Temperature transmitter")
        assert any("reference probe" in line for line in lead.lines)
    newer = diagnosis("Chiller 6", ("Condenser Water side fouling", 0.6, 0.7), turn=4)
    lead = shaped_lead(AnswerInputs(shape="how_to", scope="asset", question="how do we fix it?", artifacts=[],
                                    session=[validity, newer]))
    assert lead is None or not lead.first.startswith("Recalibrate")


def test_a_recalibration_asked_after_the_sensor_was_found_true_is_a_field_check_that_says_so() -> None:
    from graph.answering.shapes import AnswerInputs, shaped_lead
    validity = art("sensor_validity", {"verdicts": [
        {"sensor": "Chiller 4 Return Temperature", "verdict": "real_change", "shift": -1.03, "followers": []}]},
        asset="Chiller 4", producer="failure", turn=2)
    lead = shaped_lead(AnswerInputs(shape="how_to", scope="asset", question="how should I check and recalibrate that "
                                    "sensor on site?", artifacts=[], session=[validity]))
    assert lead is not None and lead.first.startswith("The data show a real change, not drift, on Chiller 4's Return "
                                                      "Temperature")
    assert any("reference probe" in line for line in lead.lines)


def test_a_summary_restates_findings_not_headings_and_a_long_window_by_its_figures() -> None:
    from graph.answering.findings import session_findings
    from graph.answering.long_output import dialog_leads
    assert dialog_leads(["Chiller 6 (2021-04-01 to 2021-05-01):.", "Chiller 6 ran at 0.38 kW/ton."], "x") == [
        "Chiller 6 ran at 0.38 kW/ton."]
    stats = {"Chiller 6 Chiller Efficiency": {"mean": 0.1, "running_mean": 0.38, "unit": "kW/ton", "count": 100}}
    window = art("telemetry_window", {"stats": stats, "running_share": 0.2}, asset="Chiller 6", producer="data",
                 summary="Chiller 6, 2021-04-01 to 2021-05-01: " + "a long run-on summary of every sensor; " * 20)
    found = session_findings([window])
    assert "efficiency 0.38 kW/ton while running" in found.conclusion


def test_whether_a_forecast_is_good_enough_weighs_its_error_against_the_running_level() -> None:
    from graph.answering.signal_verdicts import forecast_accuracy_verdict
    scored = art("evaluate_forecast", {"ttm_96_28": [{"target": "Chiller 9 Tonnage", "pairs": 500, "mae": 30.0}],
                                       "actual_means": {"Chiller 9 Tonnage": 600.0}}, asset="Chiller 9")
    good = forecast_accuracy_verdict([scored], "good enough to plan staging with?")
    assert good is not None and good.answer == "Yes" and "5% of the running level" in good.sentence
    rough = art("evaluate_forecast", {"ttm_96_28": [{"target": "Chiller 9 Tonnage", "pairs": 500, "mae": 140.0}],
                                      "actual_means": {"Chiller 9 Tonnage": 600.0}}, asset="Chiller 9")
    poor = forecast_accuracy_verdict([rough], "is it accurate?")
    assert poor is not None and poor.answer == "No"
    assert forecast_accuracy_verdict([scored], "what did it forecast?") is None


def test_a_pick_among_equipment_with_no_alerts_says_none_had_any() -> None:
    from graph.answering.shapes import AnswerInputs, shaped_lead
    from tests.unit.answering.builders import alerts
    empty = [alerts(f"Chiller {n}", f"CWC0400{n}", {}, start="2019-07-01", end="2019-08-01") for n in (6, 9)]
    lead = shaped_lead(AnswerInputs(shape="which", scope="fleet", question="which chillers had the most alarms?",
                                    artifacts=empty))
    assert lead is not None and lead.first.startswith("None of the 2 equipment ids has any alerts")


def test_outside_its_normal_range_asks_about_the_abnormal_not_whether_all_is_well() -> None:
    from graph.answering.diagnosis_verdicts import asks_health
    assert asks_health("is chiller 4 running normally?")
    assert not asks_health("is any chiller running outside its normal envelope this week?")
    assert not asks_health("anything not ok on 6?")


def test_many_alarms_asked_of_a_few_is_no_and_how_many_is_still_a_count() -> None:
    from graph.answering.verdicts import alert_verdict
    from tests.unit.answering.builders import alerts
    one = alerts("Chiller 6", "CWC04006", {"RUL0017": 1}, start="2020-05-01", end="2020-07-01")
    few = alert_verdict([one], "did it throw many alarms in that window?")
    assert few is not None and few.sentence == "No, only 1 alert fired on CWC04006."
    counted = alert_verdict([one], "did it throw any alarms? how many")
    assert counted is not None and counted.answer == "Yes"


def test_an_idle_chiller_is_not_the_most_efficient_in_a_comparison() -> None:
    from graph.answering.fleet_ranking import compare_assets
    from tests.unit.answering.builders import window

    rows = [window(f"Chiller {n}", "2021-07-01", "2021-07-02", {"Chiller Efficiency": (v, "kW/ton")})
            for n, v in ((3, 0.0), (4, 0.49), (6, 0.42))]
    comparison = compare_assets(rows)
    assert comparison is not None
    assert comparison.headline == ("Chiller 4 runs least efficiently: 0.49 kW/ton while running "
                                   "(best: Chiller 6, 0.42 kW/ton while running).")


def test_drifting_or_a_real_change_is_answered_neither_when_nothing_moved() -> None:
    validity = art("sensor_validity", {"verdicts": [{"sensor": "Return Temperature", "verdict": "no_change",
                                                     "shift": 0.04, "followers": []}]}, asset="Chiller 4",
                   producer="failure")
    lead = shaped_lead(AnswerInputs(shape="which", scope="asset", artifacts=[validity],
                                    question="so is 4's return temp sensor drifting, or is that a real change?"))
    assert lead is not None
    assert lead.first == ("Neither sensor drift nor a real change: Return Temperature stayed within its normal "
                          "spread at equal load.")


def test_a_ranking_over_the_chillers_leads_an_open_plan_most_urgent_first() -> None:
    rows = [("Chiller 9", 10.4, "most likely Evaporator Water side fouling at ~95%"),
            ("Chiller 6", 5.2, "most likely Temperature Sensor: Calibration drift at ~80%")]
    ranked = art("priority_ranking", {"ranking": [{"asset_id": a, "score": s, "reasons": [r]} for a, s, r in rows]},
                 asset=None, producer="maintenance")
    lead = shaped_lead(AnswerInputs(shape="open", scope="assets", artifacts=[ranked],
                                    question="Give me a plan for this week, most urgent first."))
    assert lead is not None and lead.first == "Chiller 9 first: most likely Evaporator Water side fouling at ~95%."


def test_a_lead_restated_later_keeps_the_period_its_answer_covered() -> None:
    from graph.nodes.respond import lead_of
    answer = ("Yes, Chiller 9 shows abnormal behaviour, well above the detector's rate.\n- detail\n"
              "Scope: Chiller 9; 2021-06-01 to 2021-07-01 (last month).\n")
    assert lead_of(answer) == "Yes, Chiller 9 shows abnormal behaviour, well above the detector's rate (June 2021)."
    dated = "Chiller 9 had 31 alerts in June 2021.\nScope: Chiller 9; 2021-06-01 to 2021-07-01 (last month).\n"
    assert lead_of(dated) == "Chiller 9 had 31 alerts in June 2021."  # it says when already


def test_a_percentage_keeps_a_tenth() -> None:
    from graph.answering.markdown import number
    assert number(16.49, "%") == "16.5%" and number(31.0, "%") == "31%"


def test_trouble_with_a_reading_said_without_a_direction_is_not_picked_by_its_level() -> None:
    from graph.answering.asked_figures import sensor_ranking
    from tests.unit.answering.builders import window
    flows = [window(f"Chiller {n}", "2020-08-01", "2020-09-01", {"Condenser Water Flow": (v, "gpm")})
             for n, v in ((3, 1518.0), (6, 3299.0), (9, 3300.0))]
    assert sensor_ranking("which one had a problem with its condenser water flow?", flows) is None
    ranked = sensor_ranking("which one had the lowest condenser water flow?", flows)
    assert ranked is not None and ranked.first == "Chiller 3"
