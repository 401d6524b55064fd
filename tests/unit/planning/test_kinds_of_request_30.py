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
