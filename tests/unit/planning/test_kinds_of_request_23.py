"""Kinds of request met in a second development set: how often work follows a rule's alerts and how many of those
there were, planning without raising, the work order a job was, whether a job was ever done (again), and a bare
chiller number before a period."""

from __future__ import annotations

from datetime import date

from graph.understanding.last_done import last_done_job
from graph.understanding.model import understand
from graph.understanding.request import described_work
from graph.understanding.text import Text
from graph.understanding.vocabulary import vocabulary
from tests.support.catalog import default_catalog
from tests.unit.planning.dialog import Dialog


def test_how_often_work_follows_a_rule_s_alerts_then_how_many_of_those() -> None:
    dialog = Dialog(reference_date=date(2021, 9, 20))
    first = dialog.say("When chiller 9 flags a high evaporator approach, how often does a work order actually follow?")
    assert first.intent == "alert_to_failure" and dialog.focus.asked_rules == ["RUL0018"]
    counted = dialog.say("how many of those did it log in June")
    assert counted.intent == "alerts" and dialog.focus.asked_rules == ["RUL0018"]
    assert understand("did a work order follow the trip?", date(2021, 9, 20),
                      catalog=default_catalog()).intents[0] != "alert_to_failure"


def test_planning_an_inspection_without_raising_it_is_a_plan() -> None:
    decision = Dialog(reference_date=date(2021, 9, 20)).say(
        "Let's plan an inspection on 9 off the back of that. Plan only, nothing gets raised yet.")
    assert decision.intent in ("plan_fix", "fix_procedure")  # the steps of the job, planned
    assert not any(t.action == "draft_wo" for t in decision.tasks)


def test_what_a_job_on_file_was_about_is_its_work_orders() -> None:
    dialog = Dialog(reference_date=date(2021, 9, 20))
    decision = dialog.say("There was a compressor vibration job on 6 at the end of August. What was that about?")
    assert decision.intent == "work_orders" and decision.tasks[0].asset_ids == ["Chiller 6"]
    before = dialog.say("has 6 had that one before?")
    assert before.tasks[0].window is None  # any time before: the whole history


def test_a_job_done_again_is_the_job_and_the_job_described_after_the_chiller() -> None:
    assert last_done_job(Text.of("did anyone recalibrate it?"), vocabulary()) == {"calibrat"}
    assert described_work("Right, open a work order on it for a vibration analysis.") == "vibration analysis"
    assert understand("a job on 6 at the end of August", date(2021, 9, 20), catalog=default_catalog()).assets.assets == [
        "Chiller 6"]


def test_the_worst_on_a_reading_across_the_site_is_ranked_on_it_and_the_best_next_is_its_other_end() -> None:
    dialog = Dialog(reference_date=date(2021, 9, 20))
    worst = dialog.say("Across the MAIN site, which chiller had the worst kW/ton last month?")
    assert worst.intent == "compare" and len({a for t in worst.tasks for a in t.asset_ids}) == 4
    best = dialog.say("and the best?")
    assert best.intent == "compare" and best.focus.asked is not None and "best" in best.focus.asked


def test_more_cooling_per_kw_is_the_efficient_end_and_a_yes_names_the_rules_that_fired() -> None:
    from graph.answering.asked_figures import asked_sensors
    from graph.answering.fleet_ranking import compare_assets
    from graph.answering.verdicts import yes_no_verdict
    from graph.understanding.request import ranking_end
    from tests.unit.answering.builders import art, window
    assert asked_sensors("Which of the two got more cooling per kW over that month?") == ["Chiller Efficiency"]
    assert ranking_end("which got more cooling per kw?") == "good"
    eff = "Chiller Efficiency"
    pair = [window("Chiller 3", "2021-08-01", "2021-09-01", {eff: (0.49, "kW/ton")}, id="c3"),
            window("Chiller 4", "2021-08-01", "2021-09-01", {eff: (0.45, "kW/ton")}, id="c4")]
    best = compare_assets(pair, "and the best?")
    assert best is not None and best.headline.startswith("Chiller 4 runs most efficiently")
    worst = compare_assets(pair)
    assert worst is not None and worst.headline.startswith("Chiller 3 runs least efficiently")
    one = art("alert_rules", {"rules": [{"rule_id": "RUL0016", "rule_name": "Chiller - Condenser Water Flow Through A "
                                                                           "Chiller That Is Off", "count": 1}]},
              equipment=["CWC04703"], asset="Chiller 3", producer="maintenance")
    assert "RUL0016" in yes_no_verdict("any alarms on it this month", [one]).sentence


def test_whether_and_when_the_problem_was_dealt_with_is_its_resolution() -> None:
    from graph.understanding.request import asks_if_resolved
    assert asks_if_resolved("when did we sort that out?") and asks_if_resolved("has maintenance dealt with it?")
    assert not asks_if_resolved("how do we fix it")
    dialog = Dialog(reference_date=date(2021, 9, 20))
    dialog.say("what's the most likely root cause on chiller 4 in april and may?")
    assert dialog.say("when did we sort that out?").intent == "resolution"


def test_when_the_finding_was_sorted_out_leads_with_the_date_of_its_work_order() -> None:
    from graph.answering.verdicts import when_resolved_sentence
    from tests.unit.answering.builders import diagnosis, orders
    found = diagnosis("Chiller 4", ("Condenser Water side fouling", 0.8, 0.95))
    listed = orders("Chiller 4", "CWC04704", total=2, corrective=2, start="2021-04-01", end="2021-09-21",
                    recent=[{"wo_id": "WO157366", "date": "2021-07-12", "primary_code": "MT002",
                             "description": "Cleaning: Condenser Tube Cleaning (condenser)"}])
    said = when_resolved_sentence("when did we sort that out?", [listed], [found, listed])
    assert said is not None and said.startswith("On 2021-07-12: WO157366")
    assert when_resolved_sentence("did we sort that out?", [listed], [found, listed]) is None  # yes/no: its verdict
