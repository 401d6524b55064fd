"""Alarms pointed at without a rule's name: after a listing, "any of those" is every rule it found firing and "that
same alarm" the one it found most; "any other unit" is the rest of the chillers, the one discussed left out."""

from __future__ import annotations

from datetime import date

from tests.unit.planning.dialog import Dialog

LISTING = {"alert_rules": {"rules": [{"rule_id": "RUL0018", "count": 24}, {"rule_id": "RUL0022", "count": 3},
                                     {"rule_id": "RUL0016", "count": 0}]}}


def asked(decision: object) -> list[list[str]]:
    return [list(t.params.get("asked_rules", [])) for t in decision.tasks]  # type: ignore[attr-defined]


def test_any_of_those_after_a_listing_is_every_rule_it_found_firing() -> None:
    dialog = Dialog(reference_date=date(2021, 6, 28), results=LISTING)
    dialog.say("getting a pile of alarms off ch9 this month. what are they mostly, and how many")
    decision = dialog.say("did it throw any of those in may?")
    assert asked(decision) == [["RUL0018", "RUL0022"]]


def test_that_same_alarm_on_any_other_unit_is_the_rule_found_most_on_the_rest() -> None:
    dialog = Dialog(reference_date=date(2021, 6, 28), results=LISTING)
    dialog.say("getting a pile of alarms off ch9 this month. what are they mostly, and how many")
    decision = dialog.say("any other unit throwing that same alarm in june?")
    assets = {t.asset_ids[0] for t in decision.tasks}
    assert "Chiller 9" not in assets and {"Chiller 3", "Chiller 4", "Chiller 6"} <= assets
    assert all(rules == ["RUL0018"] for rules in asked(decision))


def test_without_a_listing_before_nothing_is_pointed_at() -> None:
    decision = Dialog(reference_date=date(2021, 6, 28)).say("did chiller 9 throw any of those alarms in may?")
    assert asked(decision) == [[]]


def test_kpi_anomalies_are_the_event_logs_not_a_detector_run() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 1))
    dialog.say("how did chiller 9 run in june")
    assert [a for _, a in steps_of(dialog.say("were any kpi anomalies flagged on it in june"))] == ["alert_rules"]
    both = Dialog(reference_date=date(2021, 7, 1))
    both.say("Review Chiller 9's last two months.")
    assert {a for _, a in steps_of(both.say("Any anomalies or rule violations?"))} == {"anomaly_detection",
                                                                                      "alert_rules"}


def steps_of(decision: object) -> list[tuple[str, str]]:
    return [(t.specialist, t.action) for t in decision.tasks]  # type: ignore[attr-defined]


def test_the_same_question_of_other_chillers_keeps_the_rule_asked_about() -> None:
    dialog = Dialog(reference_date=date(2021, 4, 30))
    dialog.say("ch6 keeps short cycling. how many cycling alarms did it log in april")
    assert asked(dialog.say("is 9 doing the same?")) == [["RUL0022"]]
    assert asked(dialog.say("what about 3 and 4")) == [["RUL0022"], ["RUL0022"]]


def test_a_bare_number_before_then_or_too_is_a_chiller_and_the_set_with_data_is_listed() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 1))
    listed = dialog.say("new on site - which chillers can you actually see trend data for?")
    assert listed.kind == "answer" and "Chiller 9 (CWC04009)" in listed.message
    decision = dialog.say("nothing for 12 then? what do you have on it")
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 12"}
