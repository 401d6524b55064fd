"""A pick made after a question about one alert rule ranks on that rule; "was it the same unit last year?" reads
every chiller of that pick again over the period named and says whether the one picked still tops it; "is that
something to worry about or just noise?" asks whether a fault is behind what was found."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from graph.answering.fleet_ranking import compare_assets, same_pick_sentence
from graph.understanding.request import asks_real_or_noise
from tests.unit.answering.builders import alerts
from tests.unit.planning.dialog import Dialog, at, steps, window_of

RUL21 = "RUL0021"


def listing(asset: str, equipment: str, counts: dict[str, int], year: int, *, asked: bool = True) -> object:
    found = alerts(asset, equipment, counts, start=f"{year}-01-01", end=f"{year + 1}-01-01")
    if asked:
        found.results["asked_rules"] = [RUL21]
    return found


def test_a_pick_after_a_question_about_one_rule_ranks_on_that_rule() -> None:
    four = listing("Chiller 4", "CWC04704", {RUL21: 3, "RUL0018": 12}, 2021)
    six = listing("Chiller 6", "CWC04006", {RUL21: 0, "RUL0012": 175}, 2021)
    comparison = compare_assets([four, six])  # type: ignore[list-item]
    assert comparison is not None and comparison.rows[0].asset == "CWC04704"
    assert comparison.rows[0].figure == "3 RUL0021 alerts"
    overall = compare_assets([listing("Chiller 4", "CWC04704", {RUL21: 3, "RUL0018": 12}, 2021, asked=False),
                              listing("Chiller 6", "CWC04006", {RUL21: 0, "RUL0012": 175}, 2021, asked=False)])  # type: ignore[list-item]
    assert overall is not None and overall.rows[0].asset == "CWC04006"  # no rule asked: all alerts


def test_the_same_unit_in_another_period_is_yes_only_when_it_tops_that_period_too() -> None:
    four = listing("Chiller 4", "CWC04704", {RUL21: 1}, 2020)
    six = listing("Chiller 6", "CWC04006", {RUL21: 2}, 2020)
    no = same_pick_sentence([four, six], "Chiller 4")  # type: ignore[list-item]
    assert no is not None and no[0] == ("No, Chiller 6 (CWC04006) had the most: 2 RUL0021 alerts, against "
                                        "1 RUL0021 alert on Chiller 4.")
    yes = same_pick_sentence([four, six], "Chiller 6")  # type: ignore[list-item]
    assert yes is not None and yes[0].startswith("Yes, Chiller 6 (CWC04006) had the most again")


def test_was_it_the_same_unit_last_year_reads_every_chiller_of_the_pick_over_last_year() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 1))
    dialog.say("did any of the units log an excessive power while off alarm this year?")
    dialog.focus = replace(dialog.focus, picked="Chiller 4", ranked=["Chiller 4", "Chiller 3", "Chiller 6",
                                                                      "Chiller 9"])  # as the pick's answer set it
    decision = dialog.say("was it the same unit last year?")
    assert {t.asset_ids[0] for t in decision.tasks} == {"Chiller 3", "Chiller 4", "Chiller 6", "Chiller 9"}
    assert all(action == "alert_rules" for _, action in steps(decision))
    assert window_of(decision, "alert_rules") == (at(2020, 1, 1), at(2021, 1, 1))


@pytest.mark.parametrize("question", ["is that something to worry about or just noise",
                                      "serious, or nothing?", "should I be worried about these or is it a false alarm?"])
def test_worry_or_noise_asks_whether_a_fault_is_behind_it(question: str) -> None:
    assert asks_real_or_noise(question)


def test_worry_or_noise_in_a_dialog_about_a_chiller_is_not_off_topic() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 1))
    dialog.say("how is chiller 6 running this month?")
    decision = dialog.say("is that something to worry about or just noise")
    assert decision.kind == "run" and steps(decision)[-1] == ("failure", "diagnose")
    after_alerts = Dialog(reference_date=date(2021, 7, 1))
    after_alerts.say("how many alerts did chiller 6 log this year")
    decision = after_alerts.say("is that something to worry about or just noise")  # whether work followed them
    assert decision.kind == "run" and steps(decision)[-1] == ("maintenance", "alert_to_failure")
    assert Dialog(reference_date=date(2021, 7, 1)).say("what's the weather like").kind == "reject"


def test_and_second_after_a_pick_is_the_runner_up_of_the_same_listing() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 1))
    dialog.say("Across the plant, which chiller logged the most alerts in June?")
    dialog.focus = replace(dialog.focus, picked="Chiller 6", ranked=["Chiller 6", "Chiller 9", "Chiller 3",
                                                                      "Chiller 4"])  # as the pick's answer set it
    decision = dialog.say("and second?")
    assert [(t.action, t.asset_ids) for t in decision.tasks] == [("alert_rules", ["Chiller 9"])]


def test_any_unit_with_zero_after_an_alert_count_names_the_ones_with_none() -> None:
    from graph.answering.verdicts import zero_records_verdict

    dialog = Dialog(reference_date=date(2021, 7, 1))
    dialog.say("Across the plant, which chiller logged the most alerts in June?")
    decision = dialog.say("Did any unit get through the month with zero?")
    assert {a for _, a in steps(decision)} == {"alert_rules"}
    found = [alerts(f"Chiller {n}", eq, counts, start="2021-06-01", end="2021-07-01")
             for n, eq, counts in ((3, "CWC04703", {}), (6, "CWC04006", {RUL21: 0, "RUL0014": 37}))]
    verdict = zero_records_verdict(found, "Did any unit get through the month with zero?")  # type: ignore[arg-type]
    assert verdict is not None and verdict.sentence == "Yes, Chiller 3 logged no alerts in June 2021."
