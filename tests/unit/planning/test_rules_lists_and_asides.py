"""Kinds of request read this stop: an opinion asked around a question ("what do you think is causing it"), a
statistic of a reading asked as a noun phrase beside another question, a mean over weeks (a statistic, not
point values), "the same quarter in 2019", a list of periods ("2018, 2019 and 2020") and the picks and trends
over it, alert rules named by the words of their name, "when did they happen", "that one" beside "they", and
a calibration order asked for by name."""

from __future__ import annotations

from datetime import date

from graph.understanding.identifiers import find_rule_names
from graph.understanding.text import Text, normalise
from tests.support.catalog import default_catalog
from tests.unit.planning.dialog import Dialog, at, steps


def test_an_opinion_around_a_question_asks_the_question() -> None:
    assert normalise("ok so what do u think is causing it") == ["ok", "so", "what", "is", "causing", "it"]
    assert normalise("which one would you say is worse") == ["which", "one", "is", "worse"]
    assert normalise("what do you think?") == ["what", "do", "you", "think", "?"]  # nothing asked but the opinion
    dialog = Dialog(reference_date=date(2020, 6, 20))
    dialog.say("ch6 kw/ton for may")
    assert ("failure", "diagnose") in steps(dialog.say("ok so what do u think is causing it"))


def test_a_statistic_beside_another_question_is_asked_too() -> None:
    dialog = Dialog(reference_date=date(2019, 8, 10))
    decision = dialog.say("doing the July writeup for chiller 9. avg power while running, and how many corrective WOs?")
    assert {("data", "history"), ("maintenance", "wo_summary")} <= set(steps(decision))


def test_a_mean_reading_over_months_is_a_statistic_not_a_listing_of_values() -> None:
    dialog = Dialog(reference_date=date(2021, 6, 15))
    dialog.say("is the CH6 chilled water supply temp sensor drifting?")
    decision = dialog.say("whats its mean reading since jan, while the unit's running")
    assert steps(decision) == [("data", "history")]


def test_the_same_quarter_in_another_year_moves_the_quarter_discussed() -> None:
    dialog = Dialog(reference_date=date(2021, 1, 5))
    dialog.say("How many alerts did chiller 3 log in Q4 last year?")
    decision = dialog.say("vs the same quarter in 2019?")
    windows = {(t.window.start, t.window.end) for t in decision.tasks if t.window}
    assert (at(2019, 10, 1), at(2020, 1, 1)) in windows
    assert all(t.action == "alert_rules" for t in decision.tasks)  # the alerts, as the question before


def test_a_list_of_years_is_each_year_and_a_later_pick_or_trend_reads_all_of_them() -> None:
    dialog = Dialog(reference_date=date(2020, 12, 31))
    listed = dialog.say("count of corrective WOs on chiller 6 for 2018, 2019 and 2020 pls")
    years = [(t.window.start, t.window.end) for t in listed.tasks if t.window]
    assert years == [(at(2018, 1, 1), at(2019, 1, 1)), (at(2019, 1, 1), at(2020, 1, 1)), (at(2020, 1, 1), at(2021, 1, 1))]
    trend = dialog.say("so its getting worse, right?")
    assert [(t.window.start, t.window.end) for t in trend.tasks if t.window] == years  # the same listings again
    dialog.say("is it worth replacing the thing at this point or do we keep patching it")
    pick = dialog.say("which of those three years was the worst")
    assert [(t.window.start, t.window.end) for t in pick.tasks if t.window] == years


def test_alert_rules_are_named_by_the_words_of_their_name_from_the_catalog() -> None:
    rules = default_catalog().alert_rules
    assert find_rule_names(Text.of("any of those 'excessive power while off' alerts on ch4?"), rules, loose=True) == [
        "RUL0021"]
    assert find_rule_names(Text.of("how many alerts on chiller 3"), rules, loose=True) == []
    assert find_rule_names(Text.of("are the load low ones anything to worry about"), rules, loose=False) == ["RUL0017"]
    assert find_rule_names(Text.of("is it running at low load"), rules, loose=False) == []  # a reading, not the rule


def test_a_rule_named_after_an_alert_listing_is_about_its_alerts_and_when_asks_their_dates() -> None:
    dialog = Dialog(reference_date=date(2021, 6, 2))
    first = dialog.say("have we had any of those 'excessive power while off' alerts on ch4 this year?")
    assert first.tasks[0].params["asked_rules"] == ["RUL0021"]
    when = dialog.say("when did they happen")
    assert steps(when) == [("maintenance", "alert_rules")] and when.tasks[0].params["asked_rules"] == ["RUL0021"]
    dialog = Dialog(reference_date=date(2021, 1, 5))
    dialog.say("How many alerts did chiller 3 log in Q4 last year, and which rules were they?")
    assert steps(dialog.say("are the load low ones anything to worry about or is it just the unit idling")) == [
        ("maintenance", "alert_rules")]


def test_that_one_is_one_chiller_even_when_they_are_the_records() -> None:
    from dataclasses import replace

    dialog = Dialog(reference_date=date(2022, 1, 10), results={"wo_summary": {"kind": "corrective"}})
    dialog.say("corrective WO count for 2021 on chillers 7, 10 and 12?")
    pick = dialog.say("which one had the most?")
    assert {t.params["kind"] for t in pick.tasks} == {"corrective"}  # a pick from the same listing
    dialog.focus = replace(dialog.focus, picked="Chiller 10")
    decision = dialog.say("what were they for on that one")
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 10"}
    assert decision.tasks[0].params["kind"] == "corrective"  # the listing picked from was of corrective orders


def test_a_calibration_order_asked_by_name_is_sensor_work() -> None:
    dialog = Dialog(reference_date=date(2021, 6, 15))
    dialog.say("how many setpoint attainment alerts on chiller 6 since january?")
    decision = dialog.say("ok, go ahead and draft a calibration WO for that sensor")
    draft = next(t for t in decision.tasks if t.action == "draft_wo")
    assert draft.params["purpose"] == "calibration"


def test_last_month_named_in_that_month_is_the_year_before() -> None:
    from zoneinfo import ZoneInfo

    from graph.understanding.periods import find_periods
    from graph.understanding.vocabulary import vocabulary

    def label(message: str) -> str | None:
        found = find_periods(Text.of(message).joined, vocabulary(), date(2018, 8, 15),
                             zone=ZoneInfo("America/New_York"))
        return found.mentions[0].window.label if found.mentions and found.mentions[0].window else None

    assert label("what did that temp average last august") == "August 2017"  # August 2018 is not over
    assert label("last july") == "July 2018"
    assert label("in august") == "August 2018"


def test_a_bare_number_after_an_opening_auxiliary_or_before_a_dash_is_a_chiller() -> None:
    from graph.understanding.assets import find_assets
    from graph.understanding.vocabulary import vocabulary

    def assets(message: str) -> list[str]:
        return find_assets(Text.of(message), vocabulary(), default_catalog()).assets

    assert assets("is 9 any better?") == ["Chiller 9"]
    assert assets("why is 3 at the top?") == ["Chiller 3"]
    assert assets("what about 1, 2 and 7 - which of them had corrective work?") == ["Chiller 1", "Chiller 2", "Chiller 7"]
    assert assets("get the strainers on 6 checked out") == ["Chiller 6"]
    assert assets("is 2 or 3 bullets enough") == [] and assets("is 45 degF ok") == []


def test_a_job_done_question_reads_the_work_orders_and_a_reading_averaged_stays_a_reading() -> None:
    dialog = Dialog(reference_date=date(2018, 8, 15))
    dialog.say("Chiller 4's liquid refrigerant temp keeps sagging this month")
    assert steps(dialog.say("did we already do a leak check on it this summer?")) == [("maintenance", "wo_summary")]
    averaged = dialog.say("what did that temp average last august, for comparison")
    assert steps(averaged) == [("data", "history")]
    assert averaged.tasks[0].sensors == ["Chiller 4 Liquid Refrigerant Evaporator Temperature"]


def test_an_order_described_with_its_priority_is_drafted_as_described() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 20))
    dialog.say("chiller 6 condenser approach last month")
    decision = dialog.say("Raise a WO to get the CW pump and strainers on 6 checked out, priority 2.")
    assert steps(decision) == [("maintenance", "draft_wo")]  # no ranking for "priority 2", no diagnosis first
    assert decision.tasks[0].params["priority"] == 2
    assert decision.tasks[0].params["work"] == "get the CW pump and strainers on 6 checked out"


def test_a_bare_continuation_goes_on_with_the_chiller_discussed() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 20))
    dialog.say("chiller 9 kw/ton last month")
    decision = dialog.say("and")
    assert decision.kind == "run" and {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 9"}
    assert Dialog().say("and").kind == "clarify"  # nothing discussed: nothing to go on with


def test_a_maintenance_plan_for_the_months_ahead_ranks_and_predicts_rather_than_forecasts() -> None:
    dialog = Dialog(reference_date=date(2018, 8, 20))
    dialog.say("ch4 and ch6 both have the refrigerant evap temp sitting low the last few weeks")
    decision = dialog.say("put together a maintenance plan covering both for the next 3 months")
    assert {("maintenance", "prioritize"), ("maintenance", "predict_next")} <= set(steps(decision))
    assert ("timeseries", "forecast") not in steps(decision)
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 4", "Chiller 6"}


def test_a_topic_set_before_the_question_leaves_its_shape_to_the_question() -> None:
    from graph.understanding.request import read_request

    assert read_request("for 9 is that all one rule?").shape == "yes_no"
    assert read_request("on chiller 6, did it trip?").shape == "yes_no"
    assert read_request("for how long has it run").shape != "yes_no"


def test_where_should_the_crew_go_first_ranks_every_chiller_discussed_when_everything_is_taken_into_account() -> None:
    dialog = Dialog(reference_date=date(2021, 5, 20))
    dialog.say("Site wide question - which chiller has the worst kW/ton so far this month?")
    dialog.say("what about 1, 2 and 7 - which of them had corrective work done this year?")
    decision = dialog.say("ok so where should the crew go first, taking everything into account?")
    assert ("maintenance", "prioritize") in steps(decision)
    ranked = next(t for t in decision.tasks if t.action == "prioritize")
    assert {"Chiller 3", "Chiller 4", "Chiller 6", "Chiller 9"} <= set(ranked.asset_ids)


def test_a_plan_for_this_week_ranks_the_chillers_discussed_on_the_period_looked_at() -> None:
    dialog = Dialog(reference_date=date(2021, 6, 29))
    dialog.say("chiller 6 alarms this month, real problem or noise?")
    dialog.say("and chiller 9?")
    decision = dialog.say("Give me a plan for this week, most urgent first.")
    ranked = next(t for t in decision.tasks if t.action == "prioritize")
    assert set(ranked.asset_ids) == {"Chiller 6", "Chiller 9"}
    assert ranked.window is not None and (ranked.window.start, ranked.window.end) == (at(2021, 6, 1), at(2021, 6, 30))


def test_an_orders_stated_priority_is_read_once_as_a_number() -> None:
    from graph.understanding.request import stated_priority

    assert stated_priority("raise a WO for it, priority 2") == 2
    assert stated_priority("draft it as p1") == 1 and stated_priority("priority two") == 2
    assert stated_priority("high priority please") is None  # a field word, no number to set
    assert stated_priority("which chiller is the priority?") is None
