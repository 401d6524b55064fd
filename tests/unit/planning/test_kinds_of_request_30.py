"""Kinds of request met this stop: follow-ups on a count of records per chiller (ranked, the runner-up, the others
with sensor data, a pick between the two counted), a rule picked by its words or asked for the failure codes it
points at, and a job told in the scene that is not what the question asks."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from tests.unit.planning.dialog import Dialog

AUTUMN = date(2020, 11, 20)


def _actions(decision: object) -> list[str]:
    return [t.action for t in decision.tasks]  # type: ignore[attr-defined]


def _assets(decision: object) -> set[str]:
    return {a for t in decision.tasks for a in t.asset_ids}  # type: ignore[attr-defined]


def test_a_bare_number_opening_an_elliptical_follow_up_is_a_chiller() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("how many load low alerts has chiller 9 had since the start of october?")
    for follow_up in ("4 same period?", "3 same window", "6 same months?"):
        probe = Dialog(reference_date=AUTUMN, focus=dialog.focus, artifacts=list(dialog.artifacts))
        decision = probe.say(follow_up)
        assert _actions(decision) == ["alert_rules"], follow_up
        assert _assets(decision) == {f"Chiller {follow_up.split()[0]}"}, follow_up


def test_which_one_after_a_count_on_each_of_two_chillers_picks_between_them_on_that_count() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("how many cycling alarms on chiller 4 since october?")
    dialog.say("and on 9?")
    decision = dialog.say("which of them is alarming worse?")
    assert set(_actions(decision)) == {"alert_rules"}
    assert _assets(decision) == {"Chiller 4", "Chiller 9"}


def test_rank_them_after_a_count_per_chiller_ranks_that_count() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("which chillers logged setpoint attainment alerts this month?")
    for follow_up in ("rank em, worst first", "order them please", "sort the lot"):
        probe = Dialog(reference_date=AUTUMN, focus=dialog.focus, artifacts=list(dialog.artifacts))
        decision = probe.say(follow_up)
        assert set(_actions(decision)) == {"alert_rules"}, follow_up
        assert len(_assets(decision)) == 4, follow_up


def test_a_numeral_ordinal_reads_as_the_word() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("which chiller had the most breakdowns in 2019?")
    dialog.focus = replace(dialog.focus, picked="Chiller 6", ranked=["Chiller 6", "Chiller 9", "Chiller 1"])
    decision = dialog.say("who came 2nd?")
    assert _actions(decision) == ["wo_summary"]
    assert _assets(decision) == {"Chiller 9"}


def test_the_other_two_with_sensor_data_after_a_walk_down_a_ranking_are_the_unseen_monitored_ones() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("which chiller had the most breakdowns in 2019?")
    dialog.focus = replace(dialog.focus, picked="Chiller 6", ranked=["Chiller 6", "Chiller 9", "Chiller 1", "Chiller 4"])
    dialog.say("and the runner-up?")
    decision = dialog.say("how did the other two with telemetry do?")
    assert set(_actions(decision)) == {"wo_summary"}
    assert _assets(decision) == {"Chiller 3", "Chiller 4"}
    assert dialog.focus.picked == "Chiller 6"  # "the worst one" next is still the top of the ranking


def test_a_rule_picked_by_its_words_after_a_listing_of_rules_is_that_rule() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("which alert rules has chiller 4 triggered over the years?")
    decision = dialog.say("did it get any of the flow-while-off ones in 2018?")
    assert _actions(decision) == ["alert_rules"]
    assert decision.tasks[0].params.get("asked_rules") == ["RUL0016"]


def test_the_failure_codes_of_a_rule_are_asked_of_its_listing() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("how many delta t low alarms did chiller 3 throw this year?")
    for follow_up in ("what failure codes does that alarm map to?", "which codes are those alerts tied to?"):
        probe = Dialog(reference_date=AUTUMN, focus=dialog.focus, artifacts=list(dialog.artifacts))
        assert _actions(probe.say(follow_up)) == ["alert_rules"], follow_up


def test_failure_codes_of_work_orders_are_still_the_orders() -> None:
    decision = Dialog(reference_date=AUTUMN).say("which failure codes came up on chiller 6's work orders after the alerts?")
    assert "wo_summary" in _actions(decision)


def test_a_job_told_in_the_scene_is_not_the_question() -> None:
    decision = Dialog(reference_date=AUTUMN).say(
        "FYI chiller 3's supply temp sensor was swapped out on 12 March 2020. What was supply temp averaging in "
        "February 2020?")
    assert _actions(decision) == ["history"]


def test_when_it_last_had_one_after_a_rule_asked_is_that_rules_latest_alert_on_record() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("any low supply temperature alerts on chiller 6 this year?")
    decision = dialog.say("when did it last get one?")
    assert _actions(decision) == ["alert_rules"]
    assert decision.tasks[0].window is None  # the whole record


def test_the_catalog_knows_the_failure_codes_each_rule_points_at() -> None:
    from tests.support.catalog import default_catalog
    catalog = default_catalog()
    assert catalog.failure_codes_of_rule("rul0021") == ["E004 Starter Failure", "M011 Motor Failure"]
    assert catalog.failure_codes_of_rule("RUL9999") == []


def test_what_s_a_named_chiller_s_reading_is_no_pick() -> None:
    decision = Dialog(reference_date=AUTUMN).say("what's chiller 6 tonnage been averaging over june-august?")
    assert decision.shape != "which"  # type: ignore[attr-defined]
    assert _actions(decision) == ["history"] and _assets(decision) == {"Chiller 6"}


def test_a_claim_about_the_instrument_put_up_for_checking_is_a_validity_check() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("chiller 6 supply temp last month?")
    decision = dialog.say("ops think the supply temp probe on 6 was reading high in october. is that right?")
    assert "sensor_validity" in _actions(decision)


def test_a_job_the_chiller_had_put_up_for_confirming_is_read_from_its_orders() -> None:
    decision = Dialog(reference_date=AUTUMN).say("chiller 9 had its evaporator tubes cleaned back in march, right?")
    assert _actions(decision) == ["wo_summary"]


def test_the_last_n_years_of_history_is_a_span_not_the_last_job() -> None:
    from graph.understanding.last_done import last_done_job
    from graph.understanding.text import Text
    from graph.understanding.vocabulary import vocabulary
    assert not last_done_job(Text.of("send me its service history for the last two years"), vocabulary())
    assert last_done_job(Text.of("what did its last service find?"), vocabulary())


def test_a_trip_dated_in_the_message_anchors_the_week_before_it() -> None:
    from tests.unit.planning.dialog import at
    dialog = Dialog(reference_date=date(2019, 8, 10))
    decision = dialog.say("Chiller 9 shut down on the 23rd of last month. How were its power and load in the week "
                          "before it went?")
    assert {(t.window.start, t.window.end) for t in decision.tasks if t.window} == {(at(2019, 7, 16), at(2019, 7, 23))}
    assert "diagnose" in _actions(dialog.say("so what tripped it?"))


def test_the_next_two_on_the_list_are_ranked_right_after_the_pick() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("which of the chillers without sensors had the most corrective work orders this year?")
    dialog.focus = replace(dialog.focus, picked="Chiller 7", ranked=["Chiller 7", "Chiller 12", "Chiller 2", "Chiller 1"])
    decision = dialog.say("and the next two on the list?")
    assert set(_actions(decision)) == {"wo_summary"} and _assets(decision) == {"Chiller 12", "Chiller 2"}
    assert not NEXT_ON_THE_LIST_MATCHES("what about the next two weeks?")


def NEXT_ON_THE_LIST_MATCHES(text: str) -> bool:
    from graph.planning.scope import NEXT_ON_THE_LIST
    return NEXT_ON_THE_LIST.search(text) is not None


def test_whether_to_get_someone_in_to_look_at_two_chillers_is_advice_on_both() -> None:
    decision = Dialog(reference_date=AUTUMN).say("is it worth getting the OEM in to look at 3 and 4 together?")
    assert "diagnose" in _actions(decision) and {"Chiller 3", "Chiller 4"} <= _assets(decision)
    assert "draft_wo" not in _actions(decision)


def test_it_beside_a_reading_added_in_a_second_part_keeps_the_reading_discussed() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("run anomaly detection on chiller 3's condenser water flow this year")
    decision = dialog.say("what was it averaging in june vs june last year? and tonnage, same months")
    sensors = {s.split(" ", 2)[2] for t in decision.tasks for s in t.sensors}
    assert {"Condenser Water Flow", "Tonnage"} <= sensors


def test_a_trip_the_user_dated_stays_the_trip_in_later_turns() -> None:
    from tests.unit.planning.dialog import at
    dialog = Dialog(reference_date=date(2019, 8, 10))
    dialog.say("chiller 9 tripped on july 23rd. what was its load like the day before?")
    dialog.say("how many corrective work orders since the start of july?")
    decision = dialog.say("any alarms on it since the trip?")
    assert {(t.window.start, t.window.end) for t in decision.tasks if t.window} == {(at(2019, 7, 23), at(2019, 8, 11))}


def test_after_an_event_asked_of_now_runs_to_today() -> None:
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from graph.understanding.model import understand
    from tests.support.catalog import default_catalog
    site = ZoneInfo("America/New_York")
    trip = datetime(2019, 7, 23, tzinfo=site)
    now = understand("the flow went blank after the trip. is it reading again?", date(2019, 8, 10), None, trip,
                     catalog=default_catalog())
    assert now.window is not None and (now.window.start, now.window.end) == (trip, datetime(2019, 8, 11, tzinfo=site))
    then = understand("what did the flow do after the trip?", date(2019, 8, 10), None, trip, catalog=default_catalog())
    assert then.window is not None and then.window.end == datetime(2019, 7, 24, tzinfo=site)


def test_the_event_is_the_latest_stop_in_time_not_the_last_window_read() -> None:
    from datetime import datetime

    from graph.planning.artifacts import event_time_from
    from graph.planning.planner import ArtifactSummary
    recent = ArtifactSummary(id="a", producer="data", kind="history", asset_ids=("Chiller 9",), window=None,
                             sensors=(), key_results={"stopped_at": "2019-11-20T10:00:00-05:00"})
    year_before = ArtifactSummary(id="b", producer="data", kind="history", asset_ids=("Chiller 9",), window=None,
                                  sensors=(), key_results={"stopped_at": "2018-11-19T10:00:00-05:00"})
    assert event_time_from([recent, year_before], stops=True) == datetime.fromisoformat("2019-11-20T10:00:00-05:00")


def test_an_elliptical_follow_up_naming_other_failure_modes_asks_the_same_of_them() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("which sensors would warn me early of condenser fouling on chiller 3?")
    assert _actions(dialog.say("and for a refrigerant leak or an excessive purge?")) == ["sensor_mapping"]


def test_the_same_months_last_year_are_the_months_just_named_not_the_period_discussed() -> None:
    from tests.unit.planning.dialog import at
    dialog = Dialog(reference_date=date(2019, 12, 5))
    dialog.say("chiller 4 kw/ton over the past year?")
    decision = dialog.say("and its supply temp over june-august this year vs the same months last year?")
    windows = {(t.window.start, t.window.end) for t in decision.tasks if t.window}
    assert (at(2018, 6, 1), at(2018, 9, 1)) in windows and (at(2019, 6, 1), at(2019, 9, 1)) in windows


def test_a_failure_mode_asked_of_a_supposed_symptom_needs_no_look_at_the_readings() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("chiller 6 power over the past month?")
    decision = dialog.say("if the supply temp starts drifting up at the same load, what failure mode would that be?")
    assert "failure_modes" in _actions(decision)
    assert not {"history", "anomaly_detection"} & set(_actions(decision))


def test_could_this_just_be_a_bad_sensor_checks_the_reading_discussed() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("what was chiller 6's supply temp averaging last month?")
    decision = dialog.say("could this just be a bad sensor and not the machine?")
    validity = [t for t in decision.tasks if t.action == "sensor_validity"]
    assert validity and any(s.endswith("Supply Temperature") for s in validity[0].sensors)


def test_a_verdict_asking_what_is_wrong_diagnoses_first_when_no_diagnosis_was_made() -> None:
    dialog = Dialog(reference_date=date(2021, 6, 30))
    dialog.say("how many evaporator approach alerts has chiller 9 had this month?")
    dialog.say("any corrective work orders on it since april?")
    decision = dialog.say("give me the verdict in two lines: what's wrong with it and what do we do?")
    actions = _actions(decision)
    assert "diagnose" in actions and actions[-1] == "report"
    diagnosed = Dialog(reference_date=date(2021, 6, 30), focus=dialog.focus, artifacts=list(dialog.artifacts))
    assert "diagnose" not in _actions(diagnosed.say("so what's the verdict, what's wrong with it?"))


def test_the_weather_or_the_machine_is_told_apart_by_a_diagnosis() -> None:
    dialog = Dialog(reference_date=date(2019, 12, 5))
    dialog.say("how did chiller 4's kw/ton this summer compare with summer 2018?")
    for follow_up in ("it went up. warmer summer, or something wrong with the machine?",
                      "is that the chiller itself or just the load?"):
        probe = Dialog(reference_date=date(2019, 12, 5), focus=dialog.focus, artifacts=list(dialog.artifacts))
        assert "diagnose" in _actions(probe.say(follow_up)), follow_up
    assert "diagnose" not in _actions(Dialog(reference_date=date(2019, 12, 5)).say(
        "was chiller 6 or 9 carrying more load last month?"))
