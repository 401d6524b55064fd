"""Kinds of request met this stop: whether a chiller ever tripped and when it last did (the whole telemetry record
is searched, and the answer leads with the stop's date), a trip put as a statement to confirm ("3 tripped in August,
didn't it?"), and what counts as a trip at all (a stop that takes a sensor down with it)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import numpy as np
import pandas as pd

from graph.answering.diagnosis_verdicts import last_trip_sentence
from specialists.common.evidence import trip_time
from tests.unit.answering.builders import diagnosis
from tests.unit.planning.dialog import Dialog, at, step_set, window_of

SUMMER = date(2021, 7, 1)


def _window(asset: str, means: dict[str, tuple[float, str]], start: datetime, end: datetime) -> object:
    """A telemetry window with running means {sensor: (value, unit)} of one chiller."""
    from tests.unit.answering.builders import art
    stats = {f"{asset} {sensor}": {"mean": value, "running_mean": value, "unit": unit, "count": 100}
             for sensor, (value, unit) in means.items()}
    return art("telemetry_window", {"stats": stats}, asset=asset, producer="data",
               id=f"w{start:%Y%m%d}-{end:%Y%m%d}", start=start, end=end)


def test_ever_tripped_searches_the_whole_telemetry_record() -> None:
    decision = Dialog(reference_date=SUMMER).say("Has Chiller 3 ever tripped?")
    assert ("failure", "diagnose") in step_set(decision)
    start, end = window_of(decision, "diagnose")
    assert start.date() <= date(2016, 1, 1) and end.date() == date(2021, 7, 2)


def test_when_it_last_tripped_is_a_diagnosis_over_the_whole_record() -> None:
    dialog = Dialog(reference_date=SUMMER)
    dialog.say("is chiller 9 ok?")
    decision = dialog.say("when was its last trip?")
    assert ("failure", "diagnose") in step_set(decision)
    assert window_of(decision, "diagnose")[0].year == 2016


def test_a_trip_stated_for_confirmation_is_a_diagnosis_of_that_month() -> None:
    decision = Dialog(reference_date=date(2021, 9, 1)).say("ch 3 tripped sometime in aug 2018 didnt it?")
    assert ("failure", "diagnose") in step_set(decision)
    start, end = window_of(decision, "diagnose")
    assert (start.date(), end.date()) == (date(2018, 8, 1), date(2018, 9, 1))


def test_a_trip_used_as_a_time_stays_the_question_asked() -> None:
    decision = Dialog(reference_date=SUMMER).say("chiller 9: was it running hot before it tripped?")
    assert ("failure", "diagnose") not in step_set(decision)


def test_the_last_trip_leads_with_its_date_and_time() -> None:
    found = diagnosis("Chiller 9", ("Control Panel: Electrical failure (safety trip)", 0.7, 0.9))
    found.results["trip_time"] = "2019-07-23T15:15:00-04:00"
    assert last_trip_sentence("when did it last trip?", [found]) == "Chiller 9 last tripped on 2019-07-23 at 15:15 site time."
    quiet = diagnosis("Chiller 6", ("No fault: normal operation", 0.7, 0.9))
    assert last_trip_sentence("when was ch6's last trip?", [quiet]).startswith("No trip of Chiller 6 was found from")
    assert last_trip_sentence("what is its efficiency?", [found]) is None


def _running_then_stopped(dark_hours: float) -> pd.DataFrame:
    index = pd.date_range("2021-06-01", periods=4 * 24 * 3, freq="15min", tz="UTC")
    load = np.full(len(index), 80.0)
    stop = 4 * 30
    load[stop:stop + 4 * 12] = 0.0  # off for twelve hours, from high, steady load
    flow = np.full(len(index), 2000.0)
    flow[stop:stop + int(4 * dark_hours)] = np.nan
    return pd.DataFrame({"Chiller % Loaded": load, "Condenser Water Flow": flow}, index=index)


def test_a_stop_is_a_trip_only_when_a_sensor_went_dark_with_it() -> None:
    assert trip_time(_running_then_stopped(dark_hours=6)) == str(pd.Timestamp("2021-06-02 06:00", tz="UTC"))
    assert trip_time(_running_then_stopped(dark_hours=0.5)) is None  # a dropout of minutes, a stop from high load
    assert trip_time(_running_then_stopped(dark_hours=0)) is None


def _task(decision: object, action: str) -> object:
    return next(t for t in decision.tasks if t.action == action)  # type: ignore[attr-defined]


def test_alerts_overall_drop_the_rule_the_dialog_had_narrowed_to() -> None:
    dialog = Dialog(reference_date=date(2020, 6, 15))
    narrowed = dialog.say("how many load low alerts did the chillers throw in 2019?")
    assert _task(narrowed, "alert_rules").params.get("asked_rules")  # type: ignore[attr-defined]
    decision = dialog.say("Which chiller had the most alerts overall that year?")
    assert not _task(decision, "alert_rules").params.get("asked_rules")  # type: ignore[attr-defined]


def test_work_orders_of_all_types_drop_the_kind_the_dialog_had_narrowed_to() -> None:
    dialog = Dialog(reference_date=date(2020, 6, 15))
    assert _task(dialog.say("corrective WOs on chiller 13 this year?"), "wo_summary").params["kind"] == "corrective"  # type: ignore[attr-defined]
    decision = dialog.say("and how many work orders in total did it have last year, all types?")
    assert _task(decision, "wo_summary").params["kind"] == "all"  # type: ignore[attr-defined]


def test_the_lowest_reading_one_is_a_superlative_pick() -> None:
    from graph.planning.scope import superlative_one
    assert superlative_one("and the lowest kw one?")
    assert superlative_one("what about the highest kw/ton unit")
    assert not superlative_one("the lowest kw reading was when?")


def test_units_with_only_work_orders_are_the_side_without_sensor_data() -> None:
    from graph.understanding.fleet_subset import telemetry_subset
    assert telemetry_subset("of the units with only work orders, which had the most correctives in 2020") == "no_telemetry"
    assert telemetry_subset("for the work-order-only chillers, how many PMs?") == "no_telemetry"
    assert telemetry_subset("show only work orders for chiller 6") is None


def test_a_look_at_the_units_without_sensor_data_is_their_records_not_a_refusal() -> None:
    dialog = Dialog(reference_date=SUMMER)
    dialog.say("Across all of our chillers, which one had the most corrective work orders in 2020?")
    decision = dialog.say("And the units we have no sensor data for, how did they do that year?")
    assert decision.kind == "run" and ("maintenance", "wo_summary") in step_set(decision)
    assets = {a for t in decision.tasks for a in t.asset_ids}
    assert "Chiller 13" in assets and "Chiller 6" not in assets


def test_when_did_they_finally_do_a_job_is_the_date_of_the_last_one() -> None:
    from graph.understanding.last_done import last_done_job
    from graph.understanding.text import Text
    from graph.understanding.vocabulary import vocabulary
    assert last_done_job(Text.of("when did they finally clean the tubes"), vocabulary())
    assert not last_done_job(Text.of("when did they notice the alarm"), vocabulary())


def test_did_it_help_with_two_months_named_sets_them_either_side_of_the_job_listed() -> None:
    cleaned = {"recent": [{"description": "Condenser Tube Cleaning", "date": "2021-07-12"}]}
    dialog = Dialog(reference_date=date(2021, 9, 1), results={"wo_summary": cleaned})
    dialog.say("when did they last clean the tubes on chiller 4")
    decision = dialog.say("did it help? compare kw/ton june vs august")
    windows = sorted((t.window.start.date(), t.window.end.date()) for t in decision.tasks
                     if t.action == "history" and t.window is not None)
    assert windows == [(date(2021, 6, 1), date(2021, 7, 1)), (date(2021, 8, 1), date(2021, 9, 1))]


def test_a_reading_asked_after_a_fault_read_about_is_the_reading_not_a_diagnosis() -> None:
    decision = Dialog(reference_date=date(2020, 6, 15)).say(
        "I was reading the notes on 6's condenser flow problem from June 2019. Different question though: what's "
        "Chiller 6's average condenser water flow for this month so far?")
    assert step_set(decision) == {("data", "history")}


def test_what_got_worked_on_is_the_work_orders() -> None:
    decision = Dialog(reference_date=date(2020, 6, 15)).say("What else got worked on 6 last June besides the strainer?")
    assert ("maintenance", "wo_summary") in step_set(decision)


def test_a_bare_total_after_alerts_counted_is_the_alert_count() -> None:
    dialog = Dialog(reference_date=date(2020, 6, 15))
    dialog.say("how many alerts did chiller 6 throw in Q1?")
    decision = dialog.say("how does 6's Q1 total stack up against Q1 of last year?")
    assert step_set(decision) == {("maintenance", "alert_rules")}


def test_spans_before_and_after_a_day_named_are_both_sides_of_it() -> None:
    decision = Dialog(reference_date=date(2020, 6, 15)).say(
        "9 got its condenser tubes cleaned on May 18. Compare its kW/ton for the two weeks before with the two weeks after.")
    windows = sorted((t.window.start.date(), t.window.end.date()) for t in decision.tasks
                     if t.action == "history" and t.window is not None)
    assert windows == [(date(2020, 5, 4), date(2020, 5, 18)), (date(2020, 5, 19), date(2020, 6, 2))]


def test_which_year_was_worst_picks_from_the_yearly_counts() -> None:
    from graph.answering.stat_questions import worst_year_sentence
    from tests.unit.answering.builders import work_orders
    yearly = work_orders("Chiller 6", {"2018": 7, "2019": 11, "2020": 14}, 3.5, equipment=["CWC04006"])
    one_year = work_orders("Chiller 6", {"2019": 11, "2020": 0}, 0.0, equipment=["CWC04006"])
    said = worst_year_sentence("which year was the worst then", [one_year, yearly])
    assert said is not None and said[0].startswith("2020 was the worst year for corrective work orders on CWC04006: 14")
    assert worst_year_sentence("which year was the best?", [yearly])[0].startswith("2018 was the best year")  # type: ignore[index]
    assert worst_year_sentence("how many last year?", [yearly]) is None


def test_slipping_on_efficiency_is_getting_worse_at_it() -> None:
    from graph.answering.compare_terms import comparison_sense
    assert comparison_sense("which one slipped the most on efficiency?", higher_is_worse=True) == "higher"


def test_a_bare_season_takes_the_year_the_message_frames_and_frames_nothing() -> None:
    decision = Dialog(reference_date=SUMMER).say(
        "We had a rough summer on Chiller 9 back in 2016. What was its evaporator temperature in August?")
    start, end = window_of(decision, "history")
    assert (start.date(), end.date()) == (date(2016, 8, 1), date(2016, 9, 1))
    later = Dialog(reference_date=SUMMER)
    later.say("We had a rough summer on Chiller 9 back in 2016. What was its evaporator temperature in August of that year?")
    start, _ = window_of(later.say("And the same month a year later?"), "history")
    assert start.date() == date(2017, 8, 1)


def test_a_bare_season_set_against_the_same_season_of_a_year_stays_the_latest() -> None:
    decision = Dialog(reference_date=date(2021, 9, 15)).say("how was chiller 6 power this summer vs summer 2019?")
    windows = {(t.window.start.date(), t.window.end.date()) for t in decision.tasks if t.window is not None}
    assert (date(2021, 6, 1), date(2021, 9, 1)) in windows and (date(2019, 6, 1), date(2019, 9, 1)) in windows


def test_a_check_of_an_earlier_period_too_leaves_the_dialog_on_its_own_period() -> None:
    dialog = Dialog(reference_date=SUMMER)
    dialog.say("ch9 been throwing alrts all june, which rule is it mostly")
    checked = dialog.say("did that one fire last summer too")
    assert window_of(checked, "alert_rules")[0].date() == date(2020, 6, 1)
    decision = dialog.say("so whats causing it, fouling or refrigerant?")
    start, end = window_of(decision, "diagnose")
    assert (start.date(), end.date()) == (date(2021, 6, 1), date(2021, 7, 1))


def test_recalibrate_or_replace_a_sensor_is_about_the_sensor_not_the_chiller() -> None:
    from graph.answering.recommend import recommend
    from tests.unit.answering.builders import art
    drifted = art("sensor_validity", {"verdicts": [{"sensor": "Chiller 6 Supply Temperature", "verdict": "sensor_drift"}]},
                  producer="failure", summary="Supply Temperature moved +0.67 degF at equal load while its coupled "
                                              "readings did not: sensor drift")
    advice = recommend("Should we recalibrate the sensor or replace it outright?", [drifted], None)
    assert advice.sentence.startswith("Recalibrate it first: Chiller 6's Supply Temperature")
    steady = art("sensor_validity", {"verdicts": [{"sensor": "Chiller 6 Supply Temperature", "verdict": "no_change"}]},
                 producer="failure")
    advice = recommend("recalibrate the probe or swap it out?", [steady], None)
    assert advice.sentence.startswith("Neither yet: Chiller 6's Supply Temperature shows no change in the data")


def test_the_work_that_fixed_a_fault_is_found_by_its_code_family_not_shared_words() -> None:
    from graph.answering.verdicts import when_resolved_sentence
    from tests.unit.answering.builders import art, diagnosis
    found = diagnosis("Chiller 6", ("Condenser Water side fouling", 0.76, 0.86))
    orders = art("work_order_summary", {"recent": [
        {"wo_id": "WO155380", "date": "2020-12-03", "code": "OP001",
         "description": "Process Upset: Loss of Condenser Water (entire chiller system)"},
        {"wo_id": "WO153938", "date": "2020-07-09", "code": "MT002",
         "description": "Cleaning: Condenser Tube Cleaning (condenser)"}]}, producer="maintenance")
    said = when_resolved_sentence("Was it fixed, and when?", [orders], [found])
    assert said is not None and said.startswith("On 2020-07-09: WO153938")
    assert when_resolved_sentence("was it fixed?", [orders], [found]) is None  # no date asked


def test_a_span_after_the_trip_dated_before_starts_at_the_trip() -> None:
    tripped = {"trip_time": "2019-07-23T15:15:00-04:00",
               "hypotheses": [{"failure_mode": "Control Panel: Electrical failure (safety trip)", "probability": 0.8}]}
    dialog = Dialog(reference_date=date(2019, 9, 15), results={"diagnose": tripped})
    dialog.say("when was chiller 9's last trip")
    start, end = window_of(dialog.say("how many corrective wo on it in the 2 wks after that"), "wo_summary")
    assert (start.date(), end.date()) == (date(2019, 7, 23), date(2019, 8, 6))


def test_an_occasion_that_names_a_report_does_not_ask_for_one() -> None:
    decision = Dialog(reference_date=date(2019, 9, 15)).say(
        "handover from nights. which chiller at MAIN was off its normal last month? look at power and kw/ton")
    assert ("maintenance", "report") not in step_set(decision) and ("data", "history") in step_set(decision)
    asked = Dialog(reference_date=date(2019, 9, 15)).say("write me a handover for chiller 6 for last month")
    assert ("maintenance", "report") in step_set(asked)


def test_a_period_under_way_set_beside_another_ends_today() -> None:
    decision = Dialog(reference_date=date(2019, 9, 15)).say("chiller 4 avg return temp q2 vs q3 so far")
    windows = {(t.window.start.date(), t.window.end.date()) for t in decision.tasks
               if t.action == "history" and t.window is not None}
    assert windows == {(date(2019, 4, 1), date(2019, 7, 1)), (date(2019, 7, 1), date(2019, 9, 16))}


def test_a_reading_judged_high_with_nothing_to_judge_by_is_set_against_a_year_before() -> None:
    decision = Dialog(reference_date=date(2019, 8, 21)).say("ch6 pulling more kw than it should this month?")
    starts = {t.window.start.date() for t in decision.tasks if t.action == "history" and t.window is not None}
    assert starts == {date(2019, 8, 1), date(2018, 8, 1)}
    plain = Dialog(reference_date=date(2019, 8, 21)).say("what was chiller 6 power in july?")
    assert len([t for t in plain.tasks if t.action == "history"]) == 1
    levelled = Dialog(reference_date=date(2019, 8, 21)).say("was chiller 6 power above 300 kw in july?")
    assert len([t for t in levelled.tasks if t.action == "history"]) == 1


def test_a_trip_told_as_yesterday_dates_the_week_before_it() -> None:
    decision = Dialog(reference_date=date(2019, 7, 24)).say(
        "9 tripped yesterday afternoon around 3:15, ops reset it this morning. What was its avg power input while "
        "running in the week before the trip?")
    start, end = window_of(decision, "history")
    assert (start, end) == (at(2019, 7, 16, 15, 15), at(2019, 7, 23, 15, 15))


def test_a_clock_time_after_afternoon_is_past_noon() -> None:
    from graph.understanding.dates import time_of_day
    assert time_of_day("9 tripped yesterday afternoon around 3:15") == (15, 15)
    assert time_of_day("it stopped at 3:15") == (3, 15)


def test_a_statement_then_a_yes_no_after_a_comma_asks_the_yes_no() -> None:
    from graph.understanding.request import asks_repair_worked, read_request
    asked = "there was a WO on it early august, did that sort the flow out?"
    assert read_request(asked).shape == "yes_no" and asks_repair_worked(asked)
    assert read_request("what about 4, is it ok?").shape == "open"


def test_whether_a_repair_sorted_a_named_reading_out_is_judged_on_that_reading() -> None:
    from graph.answering.change_verdicts import repair_verdict
    from tests.unit.answering.builders import art

    def window(start: datetime, end: datetime, flow: float) -> object:
        return _window("Chiller 3", {"Condenser Water Flow": (flow, "gpm")}, start, end)
    orders = art("work_order_summary", {"recent": [{"wo_id": "WO154220", "date": "2020-08-09", "code": "OP002",
                                                    "description": "Blockage: Strainer Blocked (condenser)"}]},
                 asset="Chiller 3", producer="maintenance")
    before = window(datetime(2020, 7, 2, tzinfo=UTC), datetime(2020, 8, 1, tzinfo=UTC), 1948.0)
    after = window(datetime(2020, 8, 11, tzinfo=UTC), datetime(2020, 9, 16, tzinfo=UTC), 1624.0)
    verdict = repair_verdict("there was a WO on it early august, did that sort the flow out?",
                             [orders, before, after], [])  # type: ignore[list-item]
    assert verdict is not None and verdict.sentence.startswith("No, Chiller 3's condenser water flow is worse after WO154220")


def test_a_sensor_that_stopped_reporting_is_named_once_with_its_stop_time() -> None:
    from graph.answering.signal_verdicts import sensor_health_verdict
    from tests.unit.answering.builders import art
    health = art("trend_stats", {"per_sensor": {"Chiller 9 Condenser Water Flow": {
        "sensor": "Chiller 9 Condenser Water Flow", "flags": ["missing_data"]}}}, asset="Chiller 9")
    window = art("telemetry_window", {"sensors_stopped": {"Chiller 9 Condenser Water Flow": "2019-07-23T15:00:00"}},
                 asset="Chiller 9", producer="data")
    verdict = sensor_health_verdict([health, window], "is any of its sensors dead since the trip?")
    assert verdict is not None
    assert verdict.sentence == "Yes, Chiller 9 Condenser Water Flow (stopped reporting at 2019-07-23 15:00)."


def test_when_was_it_recalibrated_asks_the_date_of_the_last_job() -> None:
    from graph.understanding.last_done import last_done_job
    from graph.understanding.text import Text
    from graph.understanding.vocabulary import vocabulary
    assert last_done_job(Text.of("when was it recalibrated?"), vocabulary()) == frozenset({"calibrat"})
    assert not last_done_job(Text.of("when was it running?"), vocabulary())


def test_a_repair_that_did_not_sort_it_is_a_no_on_the_chillers_efficiency() -> None:
    from graph.answering.change_verdicts import repair_verdict
    from tests.unit.answering.builders import art

    def window(start: datetime, end: datetime, kwt: float) -> object:
        return _window("Chiller 6", {"Chiller Efficiency": (kwt, "kW/ton")}, start, end)
    orders = art("work_order_summary", {"recent": [{"wo_id": "WO150914", "date": "2019-08-18", "code": "M006",
                                                    "description": "Overheating: Overheating of Compressor"}]},
                 producer="maintenance")
    before = window(datetime(2019, 7, 18, tzinfo=UTC), datetime(2019, 8, 17, tzinfo=UTC), 0.43)
    after = window(datetime(2019, 8, 19, tzinfo=UTC), datetime(2019, 8, 23, tzinfo=UTC), 0.49)
    verdict = repair_verdict("there was a compressor overheating WO closed over the weekend, did that sort it",
                             [orders, before, after], [])  # type: ignore[list-item]
    assert verdict is not None and verdict.answer == "No"


def test_a_yes_no_after_a_stated_clause_keeps_the_asking_clause_whole() -> None:
    from graph.understanding.request import asking_clause, described_before, read_request
    said = "ok. the second one on your list, is that a real fault or more of a sensor thing?"
    assert asking_clause(said) == "the second one on your list, is that a real fault or more of a sensor thing?"
    assert not described_before(said)  # (it raised ValueError when the asking clause was cut inside a clause)
    assert read_request("there was a compressor overheating WO closed over the weekend, did that sort it").shape == "yes_no"


def test_a_capitalised_name_before_plant_inside_a_sentence_is_a_site_named() -> None:
    decision = Dialog(reference_date=date(2021, 3, 1)).say("How did the chillers at our Riverside plant hold up last year?")
    assert decision.kind == "reject" and "RIVERSIDE" in decision.message
    assert Dialog(reference_date=date(2021, 3, 1)).say("Plant-wide, which chiller ran least efficiently last month?").kind == "run"


def test_the_week_of_a_day_is_its_monday_to_sunday_week() -> None:
    decision = Dialog(reference_date=date(2021, 3, 1)).say(
        "Chiller 3 condenser water flow, week of 17 Aug 2020 (Mon-Sun). Mean while running?")
    start, end = window_of(decision, "history")
    assert (start.date(), end.date()) == (date(2020, 8, 17), date(2020, 8, 24))


def test_what_it_costs_to_run_is_its_power_over_both_periods_named() -> None:
    decision = Dialog(reference_date=date(2021, 3, 1)).say("Did Chiller 3 cost more to run in August 2020 than in July 2020?")
    reads = {(t.window.start.date(), tuple(t.sensors)) for t in decision.tasks if t.action == "history" and t.window}
    assert reads == {(date(2020, 8, 1), ("Chiller 3 Power Input",)), (date(2020, 7, 1), ("Chiller 3 Power Input",))}


def test_a_site_wide_count_of_work_orders_leads_with_the_total() -> None:
    from graph.answering.asked_figures import site_order_count_sentence
    from tests.unit.answering.builders import art
    listed = [art("work_order_summary", {"total": n, "corrective": n, "kind": "corrective"}, asset=None,
                  equipment=[eq], producer="maintenance", id=eq) for eq, n in (("CWC04006", 14), ("CWC04013", 6))]
    said = site_order_count_sentence("Site-wide, how many corrective work orders were closed in 2020?", listed)
    assert said is not None and said.startswith("20 corrective work orders across the 2 equipment ids")
    assert site_order_count_sentence("which had the most corrective work orders?", listed) is None


def test_a_question_about_tuning_a_rule_reads_whether_its_alerts_led_to_work() -> None:
    dialog = Dialog(reference_date=date(2021, 3, 1))
    dialog.say("how many load low alerts did chiller 9 throw in Q4 2020?")
    decision = dialog.say("Do those load-low alerts ever turn into real work orders, or can I just suppress them?")
    assert ("maintenance", "alert_to_failure") in step_set(decision)


def test_tracking_the_setpoint_is_holding_it() -> None:
    from graph.understanding.request import HOLDS_SETPOINT
    assert HOLDS_SETPOINT.search("did supply temp track the november setpoint while it was running?")
    assert HOLDS_SETPOINT.search("is the supply following its setpoint")


def test_how_to_check_a_sensor_against_a_reference_gets_the_field_check_steps() -> None:
    from graph.answering.shapes import AnswerInputs, shaped_lead
    from tests.unit.answering.builders import art
    window = art("telemetry_window", {"stats": {}}, asset="Chiller 4", producer="data")
    lead = shaped_lead(AnswerInputs(shape="how_to", scope="asset", artifacts=[window], session=[window],
                                    question="How should I check that sensor against a reference probe?",
                                    readings=["Condenser Water Supply To Chiller Temperature"]))
    assert lead is not None and lead.first.startswith(
        "To check Chiller 4's Condenser Water Supply To Chiller Temperature against a reference probe")


def test_the_whole_of_a_year_is_the_year_not_the_stretch_discussed() -> None:
    dialog = Dialog(reference_date=date(2021, 3, 1))
    dialog.say("Did Chiller 9 cost us less to run in summer 2020 than in summer 2019?")
    decision = dialog.say("And over the whole of 2020 against 2019?")
    starts = {t.window.start.date() for t in decision.tasks if t.action == "history" and t.window is not None}
    assert starts == {date(2020, 1, 1), date(2019, 1, 1)}


def test_whether_the_setpoint_offset_grew_compares_the_periods_read() -> None:
    from graph.answering.asked_figures import setpoint_offset_change

    def window(start: datetime, end: datetime, supply: float, setpoint: float) -> object:
        return _window("Chiller 6", {"Supply Temperature": (supply, "degF"), "Setpoint Temperature": (setpoint, "degF")},
                       start, end)
    december = window(datetime(2020, 12, 1, tzinfo=UTC), datetime(2021, 1, 1, tzinfo=UTC), 45.0, 45.0)
    february = window(datetime(2021, 2, 1, tzinfo=UTC), datetime(2021, 3, 1, tzinfo=UTC), 46.0, 45.0)
    span = window(datetime(2020, 12, 1, tzinfo=UTC), datetime(2021, 3, 1, tzinfo=UTC), 45.6, 45.0)
    found = setpoint_offset_change("is the supply-minus-setpoint offset growing from December to February?",
                                   [span, december, february])  # type: ignore[list-item]
    assert found is not None and found[0] == "Yes" and "grew from +0.0 degF" in found[1]


def test_which_failure_mode_explains_what_was_seen_is_a_diagnosis() -> None:
    decision = Dialog(reference_date=date(2021, 3, 1)).say(
        "Which failure mode explains chiller 6's 2020 kW/ton penalty?")
    assert ("failure", "diagnose") in step_set(decision)
    listing = Dialog(reference_date=date(2021, 3, 1)).say("what failure modes does chiller 6 have?")
    assert ("failure", "diagnose") not in step_set(listing)


def test_trusting_a_sensor_and_a_quiet_spell_are_asked_the_healthy_way_round() -> None:
    from graph.answering.diagnosis_verdicts import asks_health
    from graph.answering.verdicts import alert_verdict
    from tests.unit.answering.builders import art
    assert asks_health("supply temp on ch6 reads high to me. can I trust that sensor?")
    quiet = art("alert_rules", {"rules": []}, asset="Chiller 3", equipment=["CWC04703"], producer="maintenance")
    verdict = alert_verdict([quiet], "the other one - was it totally quiet?")
    assert verdict is not None and verdict.sentence.startswith("Yes, no alert rule fired")


def test_and_the_one_before_after_a_count_over_a_year_is_the_year_before() -> None:
    dialog = Dialog(reference_date=date(2021, 6, 10))
    dialog.say("How many corrective WOs did CWC04006 have last year?")
    decision = dialog.say("And the one before?")
    start, end = window_of(decision, "wo_summary")
    assert (start.date(), end.date()) == (date(2019, 1, 1), date(2020, 1, 1))


def test_distrust_stated_in_the_scene_does_not_turn_the_question_round() -> None:
    from graph.answering.diagnosis_verdicts import asks_health
    assert not asks_health("I dont really trust the CH6 chilled water supply temp anymore. Is that sensor drifting?")


def test_a_chiller_set_against_itself_then_is_two_periods_of_it() -> None:
    dialog = Dialog(reference_date=date(2021, 9, 1))
    dialog.say("chiller 9 power last month")
    decision = dialog.say("is 6 pulling more than it did in aug 2020?")
    reads = {(t.asset_ids[0], t.window.start.date()) for t in decision.tasks if t.action == "history" and t.window}
    assert reads == {("Chiller 6", date(2021, 8, 1)), ("Chiller 6", date(2020, 8, 1))}


def test_a_trip_used_to_date_a_reading_is_no_question_of_when_it_tripped() -> None:
    from graph.understanding.request import asks_when_tripped
    assert asks_when_tripped("when did it last trip?") and asks_when_tripped("when was its last trip")
    assert not asks_when_tripped("what was the load doing when it tripped?")
    dialog = Dialog(reference_date=SUMMER)
    dialog.say("chiller 9 tripped on june 23rd")
    assert ("failure", "diagnose") not in step_set(dialog.say("what was the load doing when it tripped?"))


def test_what_a_chiller_costs_to_run_is_its_power_in_any_wording() -> None:
    from graph.understanding.sensors import find_sensors
    from graph.understanding.text import Text
    from graph.understanding.vocabulary import vocabulary
    for said in ("did it cost us less to run in summer 2020?", "running costs for 6 last year?"):
        assert find_sensors(Text.of(said), vocabulary()).canonical == ["Power Input"]
    assert find_sensors(Text.of("what will the repair cost?"), vocabulary()).canonical == []
