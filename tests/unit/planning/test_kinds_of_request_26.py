"""Kinds of request met in a development set (heldout26): the last question asked again in other words ("same
ranking for last summer?"), "last summer" after "this summer", a misspelt season, holding setpoint, running hours
in two periods, the plant's total in two periods, energy as a total and "least efficient"."""

from __future__ import annotations

from datetime import date, datetime

from graph.answering.asked_figures import sensor_ranking
from graph.answering.record_verdicts import records_rank_verdict
from graph.answering.stat_questions import run_time_change, total_change
from graph.understanding.request import BARE_COMPARATIVE, read_request
from graph.understanding.text import Text
from tests.unit.answering.builders import art, running, window
from tests.unit.planning.dialog import Dialog, at, steps

REFERENCE = date(2020, 9, 30)


def test_same_ranking_for_another_period_asks_the_last_question_again() -> None:
    dialog = Dialog(reference_date=REFERENCE)
    first = dialog.say("which chiller burned the most kWh this summer? Rank all of them for me, top to bottom.")
    again = dialog.say("same ranking for last summer?")
    assert [t.action for t in again.tasks] == [t.action for t in first.tasks]
    # "last summer" after "this summer" is the summer before it, not the one just discussed
    assert {(t.window.start, t.window.end) for t in again.tasks if t.window} == {(at(2019, 6, 1), at(2019, 9, 1))}


def test_same_check_for_another_chiller_keeps_the_check() -> None:
    dialog = Dialog(reference_date=REFERENCE)
    dialog.say("Is chiller 6 holding its chilled water setpoint this month?")
    again = dialog.say("same check for chiller 3")
    assert [(t.action, t.asset_ids) for t in again.tasks] == [("history", ["Chiller 3"])]
    # holding setpoint is the supply against the setpoint: both are read
    assert {s.split(" ", 2)[2] for s in again.tasks[0].sensors} >= {"Supply Temperature", "Setpoint Temperature"}


def test_a_misspelt_season_or_month_is_the_period() -> None:
    assert Text.of("anything over the summmer?").joined == "anything over the summer ?"
    assert Text.of("in septmber").joined == "in september"
    assert Text.of("those two springs").joined == "those two springs"  # a plural is no misspelling


def test_least_efficient_ranks_on_kw_per_ton() -> None:
    decision = Dialog(reference_date=REFERENCE).say("Which chiller was the least efficient per ton this summer?")
    assert {s.split(" ", 2)[2] for t in decision.tasks for s in t.sensors} == {"Chiller Efficiency"}


def test_running_hours_in_two_periods() -> None:
    windows = [running("Chiller 9", "2019-09-01", "2019-10-01", 0.42),
               running("Chiller 9", "2020-09-01", "2020-10-01", 0.48)]
    more = run_time_change("is it on for more hours this sept than last sept?", windows)  # type: ignore[arg-type]
    assert more is not None and more[0].startswith("Yes, Chiller 9 ran more hours")
    choice = run_time_change("So was it running more hours this year or fewer?", windows)  # type: ignore[arg-type]
    assert choice is not None and choice[0].startswith("More")
    assert run_time_change("did it run fewer hours this sept?", windows[:1]) is None  # type: ignore[arg-type]


def test_the_plant_total_in_two_periods() -> None:
    def summer(year: int, kw: dict[str, float]) -> list[object]:
        return [window(a, f"{year}-06-01", f"{year}-09-01", {"Power Input": (v * 2, "kW")}) for a, v in kw.items()]
    found = [*summer(2019, {"Chiller 6": 300.0, "Chiller 9": 250.0}), *summer(2020, {"Chiller 6": 260.0, "Chiller 9": 250.0})]
    less = total_change("So did the plant as a whole use less this summer than last, y/n?", found)  # type: ignore[arg-type]
    assert less is not None and less[0].startswith("Yes, the 2 chillers together used less")
    assert "510.0 kW" in less[0] and "550.0 kW" in less[0]
    more = total_change("did the site as a whole use more this summer?", found)  # type: ignore[arg-type]
    assert more is not None and more[0].startswith("No")


def test_energy_is_ranked_over_every_hour() -> None:
    found = [window("Chiller 6", "2020-06-01", "2020-09-01", {"Power Input": (300.0, "kW")}),
             window("Chiller 9", "2020-06-01", "2020-09-01", {"Power Input": (260.0, "kW")})]
    found[1].results["stats"]["Chiller 9 Power Input"]["mean"] = 200.0  # runs more hours: more energy
    ranked = sensor_ranking("which chiller burned the most kWh this summer?", found)  # type: ignore[arg-type]
    assert ranked is not None and ranked.first == "Chiller 9"


def test_this_june_against_last_june_said_in_the_autumn_is_two_junes() -> None:
    decision = Dialog(reference_date=REFERENCE).say("so was 6 worse this june than last june y/n")
    windows = {(t.window.start, t.window.end) for t in decision.tasks if t.window is not None}
    windows |= {(datetime.fromisoformat(w["start"]), datetime.fromisoformat(w["end"]))
                for t in decision.tasks for w in t.params.get("windows", [])}
    assert {(at(2020, 6, 1), at(2020, 7, 1)), (at(2019, 6, 1), at(2019, 7, 1))} <= windows


def test_worse_between_two_periods_with_no_reading_named_compares_them() -> None:
    decision = Dialog(reference_date=REFERENCE).say("was 6 worse in june than in may?")
    assert ("data", "compare") in steps(decision)


def test_a_claim_of_worse_is_a_bare_comparative() -> None:
    assert BARE_COMPARATIVE.match(read_request("so it's worse now, y/n").clause)
    assert not BARE_COMPARATIVE.match(read_request("is it worse than last year?").clause)


def test_a_period_left_out_is_not_read_and_a_job_day_said_in_passing_is_kept() -> None:
    dialog = Dialog(reference_date=REFERENCE)
    decision = dialog.say("We had the condenser tubes on chiller 6 cleaned on July 9th. Did its kW/ton actually "
                          "improve? Compare June with August, not July.")
    assert {(t.window.start, t.window.end) for t in decision.tasks if t.action == "history" and t.window} == {
        (at(2020, 6, 1), at(2020, 7, 1)), (at(2020, 8, 1), at(2020, 9, 1))}
    assert [w.start for w in dialog.focus.told_jobs] == [at(2020, 7, 9)]


def test_is_it_the_worst_on_site_for_that_ranks_every_chiller_on_those_records() -> None:
    dialog = Dialog(reference_date=REFERENCE)
    dialog.say("Chiller 6 seems to break constantly. How many corrective work orders has it had so far this year?")
    ranked = dialog.say("Is it the worst chiller on site for that this year?")
    assert ranked.intent == "work_orders" and ranked.shape == "yes_no"
    assert len({a for t in ranked.tasks for a in t.asset_ids}) > 4  # every chiller's records, not only the monitored


def test_the_records_ranking_says_yes_or_no_for_the_subject() -> None:
    def orders(asset: str, corrective: int) -> object:
        return art("work_order_summary", {"total": corrective + 10, "corrective": corrective, "kind": "corrective"},
                   asset=asset, producer="maintenance", id=f"artifact_mp_{asset[-1]}")
    listed = [orders("Chiller 6", 8), orders("Chiller 3", 5), orders("Chiller 1", 4)]
    yes = records_rank_verdict(listed, "Chiller 6")  # type: ignore[arg-type]
    assert yes is not None and yes.sentence.startswith("Yes, Chiller 6 has the most corrective work orders")
    no = records_rank_verdict(listed, "Chiller 3")  # type: ignore[arg-type]
    assert no is not None and no.sentence.startswith("No, Chiller 6 has 8")


def test_since_at_the_end_runs_from_the_period_said_to_today() -> None:
    dialog = Dialog(reference_date=REFERENCE)
    since = dialog.say("Chiller 4 had a compressor vibration work order at the end of July. Has anything been logged "
                       "against it since?")
    assert {(t.window.start, t.window.end) for t in since.tasks if t.window} == {(at(2020, 8, 1), at(2020, 10, 1))}
    spelled = dialog.say("Has its power draw changed since then? Give me this month against June.")
    assert ("data", "compare") in steps(spelled)


def test_the_bulk_of_the_cooling_is_the_share_of_tonnage() -> None:
    decision = Dialog(reference_date=REFERENCE).say("Which unit has done the bulk of the cooling this month?")
    assert ("data", "compare") in steps(decision)
    assert {s.split(" ", 2)[2] for t in decision.tasks for s in t.sensors} == {"Tonnage"}


def test_a_month_without_a_year_in_a_forecast_or_an_order_is_the_next_one() -> None:
    forecast = Dialog(reference_date=REFERENCE).say("Can you project chiller 9 tonnage for the first week of October?")
    task = next(t for t in forecast.tasks if t.action == "forecast")
    assert datetime.fromisoformat(str(task.params["horizon_start"])) == at(2020, 10, 1)
    drafted = Dialog(reference_date=date(2020, 7, 15)).say(
        "Fine - raise a work order for an oil analysis on 4, first week of August.")
    assert drafted.kind == "run" and drafted.tasks[0].window is not None
    assert drafted.tasks[0].window.start == at(2020, 8, 1)


def test_a_verdict_lead_in_before_a_yes_no_is_a_yes_no() -> None:
    assert read_request("Bottom line, was it in better shape than Chiller 6 over the same months?").shape == "yes_no"
    assert read_request("bottom line?").shape == "verdict"


def test_a_claim_held_up_for_checking_is_a_yes_no() -> None:
    assert read_request("so it's been getting worse every year since 2017, or am I imagining that").shape == "yes_no"


def test_worst_month_after_a_count_is_that_count_by_month() -> None:
    dialog = Dialog(reference_date=date(2016, 10, 3))
    dialog.say("How many evaporator approach alarms did chiller 9 log june thru august?")
    worst = dialog.say("worst month?")
    assert worst.intent == "alerts" and worst.shape == "which"
