"""Kinds of request met this stop: a period that does not exist said before anything else, a dismissed request that
leaves out nothing, a report named as the occasion, a period already covered given as context, a pick between the
periods counted, "which of the three" after chillers discussed apart, and orders counted by the work they were for."""

from __future__ import annotations

from datetime import date, timedelta

from graph.answering.asked_figures import coded_order_count_sentence
from tests.unit.answering.builders import art
from tests.unit.planning.dialog import Dialog, step_set, window_of

AUTUMN = date(2020, 10, 1)
SPRING = date(2021, 4, 15)


def _wo_params(decision: object, action: str = "wo_summary") -> list[dict[str, object]]:
    return [dict(t.params) for t in decision.tasks if t.action == action]  # type: ignore[attr-defined]


def test_an_impossible_date_is_refused_before_the_chiller_without_telemetry() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("any wos on chiller 14 in sept")
    decision = dialog.say("ok and its power trend for 2020-09-31")
    assert decision.kind == "reject" and "not a valid date" in (decision.message or "")


def test_a_quarter_that_does_not_exist_is_refused() -> None:
    decision = Dialog(reference_date=SPRING).say("chiller 9 efficiency for Q5 2020")
    assert decision.kind == "reject" and "Q1 to Q4" in (decision.message or "")
    assert Dialog(reference_date=SPRING).say("chiller 9 efficiency for Q3 2020").kind == "run"


def test_forget_that_dismisses_the_last_request_and_leaves_the_kind_named() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("any wos on chiller 14 in sept")
    assert _wo_params(dialog.say("forget that. how many preventive on 14 this year"))[0]["kind"] == "preventive"
    assert _wo_params(Dialog(reference_date=AUTUMN).say(
        "forget the preventive ones, how many on 14 this year"))[0]["kind"] == "corrective"


def test_a_report_named_as_the_occasion_asks_for_the_reading() -> None:
    decision = Dialog(reference_date=SPRING).say("annual energy report: 2020 avg kW/ton for chillers 3 and 4")
    assert ("maintenance", "report") not in step_set(decision)
    assert {t.asset_ids[0] for t in decision.tasks if t.action == "history"} == {"Chiller 3", "Chiller 4"}


def test_a_root_cause_for_the_report_is_a_diagnosis() -> None:
    dialog = Dialog(reference_date=SPRING)
    dialog.say("what was Chiller 4's kW/ton in Q1 2021?")
    decision = dialog.say("whats driving that? I need a root cause for the report, not just numbers")
    assert ("failure", "diagnose") in step_set(decision) and ("maintenance", "report") not in step_set(decision)
    assert ("maintenance", "report") in step_set(Dialog(reference_date=SPRING).say(
        "write me a report on chiller 4 for management"))


def test_bare_numbers_compared_are_two_chillers() -> None:
    dialog = Dialog(reference_date=SPRING)
    dialog.say("2020 avg kW/ton for chillers 3 and 4")
    decision = dialog.say("was 3 less efficient than 4 in 2020?")
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 3", "Chiller 4"}


def test_a_period_already_covered_is_context_for_the_one_needed() -> None:
    decision = Dialog(reference_date=AUTUMN).say(
        "had the energy audit figures for june on ch9 already, what i actually need is last month. avg power while it "
        "was running?")
    start, end = window_of(decision, "history")
    assert (start.date(), end.date()) == (date(2020, 9, 1), date(2020, 10, 1))
    assert len([t for t in decision.tasks if t.action == "history"]) == 1


def test_which_summer_was_worse_picks_between_the_summers_counted() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("ch6 corrective wos jun-aug 2019?")
    dialog.say("and this summer")
    decision = dialog.say("so which summer was worse")
    assert step_set(decision) == {("maintenance", "wo_summary")}
    assert {t.window.start.year for t in decision.tasks if t.window} == {2019, 2020}
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 6"}


def test_which_of_the_three_is_every_chiller_discussed() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("pull chiller 13 wo's for this year")
    dialog.say("same period for ch12 and ch14, corrective only")
    decision = dialog.say("so which of the three breaks down the most")
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 12", "Chiller 13", "Chiller 14"}


def test_orders_counted_by_the_work_their_codes_name() -> None:
    listing = art("work_order_summary", {"total": 20, "corrective": 4, "top_codes": [
        {"code": "MT001", "description": "Routine Maintenance", "count": 3},
        {"code": "L002", "description": "Water Leak", "count": 2},
        {"code": "M009", "description": "Seal Failure", "count": 1}]},
        asset="Chiller 13", equipment=["CWC04013"], producer="maintenance")
    said = coded_order_count_sentence("those leaks on it, how many", [listing])
    assert said is not None and said.startswith("2 leak work orders on CWC04013") and "L002 Water Leak (2)" in said
    assert coded_order_count_sentence("how many were failures?", [listing]) is None  # "failure" names no family
    assert coded_order_count_sentence("what were the leaks?", [listing]) is None  # no count asked


def test_that_fall_window_is_the_last_fall_not_one_to_come() -> None:
    dialog = Dialog(reference_date=SPRING)
    dialog.say("Which of chillers 3 and 4 is doing worse this year?")
    decision = dialog.say("any corrective work on 3 during that fall window?")
    assert decision.kind == "run"
    start, end = window_of(decision, "wo_summary")
    assert (start.date(), end.date()) == (date(2020, 9, 1), date(2020, 12, 1))


def test_a_unit_without_telemetry_keeps_the_period_asked_for_the_next_turn() -> None:
    dialog = Dialog(reference_date=SPRING)
    assert dialog.say("chiller 14 kW/ton for last quarter").kind == "answer"
    start, end = window_of(dialog.say("ok then just its work orders for that quarter"), "wo_summary")
    assert (start.date(), end.date()) == (date(2021, 1, 1), date(2021, 4, 1))


def test_split_that_ones_by_rule_is_no_split_by_month() -> None:
    dialog = Dialog(reference_date=SPRING)
    dialog.say("how many alerts on chiller 6 last quarter?")
    decision = dialog.say("split that one's by rule")
    assert {(t.window.start.date(), t.window.end.date()) for t in decision.tasks if t.window} == {
        (date(2021, 1, 1), date(2021, 4, 1))}


def test_which_unit_had_the_most_of_them_picks_among_the_units_listed() -> None:
    dialog = Dialog(reference_date=SPRING)
    dialog.say("Chillers 10, 12 and 13 - corrective work since the start of 2020, count per unit")
    decision = dialog.say("which unit had the most of them?")
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 10", "Chiller 12", "Chiller 13"}


def test_real_or_noise_asking_whether_alerts_precede_failures_reads_their_outcome() -> None:
    dialog = Dialog(reference_date=SPRING)
    dialog.say("how many alerts on chiller 9 in 2020?")
    decision = dialog.say("are those real or just noise - do they precede any failures?")
    assert step_set(decision) == {("maintenance", "alert_to_failure")}


def test_is_it_still_bad_sets_the_new_period_beside_the_one_judged() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("ch3 kw/ton in august, while running?")
    dialog.say("root cause for the worse kw/ton on it?")
    decision = dialog.say("is it still bad now? last months number")
    assert ("data", "compare") in step_set(decision) and ("failure", "diagnose") not in step_set(decision)
    spans = {(t.window.start.date(), t.window.end.date()) for t in decision.tasks if t.action == "history"}
    assert (date(2020, 9, 1), date(2020, 10, 1)) in spans


def test_vs_the_rest_of_the_month_is_the_month_around_the_day() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("ch9 avg power yesterday while it was running?")
    decision = dialog.say("is that high vs the rest of the month")
    assert ("data", "compare") in step_set(decision)
    assert (date(2020, 9, 1), date(2020, 10, 1)) in {
        (t.window.start.date(), t.window.end.date()) for t in decision.tasks if t.action == "history"}


def test_a_reading_come_back_is_no_restart_and_the_months_named_are_the_sides() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("run an anomaly check on ch6 power for june")
    decision = dialog.say("has kw/ton come back since? sept vs june")
    spans = {(t.window.start.date(), t.window.end.date()) for t in decision.tasks if t.action == "history"}
    assert {(date(2020, 6, 1), date(2020, 7, 1)), (date(2020, 9, 1), date(2020, 10, 1))} <= spans
    restart = Dialog(reference_date=AUTUMN)
    restart.say("chiller 6 power last week")
    assert all("running since" in t.goal for t in restart.say("has it come back since?").tasks)


def test_when_was_the_last_one_carries_the_job_of_the_last_question() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("chiller 1 had a couple water leaks this year didnt it")
    decision = dialog.say("when was the last one")
    assert step_set(decision) == {("maintenance", "wo_summary")}
    assert "water leaks" in (decision.focus.asked or "")


def test_a_yes_no_about_coded_work_counts_those_orders() -> None:
    from graph.answering.verdicts import work_order_existence_verdict
    listing = art("work_order_summary", {"total": 20, "corrective": 4, "top_codes": [
        {"code": "L002", "description": "Water Leak", "count": 2},
        {"code": "MT008", "description": "Leak Detection", "count": 2}]},
        asset="Chiller 1", equipment=["CWC04701"], producer="maintenance")
    verdict = work_order_existence_verdict([listing], "chiller 1 had a couple water leaks this year didnt it")
    assert verdict is not None and verdict.sentence.startswith("Yes, 2 water leak work orders on CWC04701")
    assert "MT008" not in verdict.sentence  # the code sharing both words wins


def test_a_correction_after_an_impossible_period_keeps_the_chiller_named() -> None:
    dialog = Dialog(reference_date=SPRING)
    dialog.say("chiller 14 kW/ton for last quarter")
    assert dialog.say("switching to chiller 9 - efficiency for Q5 2020").kind == "reject"
    decision = dialog.say("sorry, Q4 2020")
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 9"}


def test_that_vibration_one_is_the_order_of_the_listing_named_so() -> None:
    from graph.answering.stat_questions import pointed_order_sentence
    listing = art("work_order_summary", {"total": 6, "latest_per_job": [
        {"wo_id": "WO2", "date": "2020-09-07", "code": "MT013", "description": "Vibration Analysis",
         "preventive": True},
        {"wo_id": "WO1", "date": "2020-07-30", "code": "M007", "description": "Vibration: Excessive Compressor "
                                                                            "Vibration", "labor_hours": 3.0}]},
        asset="Chiller 4", producer="maintenance")
    said = pointed_order_sentence("that vibration one, what happened", [listing])
    assert said is not None and said[0].startswith("WO1 on 2020-07-30 on Chiller 4: M007")  # the breakdown first
    assert pointed_order_sentence("that last one, what happened", [listing]) is None


def test_were_they_cheaper_to_run_judges_each_chiller_over_its_two_periods() -> None:
    from datetime import UTC, datetime

    from graph.answering.period_verdict import period_verdict
    march_21, march_20 = datetime(2021, 3, 1, tzinfo=UTC), datetime(2020, 3, 1, tzinfo=UTC)
    windows = []
    for asset, now, then in (("Chiller 6", 62.3, 66.0), ("Chiller 9", 56.7, 77.9)):
        for start, value in ((march_21, now), (march_20, then)):
            stats = {f"{asset} Power Input": {"mean": value, "running_mean": value, "unit": "kW", "count": 100}}
            windows.append(art("telemetry_window", {"stats": stats}, asset=asset, producer="data",
                               id=f"{asset}{start.year}", start=start, end=start.replace(month=4)))
    verdict = period_verdict("Same month a year earlier - were they cheaper to run then?", windows, [])
    assert verdict is not None and verdict.answer == "No"
    assert "Chiller 6's power input was 66.0 kW" in verdict.sentence and "Chiller 9's" in verdict.sentence


def test_cheaper_to_run_then_plans_each_chiller_over_both_periods() -> None:
    dialog = Dialog(reference_date=SPRING)
    dialog.say("ch6 vs ch9 in March 2021: avg kW draw and kW/ton for each pls")
    decision = dialog.say("Same month a year earlier - were they cheaper to run then?")
    compared = [t for t in decision.tasks if t.action == "compare"]
    assert {t.asset_ids[0] for t in compared} == {"Chiller 6", "Chiller 9"}
    assert all(len(t.params.get("windows", [])) == 2 for t in compared)


def test_come_back_from_the_period_a_fault_was_found_in_is_the_right_way_away_from_it() -> None:
    from datetime import UTC, datetime

    from graph.answering.change_verdicts import recovery_verdict
    from tests.unit.answering.builders import diagnosis
    june, sept = datetime(2020, 6, 1, tzinfo=UTC), datetime(2020, 9, 1, tzinfo=UTC)

    def window(start: datetime, value: float) -> object:
        stats = {"Chiller 6 Chiller Efficiency": {"mean": value, "running_mean": value, "unit": "kW/ton",
                                                 "count": 100}}
        return art("telemetry_window", {"stats": stats}, asset="Chiller 6", producer="data", id=f"w{start.month}",
                   start=start, end=start.replace(month=start.month + 1))
    trouble, since = window(june, 0.47), window(sept, 0.38)
    found = diagnosis("Chiller 6", ("Condenser Water side fouling", 0.55, 0.75), start=june,
                      end=june.replace(month=7))
    verdict = recovery_verdict("has kw/ton come back since? sept vs june", [trouble, since],  # type: ignore[list-item]
                               [found, trouble], "Chiller Efficiency")  # type: ignore[list-item]
    assert verdict is not None and verdict.answer == "Yes" and "has come back" in verdict.sentence


def test_same_rule_as_those_checks_the_rules_of_both_chillers() -> None:
    from graph.answering.record_verdicts import same_rule_verdict
    from graph.understanding.request import read_request

    def rules(asset: str, counts: dict[str, int]) -> object:
        return art("alert_rules", {"rules": [{"rule_id": r, "rule_name": f"Chiller - {r}", "count": n}
                                             for r, n in counts.items()]}, asset=asset, producer="maintenance")
    six, nine = rules("Chiller 6", {"RUL0017": 4, "RUL0022": 0}), rules("Chiller 9", {"RUL0017": 1})
    assert read_request("and the one on 9, same rule as those?").shape == "yes_no"
    verdict = same_rule_verdict("and the one on 9, same rule as those?", [nine], [six, nine])  # type: ignore[list-item]
    assert verdict is not None and verdict.answer == "Yes"
    other = rules("Chiller 9", {"RUL0022": 2})
    assert same_rule_verdict("same rule as those?", [other], [six]).answer == "No"  # type: ignore[union-attr,list-item]


def test_worth_adding_a_check_given_the_history_counts_the_breakdowns_coded_for_it() -> None:
    from graph.answering.recommend import work_history
    listing = art("work_order_summary", {"total": 9, "top_codes": [
        {"code": "CS004", "description": "Software Error", "count": 2}], "latest_per_job": [
        {"wo_id": "WO9", "date": "2020-11-02", "code": "CS004", "description": "Software Error: BAS Program Error"}]},
        asset="Chiller 10", equipment=["CWC04010"], producer="maintenance")
    advice = work_history("is it worth adding a BAS software check to the next PM, given the history?", [listing], None)
    assert advice is not None and advice.sentence.startswith("Yes, add")
    assert "CS004 Software Error (2)" in advice.reasons[0]
    assert work_history("is it worth an inspection?", [listing], None) is None


def test_off_its_normal_sets_each_chiller_against_its_own_year_before() -> None:
    decision = Dialog(reference_date=date(2019, 9, 15)).say(
        "handover from nights. which chiller at MAIN was off its normal last month? look at power and kw/t")
    spans = {(t.asset_ids[0], t.window.start.date()) for t in decision.tasks if t.action == "history" and t.window}
    assert {("Chiller 6", date(2019, 8, 1)), ("Chiller 6", date(2018, 8, 1))} <= spans


def test_off_its_normal_ranks_on_the_move_against_its_own_past() -> None:
    from datetime import UTC, datetime

    from graph.answering.period_verdict import off_normal_ranking
    now, then = datetime(2019, 8, 1, tzinfo=UTC), datetime(2018, 8, 1, tzinfo=UTC)
    windows = []
    for asset, (kw_now, kw_then) in {"Chiller 3": (0.50, 0.47), "Chiller 6": (0.50, 0.44)}.items():
        for start, value in ((now, kw_now), (then, kw_then)):
            stats = {f"{asset} Chiller Efficiency": {"mean": value, "running_mean": value, "unit": "kW/ton",
                                                     "count": 100}}
            windows.append(art("telemetry_window", {"stats": stats}, asset=asset, producer="data",
                               id=f"{asset}{start.year}", start=start, end=start.replace(month=9)))
    ranked = off_normal_ranking("which chiller was off its normal last month? kw/ton", windows)
    assert ranked is not None and ranked.first == "Chiller 6" and "+14%" in ranked.headline
    assert off_normal_ranking("which chiller had the worst kw/ton last month?", windows) is None


def test_pms_counted_are_every_preventive_order_not_the_routine_maintenance_code() -> None:
    listing = art("work_order_summary", {"total": 20, "top_codes": [
        {"code": "MT001", "description": "Routine Maintenance", "count": 4}]},
        asset="Chiller 4", equipment=["CWC04704"], producer="maintenance")
    assert coded_order_count_sentence("how many PMs has it had so far this year", [listing]) is None


def test_a_few_lines_for_the_monthly_report_is_the_report_asked() -> None:
    decision = Dialog(reference_date=date(2021, 7, 5)).say(
        "need a few lines for the monthly report on chiller 9 covering may and june: avg load, avg kw/ton and how "
        "many alarms it raised")
    assert ("maintenance", "report") in step_set(decision)


def test_since_then_after_a_job_date_starts_the_day_after_that_job() -> None:
    from graph.planning import ArtifactSummary
    calibration = {"wo_id": "WO151059", "date": "2019-09-03", "code": "MT011",
                   "description": "Calibration: Temperature Sensor Calibration"}
    listing = ArtifactSummary(id="wo", producer="maintenance", kind="wo_summary", asset_ids=("Chiller 4",),
                              key_results={"recent": [], "latest_per_job": [calibration]})
    dialog = Dialog(reference_date=date(2020, 4, 8))
    dialog.say("when was chiller 4 recalibrated?")
    dialog.artifacts.append(listing)
    start, end = window_of(dialog.say("any calibration work on it since then?"), "wo_summary")
    assert (start.date(), end.date()) == (date(2019, 9, 4), date(2020, 4, 8))


def test_a_refused_telemetry_aside_leaves_the_period_the_dialog_was_on() -> None:
    dialog = Dialog(reference_date=date(2020, 9, 30))
    dialog.say("Quick one about Chiller 12 - how many work orders has it had since January, all types?")
    dialog.say("Cool. Can you pull up its power draw for August too?")
    decision = dialog.say("No worries. Then compare its corrective work orders with Chiller 13's over the same period.")
    assert {window_of(decision, "wo_summary")[0].date()} == {date(2020, 1, 1)}


def test_a_statement_before_a_count_of_a_kind_names_no_coded_work() -> None:
    listing = art("work_order_summary", {"total": 7, "top_codes": [
        {"code": "L002", "description": "Water Leak", "count": 1}]},
        asset="Chiller 1", equipment=["CWC04701"], producer="maintenance")
    assert coded_order_count_sentence(
        "Chiller 1 kept losing condenser water last year. how many CMs did it have in 2019 all told?", [listing]) is None


def test_a_year_written_short_with_an_apostrophe_is_that_year() -> None:
    dialog = Dialog(reference_date=date(2020, 2, 1))
    dialog.say("chiller 6 power in august 2019")
    decision = dialog.say("Was it pulling more power in August '19 than in August '18?")
    assert {t.window.start.date() for t in decision.tasks if t.window} >= {date(2019, 8, 1)}
    assert all(t.window.end - t.window.start > timedelta(days=20) for t in decision.tasks if t.window)


def test_a_quarterly_review_is_the_occasion_not_a_split() -> None:
    decision = Dialog(reference_date=date(2020, 2, 1)).say(
        "Need numbers for the quarterly review: total work orders on Chiller 9 in 2019?")
    assert len(decision.tasks) == 1 and window_of(decision, "wo_summary")[0].date() == date(2019, 1, 1)
    assert len(Dialog(reference_date=date(2020, 2, 1)).say("quarterly work orders on chiller 9 in 2019?").tasks) == 4


def test_climbing_every_year_since_a_year_is_asked_over_the_whole_span() -> None:
    decision = Dialog(reference_date=date(2020, 2, 1)).say(
        "has ch6's corrective count been climbing every year since 2017 or was 2019 a one off")
    assert window_of(decision, "wo_summary")[0].date() == date(2017, 1, 1)


def test_the_askers_own_doubt_asks_nothing_of_its_own() -> None:
    dialog = Dialog(reference_date=date(2019, 9, 10))
    dialog.say("how many corrective WOs did ch6 have this year?")
    decision = dialog.say("Is ch6 actually breaking down more every year? or am I reading too much into one bad year")
    assert step_set(decision) == {("maintenance", "wo_summary")}
    assert all(t.window is None for t in decision.tasks)  # every year on record


def test_w_slash_after_a_verb_of_comparing_is_with() -> None:
    from graph.understanding.text import Text
    assert Text.of("compare w/ aug last year").joined == "compare with aug last year"
    assert "w/" in Text.of("whats up w/ 6").joined


def test_a_repair_told_with_a_season_before_it_keeps_its_own_day_as_the_divide() -> None:
    decision = Dialog(reference_date=date(2020, 8, 15)).say(
        "Chiller 6 had its condenser tubes cleaned on July 9th after the fouling in the spring. Is the kW/ton back to "
        "normal since?")
    starts = {t.window.start.date() for t in decision.tasks if t.action == "history" and t.window}
    assert date(2020, 7, 10) in starts and date(2020, 3, 1) not in starts


def test_a_record_named_as_a_time_anchor_is_no_coded_work_nor_the_last_one_asked() -> None:
    listing = art("work_order_summary", {"total": 3, "top_codes": [
        {"code": "E002", "description": "Overcurrent Trip", "count": 1}]},
        asset="Chiller 9", equipment=["CWC04009"], producer="maintenance")
    assert coded_order_count_sentence("how many corrective WOs on CWC04009 since the trip?", [listing]) is None
    dialog = Dialog(reference_date=date(2020, 7, 1))
    dialog.say("any calibration work orders on chiller 3 this year?")
    decision = dialog.say("Has the supply temp on 3 looked sane since the last of those was closed?")
    assert ("data", "history") in step_set(decision)
