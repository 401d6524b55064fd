"""Two chillers offered or already compared: bare numbers listed as subjects or offered as a choice are chillers,
a comparative of how they ran is a measure (not their running time), "the worse of the two" is the one picked, and
"did the other one get more or fewer?" counts the same records for it and sets the two counts side by side."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from graph.answering.compare_verdicts import comparison_verdict
from graph.answering.stat_questions import run_time_ranking
from graph.understanding.assets import find_assets
from graph.understanding.text import Text
from graph.understanding.vocabulary import vocabulary
from tests.support.catalog import default_catalog
from tests.unit.answering.builders import orders, window
from tests.unit.planning.dialog import Dialog, at, steps, window_of


def chillers(message: str) -> list[str]:
    return find_assets(Text.of(message), vocabulary(), default_catalog()).assets


@pytest.mark.parametrize(("message", "expected"), [
    ("6 and 9 both had compressor trouble this summer. which one was worse?", ["Chiller 6", "Chiller 9"]),
    ("which one was worse on kw/t in august, 6 or 9?", ["Chiller 6", "Chiller 9"]),
    ("better on efficiency last month: 3 vs 4?", ["Chiller 3", "Chiller 4"]),
    ("3 and 4 either had any trips?", ["Chiller 3", "Chiller 4"]),
])
def test_bare_numbers_listed_as_subjects_or_offered_as_a_choice_are_chillers(message: str, expected: list[str]) -> None:
    assert sorted(chillers(message)) == expected


def test_a_choice_of_two_numbers_after_a_month_is_not_a_day_of_that_month() -> None:
    decision = Dialog(reference_date=date(2019, 9, 1)).say("which one was worse on kw/t in august, 6 or 9?")
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 6", "Chiller 9"}
    assert window_of(decision, "history") == (at(2019, 8, 1), at(2019, 9, 1))
    on_the_day = Dialog(reference_date=date(2019, 9, 1)).say("how did chiller 6 run on august 6?")
    assert window_of(on_the_day, "history") == (at(2019, 8, 6), at(2019, 8, 7))


def test_ran_more_efficiently_is_a_measure_not_a_ranking_on_running_time() -> None:
    three = window("Chiller 3", "2021-06-01", "2021-07-01", {"Chiller Efficiency": (0.43, "kW/ton")})
    four = window("Chiller 4", "2021-06-01", "2021-07-01", {"Chiller Efficiency": (0.49, "kW/ton")})
    for art, share in ((three, 0.4), (four, 0.6)):
        art.results["running_share"] = share
    assert run_time_ranking("which ran more efficiently last month, #3 or #4?", [three, four]) is None
    ranked = run_time_ranking("which one ran more last month, #3 or #4?", [three, four])
    assert ranked is not None and ranked[0].startswith("Chiller 4")


def test_the_other_one_more_or_fewer_counts_the_same_records_for_it() -> None:
    dialog = Dialog(reference_date=date(2019, 9, 1))
    dialog.say("how many corrective WOs did chiller 6 and chiller 9 get over jul and aug")
    dialog.say("ok chiller 6 - anything else on it?")
    decision = dialog.say("and chiller 9, did it get more or fewer?")
    assert steps(decision) == [("maintenance", "wo_summary")]
    assert decision.tasks[0].asset_ids == ["Chiller 9"]


def test_did_it_get_more_holds_its_count_against_the_other_chillers_over_the_same_window() -> None:
    six = orders("Chiller 6", "CWC04006", total=5, corrective=5, start="2019-07-01", end="2019-09-01",
                 listed="corrective", turn=2)
    nine = orders("Chiller 9", "CWC04009", total=7, corrective=7, start="2019-07-01", end="2019-09-01",
                  listed="corrective", turn=3)
    more = comparison_verdict("and the other one, did it get more?", [nine], [six, nine])
    assert more is not None and more.answer == "Yes"
    assert "Chiller 9 had 7 corrective work orders" in more.sentence and "against 5 on Chiller 6" in more.sentence
    fewer = comparison_verdict("did it get fewer?", [nine], [six, nine])
    assert fewer is not None and fewer.answer == "No"


def test_the_worse_of_the_two_is_the_one_the_last_answer_picked() -> None:
    dialog = Dialog(reference_date=date(2019, 9, 1))
    dialog.say("which one was worse on kw/t in august, 6 or 9?")
    dialog.focus = replace(dialog.focus, picked="Chiller 6", picked_for="bad")  # as the answer set it
    decision = dialog.say("the worse of the two - how many corrective WOs did it get over jul and aug")
    assert [t.asset_ids for t in decision.tasks] == [["Chiller 6"]]


def test_how_does_that_compare_after_a_count_of_records_compares_the_records_not_readings() -> None:
    decision = Dialog(reference_date=date(2021, 7, 1)).say(
        "how many corrective jobs did #6 get in 2020, and how does that compare with 2019")
    assert steps(decision) == [("maintenance", "wo_summary"), ("maintenance", "wo_summary")]


def test_more_than_any_other_chiller_holds_the_dialogs_count_against_every_other() -> None:
    six = orders("Chiller 6", "CWC04006", total=14, corrective=14, start="2020-01-01", end="2021-01-01",
                 listed="corrective", turn=1)
    six_before = orders("Chiller 6", "CWC04006", total=11, corrective=11, start="2019-01-01", end="2020-01-01",
                        listed="corrective", turn=1)
    others = [orders(f"Chiller {n}", f"CWC0470{n}", total=c, corrective=c, start="2020-01-01", end="2021-01-01",
                     listed="corrective", turn=2) for n, c in ((3, 5), (4, 1))]
    verdict = comparison_verdict("was that more than any other chiller on site in 2020?", others,
                                 [six, six_before, *others])
    assert verdict is not None and verdict.answer == "Yes"
    assert verdict.sentence.startswith("Yes, Chiller 6 had 14 corrective work orders in 2020 against 5 on Chiller 3")
