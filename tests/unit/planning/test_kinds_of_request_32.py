"""Kinds of request met this stop: a question carried to a new period keeps its request, advice names when to act,
"report" as an instrument's verb, alerts asked beside a fault in the scene, the best end of a ranking, and "more
often than it used to" against a period named."""

from __future__ import annotations

from datetime import UTC, date, datetime

from graph.answering.compare_verdicts import comparison_verdict
from graph.answering.shapes import AnswerInputs, shaped_lead
from graph.answering.verdicts import real_or_instrument
from graph.understanding.request import read_request
from tests.unit.answering.builders import art, diagnosis
from tests.unit.planning.dialog import Dialog, step_set

WINTER = date(2021, 3, 20)


def test_a_which_question_carried_to_another_period_is_the_same_listing_not_a_pick() -> None:
    dialog = Dialog(reference_date=WINTER)
    dialog.say("which alarm rules went off on chiller 4 in january, and how often?")
    decision = dialog.say("and so far this month?")
    assert step_set(decision) == {("maintenance", "alert_rules")}
    assert decision.tasks[0].window is not None and decision.tasks[0].window.start.month == 3


def test_a_time_ahead_named_in_advice_is_when_to_act_not_a_period_to_read() -> None:
    dialog = Dialog(reference_date=WINTER)
    dialog.say("how has chiller 9 been doing lately?")
    for advice in ("is it worth re-tubing it ahead of next summer?",
                   "anything you would keep an eye on over next summer?",
                   "should we service it now, or can it hold until the overhaul in august?"):
        decision = dialog.say(advice)
        assert decision.kind == "run", advice
        assert all(t.window is None or t.window.start.date() <= WINTER for t in decision.tasks), advice


def test_worth_opening_a_question_asks_for_advice() -> None:
    assert read_request("worth swapping the duty chiller before the heat?").shape == "recommend"


def test_report_as_the_verb_of_an_instrument_is_a_reading_not_a_report() -> None:
    dialog = Dialog(reference_date=WINTER)
    decision = dialog.say("what return temp did chiller 4 report over january?")
    assert ("maintenance", "report") not in step_set(decision)
    assert ("data", "history") in step_set(decision)
    assert ("maintenance", "report") in step_set(Dialog(reference_date=WINTER).say(
        "write me a report on chiller 4 for management"))


def test_alerts_asked_beside_a_fault_in_the_scene_are_the_alerts_not_the_jobs() -> None:
    dialog = Dialog(reference_date=WINTER)
    decision = dialog.say("did chiller 3 log any alarms in february while its strainer was blocked?")
    assert ("maintenance", "alert_rules") in step_set(decision)
    assert ("maintenance", "wo_summary") not in step_set(decision)


def test_the_best_shape_is_the_other_end_of_the_priority_ranking() -> None:
    rows = [("Chiller 9", 10.4, "most likely Evaporator Water side fouling at ~95%"),
            ("Chiller 4", 7.5, "most likely Condenser Water side fouling at ~90%"),
            ("Chiller 3", 1.1, "no fault candidate above normal operation")]
    ranked = art("priority_ranking", {"ranking": [{"asset_id": a, "score": s, "reasons": [r]} for a, s, r in rows]},
                 asset=None, producer="maintenance")
    healthiest = shaped_lead(AnswerInputs(shape="which", scope="assets", artifacts=[ranked],
                                          question="and which of them looks healthiest?"))
    assert healthiest is not None and healthiest.first.startswith("Chiller 3 is in the best shape")
    worst = shaped_lead(AnswerInputs(shape="which", scope="assets", artifacts=[ranked],
                                     question="which one needs us first?"))
    assert worst is not None and worst.first.startswith("Chiller 9")


def test_more_often_than_it_used_to_holds_the_latest_year_against_the_one_named() -> None:
    def corrective(year: int, count: int, turn: int) -> object:
        return art("work_order_summary", {"total": count, "corrective": count, "kind": "corrective"},
                   asset="Chiller 4", producer="maintenance", id=f"artifact_mp_{year}", turn=turn,
                   start=datetime(year, 1, 1, tzinfo=UTC), end=datetime(year + 1, 1, 1, tzinfo=UTC))

    named, latest = corrective(2017, 3, 2), corrective(2020, 9, 1)
    verdict = comparison_verdict("looking back to 2017, is it failing more often than it used to?",
                                 [named], [latest, named])  # type: ignore[list-item]
    assert verdict is not None and verdict.answer == "Yes"
    assert verdict.sentence.startswith("Yes, Chiller 4 had 9 corrective work orders in 2020 against 3 in 2017")


def test_real_or_the_sensor_names_the_side_the_evidence_takes() -> None:
    drift = diagnosis("Chiller 6", ("Temperature Sensor: Calibration drift", 0.7, 0.9), ("No fault: normal operation", 0.0, 0.2))
    steady = art("sensor_validity", {"verdicts": [{"sensor": "Supply Temperature", "verdict": "no_change", "shift": 0.1,
                                                   "followers": []}]}, producer="failure")
    side = real_or_instrument([drift, steady])
    assert side is not None and side[0].startswith("The sensor, most likely: the diagnosis of Chiller 6 puts "
                                                   "Temperature Sensor: Calibration drift first (0.80)")
    fouled = diagnosis("Chiller 6", ("Condenser Water side fouling", 0.8, 1.0))
    moved = art("sensor_validity", {"verdicts": [{"sensor": "Supply Temperature", "verdict": "real_change",
                                                  "shift": 1.2, "followers": ["Power Input"]}]}, producer="failure")
    real = real_or_instrument([fouled, moved])
    assert real is not None and real[0].startswith("It looks real, not the sensor")
    # (a process fault leading while the reading held steady at equal load decides nothing)
    unclear = real_or_instrument([fouled, steady])
    assert unclear is not None and unclear[0].startswith("Neither clearly")
    lead = shaped_lead(AnswerInputs(shape="open", scope="asset", artifacts=[drift, steady],
                                    question="real problem or is the probe lying to us"))
    assert lead is not None and lead.first.startswith("The sensor, most likely")


def test_a_count_standing_for_the_monitored_chillers_narrows_the_pick() -> None:
    dialog = Dialog(reference_date=date(2020, 1, 15))
    dialog.say("which unit logged the most corrective jobs last year?")
    decision = dialog.say("of the 4 with sensor data, which logged the least")
    assert {t.asset_ids[0] for t in decision.tasks} == {"Chiller 3", "Chiller 4", "Chiller 6", "Chiller 9"}


def test_readings_that_name_the_alerts_ask_for_no_readings() -> None:
    dialog = Dialog(reference_date=date(2021, 6, 15))
    dialog.say("how many load low alerts did chiller 3 raise last month")
    decision = dialog.say("low flow alarms on it this month vs all of april?")
    assert step_set(decision) == {("maintenance", "alert_rules")}


def test_what_failed_most_is_the_commonest_corrective_code() -> None:
    dialog = Dialog(reference_date=date(2020, 3, 1))
    dialog.say("how many corrective jobs did chiller 4 get in 2019?")
    assert step_set(dialog.say("and what failed the most that year")) == {("maintenance", "wo_summary")}


def test_a_question_tag_without_its_mark_still_asks_yes_or_no() -> None:
    reading = read_request("so the flow is dropping again or nah")
    assert (reading.shape, reading.act) == ("yes_no", "question")
    assert read_request("that was the strainer right").shape == "yes_no"


def test_getting_worse_after_two_yearly_counts_holds_the_later_against_the_earlier() -> None:
    from tests.unit.answering.builders import orders

    earlier = orders("Chiller 4", "CWC04704", total=20, corrective=9, start="2018-01-01", end="2019-01-01",
                     listed="corrective", turn=1)
    later = orders("Chiller 4", "CWC04704", total=20, corrective=4, start="2019-01-01", end="2020-01-01",
                   listed="corrective", turn=1)
    verdict = comparison_verdict("so is it getting worse?", [earlier, later], [earlier, later])
    assert verdict is not None and verdict.sentence == "No, Chiller 4 had 4 corrective work orders in 2019 against 9 in 2018."


def test_a_shortened_condenser_names_the_condenser_reading_not_the_chilled_water() -> None:
    from graph.answering.asked_figures import asked_sensors

    assert asked_sensors("running hot? cond return temp last 30 days") == ["Condenser Water"]
    assert asked_sensors("chw supply and return last week") == ["Supply Temperature", "Return Temperature"]
    from graph.understanding.request import HOLDS_SETPOINT
    assert HOLDS_SETPOINT.search("ch4 chw supply holding sp ok lately?")


def test_one_question_pointing_back_and_another_naming_a_chiller_ask_about_both() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 1))
    dialog.say("how has chiller 4 been running this month?")
    decision = dialog.say("What did its supply temp average in June, and what did Chiller 9 average over the same month?")
    assert {t.asset_ids[0] for t in decision.tasks} >= {"Chiller 4", "Chiller 9"}


def test_a_judgement_asked_on_one_chiller_is_its_diagnosis() -> None:
    dialog = Dialog(reference_date=date(2020, 9, 10))
    dialog.say("how did chiller 3 run in august?")
    assert ("failure", "diagnose") in step_set(dialog.say("what do you reckon is going on with it?"))


def test_same_point_last_year_without_the_article_is_the_year_to_that_date() -> None:
    dialog = Dialog(reference_date=date(2021, 10, 1))
    dialog.say("load low alerts on chiller 3 ytd")
    decision = dialog.say("vs same point last yr")
    ends = {t.window.end.date() for t in decision.tasks if t.window is not None}
    assert date(2020, 10, 2) in ends


def test_weighing_a_new_order_names_the_corrective_order_already_on_file() -> None:
    from graph.answering.recommend import recommend
    from tests.unit.answering.builders import anomaly, orders

    listing = orders("Chiller 3", "CWC04703", total=3, corrective=1, start="2020-07-01", end="2020-08-25",
                     recent=[{"wo_id": "WO2", "date": "2020-08-12", "code": "MT001", "description": "Inspection",
                              "preventive": True},
                             {"wo_id": "WO1", "date": "2020-08-09", "code": "OP002", "description": "Blockage"}])
    flagged = anomaly("Chiller 3", 0.3)
    advice = recommend("should we raise a wo now or wait till it gets worse", [flagged, listing], None)
    assert "already on file: WO1 on 2020-08-09 (OP002 Blockage)" in advice.sentence
    assert "on file" not in recommend("should we clean the tubes now?", [flagged, listing], None).sentence


def test_since_when_after_a_pick_is_the_onset_on_the_one_picked() -> None:
    from dataclasses import replace as replaced

    dialog = Dialog(reference_date=date(2020, 8, 25))
    dialog.say("ch3 vs ch4 cond water flow this month so far")
    dialog.focus = replaced(dialog.focus, picked="Chiller 3")  # the answer to "which one looks off?" named it
    decision = dialog.say("since when roughly")
    assert {t.asset_ids[0] for t in decision.tasks} == {"Chiller 3"}


def test_three_yearly_counts_are_a_series_not_two_periods() -> None:
    from graph.answering.verdicts import yes_no_verdict
    from tests.unit.answering.builders import orders

    years = [orders("Chiller 6", "CWC04006", total=9, corrective=c, start=f"{y}-01-01", end=f"{y + 1}-01-01",
                    listed="corrective", turn=1) for y, c in ((2017, 4), (2018, 7), (2019, 11))]
    assert comparison_verdict("is corrective work on it trending up?", years, years) is None
    assert yes_no_verdict("so is it getting worse?", years[1:], years[1:]).answer == "Yes"


def test_a_doubted_instrument_names_where_its_own_fault_ranks() -> None:
    fouled = diagnosis("Chiller 6", ("Condenser Water side fouling", 0.8, 0.9),
                       ("Temperature Sensor: Calibration drift", 0.0, 0.1))
    steady = art("sensor_validity", {"verdicts": [{"sensor": "Supply Temperature", "verdict": "no_change", "shift": 0.1,
                                                   "followers": []}]}, producer="failure")
    side = real_or_instrument([fouled, steady])
    assert side is not None and "Temperature Sensor: Calibration drift ranks lower (0.05)" in side[0]
    assert "no sensor drift shows" in side[0]
