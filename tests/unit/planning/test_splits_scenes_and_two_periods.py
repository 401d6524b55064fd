"""Kinds of request read this stop: a span split by quarter or year ("each quarter of 2020", "year by year since
2017"), a scene set before a reading asked for ("I'm putting the Q2 pack together ... what I need: Chiller 4's
kW/ton"), a period put off ("the July numbers can wait"), "did it get worse?" after one reading over two
periods, and a cause asked with a modal ("what would push kW/ton up like that?")."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from graph.planning.recipes_maintenance import split_unit
from graph.understanding.request import asked_question, asks_change_over_time, read_request, states_then_asks
from graph.understanding.text import normalise
from tests.unit.planning.dialog import Dialog, steps


def _windows(decision, action: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [t.window.label for t in decision.tasks if t.action == action and t.window is not None]


def test_a_span_is_split_by_the_unit_the_request_names() -> None:
    assert split_unit("how many alerts in each quarter of 2020") == "quarter"
    assert split_unit("corrective orders year by year since 2017") == "year"
    assert split_unit("quarterly alarm counts for 2019") == "quarter"
    assert split_unit("may and june, separately") == "month"
    assert split_unit("how many alerts in 2020") is None
    dialog = Dialog(reference_date=date(2021, 7, 1))
    decision = dialog.say("how many alerts did chiller 6 raise in each quarter of 2020?")
    assert _windows(decision, "alert_rules") == ["Q1 2020", "Q2 2020", "Q3 2020", "Q4 2020"]


def test_a_split_by_year_ends_with_the_year_so_far_and_work_orders_are_counted_by_year_in_one_summary() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 1))
    decision = dialog.say("alerts on chiller 9 year by year since 2018")
    assert _windows(decision, "alert_rules") == ["2018", "2019", "2020", "2021 so far"]
    decision = Dialog(reference_date=date(2021, 7, 1)).say("corrective work orders on chiller 9 year by year since 2017")
    assert steps(decision) == [("maintenance", "wo_summary")]  # its own per-year counts answer


def test_a_reading_asked_after_a_scene_is_the_request_and_a_period_put_off_is_not_asked() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 5))
    decision = dialog.say(
        "Morning. I'm putting the Q2 pack together for the site meeting, I already have the alarm stats, and the "
        "vendor report is still missing but that's a separate fight. What I need from you: Chiller 4's average "
        "kW/ton over Q2 this year, counting only the time it was running. The July numbers can wait.")
    assert steps(decision) == [("data", "history")]  # no management report for the "pack", no July
    assert _windows(decision, "history") == ["q2 2021"]


def test_did_it_get_worse_after_one_reading_over_two_periods_compares_those_two() -> None:
    assert asks_change_over_time("so did it get worse?")
    dialog = Dialog(reference_date=date(2021, 7, 5))
    dialog.say("chiller 4's average kW/ton over Q2 this year")
    dialog.say("same quarter last year?")
    decision = dialog.say("so did it get worse?")
    assert steps(decision) == [("data", "compare")]
    compare = decision.tasks[0]
    assert [w["label"] for w in compare.params["windows"]] == ["Q2 2020", "q2 2021"]  # in time order


def test_a_cause_asked_with_a_modal_after_a_comparison_is_a_diagnosis() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 5))
    dialog.say("chiller 4's average kW/ton over Q2 this year")
    dialog.say("same quarter last year?")
    dialog.say("so did it get worse?")
    assert ("failure", "diagnose") in steps(dialog.say("What would push kW/ton up like that on this machine?"))


def test_a_statement_then_a_question_plans_what_the_question_asks() -> None:
    assert states_then_asks("Chiller 6 has been running hot since spring. Was its condenser return higher?")
    assert not states_then_asks("Draft a WO for the strainer. Can you also check the flow?")  # an instruction
    assert not states_then_asks("I need the June alarms. Anything else on 9?")  # a request
    dialog = Dialog(reference_date=date(2020, 7, 1))
    decision = dialog.say("Chiller 6 has been running hot on the condenser side since spring. Was its average "
                          "condenser return-to-tower temperature last month higher than in June 2019?")
    assert ("data", "compare") in steps(decision) and ("timeseries", "anomaly_detection") not in steps(decision)
    assert sorted(_windows(decision, "history")) == ["June 2019", "last month"]
    decision = dialog.say("what about kW/ton, same two Junes?")  # the two periods discussed, again
    assert sorted(_windows(decision, "history")) == ["June 2019", "last month"]


def test_the_same_comparison_for_another_period_repeats_it_on_the_two_compared() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 1))
    dialog.say("ch3 vs ch4, August 2020 - which one was more efficient while running? kW/ton for both pls")
    dialog.say("What was chiller 4's average power draw while running that month?")
    decision = dialog.say("Same efficiency comparison for August 2019.")
    compare = next(t for t in decision.tasks if t.action == "compare")
    assert set(compare.asset_ids) == {"Chiller 3", "Chiller 4"} and compare.window.label == "August 2019"


def test_a_bare_pick_after_two_periods_is_between_them_and_those_2_months_are_both() -> None:
    assert normalise("y was may 2020 worse")[:2] == ["why", "was"]  # texting shorthand
    assert normalise("n how many alerts on it")[:2] == ["and", "how"]
    assert normalise("chiller y")[1] == "y"
    dialog = Dialog(reference_date=date(2021, 7, 1))
    dialog.say("#6 avg effcy may 2020 vs may 2019??")
    decision = dialog.say("whch was worse")  # not a ranking of the site
    assert steps(decision) == [("data", "compare")]
    decision = dialog.say("n how many alerts on it in those 2 months")
    assert _windows(decision, "alert_rules") == ["May 2019", "May 2020"]


def test_whether_the_one_picked_is_also_the_worst_in_another_period_ranks_them_all_again() -> None:
    assert read_request("Was that one also the worst in June 2020?").shape == "yes_no"
    assert read_request("which one was the worst in June 2020?").shape == "which"
    dialog = Dialog(reference_date=date(2021, 7, 1))
    dialog.say("Which chiller on site had the worst kW/ton last month?")
    decision = dialog.say("Was chiller 4 the worst in June 2020 too?")
    # (ranked on the reading the first pick was made on: every chiller's kW/ton over June 2020)
    read = [t for t in decision.tasks if t.action == "history"]
    assert {t.asset_ids[0] for t in read} == {"Chiller 3", "Chiller 4", "Chiller 6", "Chiller 9"}
    assert all(t.window is not None and t.window.label == "June 2020" for t in read)
    assert {s.split(" ", 2)[2] for t in read for s in t.sensors} == {"Chiller Efficiency"}
    assert decision.focus.picked == "Chiller 4"


def test_a_part_of_all_orders_counts_all_of_them_and_a_statistic_after_a_count_is_asked_too() -> None:
    decision = Dialog(reference_date=date(2021, 7, 1)).say(
        "What's the story with Chiller 13? How many work orders did it have in 2020, and how many of them were corrective?")
    assert [t.params["kind"] for t in decision.tasks if t.action == "wo_summary"] == ["all"]
    decision = Dialog(reference_date=date(2021, 7, 1)).say(
        "two lines on Chiller 9 covering May and June: how many alerts it raised, and its average load.")
    assert {("maintenance", "alert_rules"), ("data", "history")} <= set(steps(decision))


def test_the_one_with_the_most_alerts_is_read_from_the_counts_and_the_rest_is_the_request() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 1), results={"alert_rules": {}})
    dialog.say("How many alerts did each of the four sensor-equipped chillers log in June?")
    counts = {"Chiller 3": 0, "Chiller 4": 2, "Chiller 6": 67, "Chiller 9": 31}
    dialog.artifacts = [replace(a, key_results={"rules": [{"rule_id": "RUL0012", "count": counts[a.asset_ids[0]]}]})
                        if a.kind == "alert_rules" else a for a in dialog.artifacts]
    decision = dialog.say("sorry, I meant the one with the most alerts - what was its average supply temperature in June?")
    assert steps(decision) == [("data", "history")]  # the supply temperature, not the alerts again
    assert decision.tasks[0].asset_ids == ["Chiller 6"]


def test_up_on_a_month_compares_with_it_and_an_ordinal_floor_is_no_date() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 1))
    dialog.say("how many alerts did ch9 have last month?")
    decision = dialog.say("Is that up on May for #9?")
    assert _windows(decision, "alert_rules") == ["last month", "May 2021"]
    decision = Dialog(reference_date=date(2021, 7, 1)).say(
        "night shift said the water felt warm up on the 3rd floor AHUs the last few weeks, not sure if its the "
        "chiller, anyway what was the average supply temp on chiller 9 in june? no rush on anything else")
    assert _windows(decision, "history") == ["June 2021"]  # the question's period; "the 3rd" is a floor


def test_the_question_after_a_turn_word_is_the_one_asked() -> None:
    assert asked_question("it felt warm for weeks, not sure why, anyway what was the supply temp in june?") == \
        "what was the supply temp in june?"
    assert asked_question("what was the supply temp in june?") == "what was the supply temp in june?"


def test_this_year_s_quarter_up_or_down_on_that_compares_the_span_discussed_in_this_year() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 1))
    dialog.say("avg power on chiller 3 in april 2021?")
    dialog.say("and Apr-Jun last year, as one number?")
    decision = dialog.say("so this year's quarter, up or down on that?")
    assert ("data", "compare") in steps(decision)
    assert "Q2 2021" in _windows(decision, "history")


def test_holding_setpoint_is_the_supply_against_it_and_a_past_span_after_a_forecast_is_history() -> None:
    dialog = Dialog(reference_date=date(2021, 6, 15))
    decision = dialog.say("will chiller 4 hold its setpoint next week?")
    forecast = next(t for t in decision.tasks if t.action == "forecast")
    assert "Chiller 4 Supply Temperature" in forecast.sensors
    decision = dialog.say("what has the supply averaged over the past two weeks?")
    assert steps(decision) == [("data", "history")] and _windows(decision, "history") == ["past two weeks"]
    decision = dialog.say("kw/ton for the first half of this month vs the same 2 weeks last year?")
    assert _windows(decision, "history") == ["first half of this month (June 2021)", "past two weeks a year earlier"]


def test_two_questions_keep_the_period_of_each() -> None:
    dialog = Dialog(reference_date=date(2020, 8, 21))
    dialog.say("anything odd on chiller 3 in the last fortnight?")
    decision = dialog.say("whats the condenser water flow averaged over those 2 weeks? and what was it back in june")
    assert ("data", "compare") in steps(decision) and "June 2020" in _windows(decision, "history")


def test_a_chiller_picked_by_a_count_of_records_lists_those_records_across_the_site() -> None:
    decision = Dialog(reference_date=date(2021, 7, 1)).say(
        "Across the whole site, which chiller threw the most alerts in the first half of this year?")
    assert {s for s in steps(decision)} == {("maintenance", "alert_rules")} and len(decision.tasks) >= 4
    decision = Dialog(reference_date=date(2021, 7, 1)).say("which chiller had the most corrective work orders in 2020?")
    assert {s for s in steps(decision)} == {("maintenance", "wo_summary")}


def test_the_worse_one_after_a_pick_of_the_better_is_the_other_end() -> None:
    dialog = Dialog(reference_date=date(2021, 6, 10))
    dialog.say("ch3 vs ch4 this spring - which one ran more efficiently?")
    assert dialog.focus.picked_for == "good"
    dialog.focus = replace(dialog.focus, picked="Chiller 3", ranked=["Chiller 3", "Chiller 4"])  # as the answer set
    decision = dialog.say("when did the worse one last have a preventive WO done?")
    assert decision.tasks[0].asset_ids == ["Chiller 4"] and decision.tasks[0].window is None  # its whole history


def test_this_year_than_last_year_counts_both_and_more_or_fewer_alerts_than_q1_counts_alerts() -> None:
    decision = Dialog(reference_date=date(2019, 12, 20)).say(
        "Could you tell me whether Chiller 9 had more corrective work orders this year than last year?")
    assert _windows(decision, "wo_summary") == ["this year", "last year"]  # "last year" said twice is one period
    dialog = Dialog(reference_date=date(2021, 7, 5))
    dialog.say("how many alerts did chiller 9 log last quarter")
    decision = dialog.say("more or fewer alerts than Q1?")
    assert {s for s in steps(decision)} == {("maintenance", "alert_rules")}  # counts, not alarm limits


def test_bullets_of_all_that_after_a_pick_are_a_report_from_what_was_found() -> None:
    dialog = Dialog(reference_date=date(2020, 7, 1))
    dialog.say("did any of the chillers throw alerts in june?")
    dialog.say("which one had the worst kW/ton?")
    decision = dialog.say("ok give me all that as three bullets")
    assert steps(decision) == [("maintenance", "report")]


def test_anything_odd_after_a_look_at_one_reading_looks_at_all_of_them() -> None:
    dialog = Dialog(reference_date=date(2021, 6, 15))
    dialog.say("what has chiller 4's supply averaged over the past two weeks?")
    decision = dialog.say("anything odd on it over that stretch?")
    detect = next(t for t in decision.tasks if t.action == "anomaly_detection")
    assert len(detect.sensors) > 4  # every reading, not the supply temperature alone


def test_a_number_set_against_a_named_chiller_is_a_chiller_and_a_swap_follow_up_carries_the_question() -> None:
    dialog = Dialog(reference_date=date(2021, 9, 15))
    decision = dialog.say("is 4 worse than 3 on kw/t in June?")
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 3", "Chiller 4"}
    assert dialog.focus.asked == "is 4 worse than 3 on kw/t in June?"
    decision = dialog.say("and in august?")
    assert decision.shape == "yes_no" and dialog.focus.asked == "is 4 worse than 3 on kw/t in June?"
    dialog.say("what about tonnage?")  # another reading: the question is not carried any more
    assert dialog.focus.asked is None
    assert Dialog().say("what about chiller 4 - more than 3?").tasks[0].asset_ids == ["Chiller 4"]  # a count


def test_a_topic_number_at_the_head_and_that_alert_on_the_other_chillers() -> None:
    from graph.understanding.assets import find_assets
    from graph.understanding.text import Text
    from graph.understanding.vocabulary import vocabulary
    from tests.support.catalog import default_catalog
    for message, chiller in (("for 6 again: Q2 vs Q3 so far?", "Chiller 6"), ("on 9 - any trips?", "Chiller 9")):
        assert find_assets(Text.of(message), vocabulary(), default_catalog()).assets == [chiller]
    assert find_assets(Text.of("for 3 days, nothing"), vocabulary(), default_catalog()).assets == []
    dialog = Dialog(reference_date=date(2021, 7, 5))
    dialog.say("How many evap approach high alerts did CWC04009 throw in June?")
    decision = dialog.say("did any of the other chillers get that alert in June?")
    assert all(t.params.get("asked_rules") == ["RUL0018"] for t in decision.tasks)
    assert decision.focus.picked == "Chiller 9"  # the one the others are set against


def test_a_short_job_word_names_the_job() -> None:
    from graph.understanding.last_done import last_done_job, names_job
    from graph.understanding.text import Text
    from graph.understanding.vocabulary import vocabulary
    job = last_done_job(Text.of("when was the last oil analysis done on #6?"), vocabulary())
    assert names_job("MT010 Oil Analysis: Routine Oil Analysis (compressor)", job)
    assert not names_job("MT013 Vibration Analysis: Routine Vibration Analysis (compressor)", job)


def test_rules_tripped_are_rules_that_fired_and_when_it_last_logged_one_reads_the_whole_record() -> None:
    dialog = Dialog(reference_date=date(2021, 12, 20))
    decision = dialog.say("Could you tell me which alert rules chiller 4 has tripped over the years?")
    assert steps(decision) == [("maintenance", "alert_rules")] and decision.tasks[0].window is None
    dialog.say("how many load-low alerts did it log in 2019")
    decision = dialog.say("when did it last log excessive power while off?")
    assert steps(decision) == [("maintenance", "alert_rules")] and decision.tasks[0].window is None
    assert decision.tasks[0].params["asked_rules"] == ["RUL0021"]


def test_a_refused_request_is_resumed_by_its_correction() -> None:
    dialog = Dialog(reference_date=date(2021, 12, 20))
    assert dialog.say("pull up ch3's average load for march 2023 pls").kind == "reject"  # beyond the data
    decision = dialog.say("ah, typo - march this year")
    assert _windows(decision, "history") == ["March 2021"]
    assert "Chiller 3 Chiller % Loaded" in decision.tasks[0].sensors and len(decision.tasks[0].sensors) < 4
    assert dialog.focus.asked == "pull up ch3's average load for march 2023 pls"


def test_a_correction_names_the_chiller_or_the_day_meant() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 1))
    assert dialog.say("pull up chiller 5's kw trend for may").kind == "reject"
    decision = dialog.say("oops, meant 4")
    assert decision.kind == "run" and decision.tasks[0].asset_ids == ["Chiller 4"]
    dialog = Dialog(reference_date=date(2020, 10, 5))
    assert dialog.say("what was ch3 load on sept 31").kind == "reject"  # no such day
    decision = dialog.say("sorry, the 30th")
    assert decision.kind == "run" and decision.tasks[0].window is not None
    assert decision.tasks[0].window.start.date() == date(2020, 9, 30)


def test_a_reading_named_after_an_alert_listing_is_the_reading_not_a_rule_sharing_its_words() -> None:
    dialog = Dialog(reference_date=date(2020, 9, 30))
    dialog.say("which chiller threw the most alerts in Q3?")
    decision = dialog.say("avg cond water flow on ch3 in august vs june?")
    assert ("data", "compare") in steps(decision) and ("maintenance", "alert_rules") not in steps(decision)


def test_kw_per_t_is_the_efficiency_even_after_an_alert_listing() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 1))
    dialog.say("which chiller threw the most alerts last month?")
    decision = dialog.say("is 4 worse than 3 on kw/t in June?")
    assert ("data", "compare") in steps(decision) and ("maintenance", "alert_rules") not in steps(decision)


def test_did_it_trip_over_a_period_asks_the_diagnosis_which_finds_stops() -> None:
    decision = Dialog(reference_date=date(2019, 8, 25)).say("did chiller 9 trip last month?")
    assert ("failure", "diagnose") in steps(decision) and _windows(decision, "diagnose") == ["last month"]
