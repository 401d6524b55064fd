"""Ambiguity and bad input: ask or refuse with a way forward, never invent, never crash."""

from __future__ import annotations

from datetime import date

import pytest

from assetops.domain.turn import Focus
from assetops.settings import Settings
from graph.planning import plan_turn
from tests.support.catalog import default_catalog
from tests.unit.planning.dialog import REFERENCE, Dialog


@pytest.mark.parametrize("message", ["Check the chiller.", "look at the chiller please", "chiller"])
def test_no_chiller_named_or_discussed_looks_at_all_four_monitored_chillers(message: str) -> None:
    """Issue 11: a whole-site reading, ranked, instead of "which chiller do you mean?"."""
    decision = plan_turn(message, Focus(), REFERENCE, catalog=default_catalog())
    assert decision.kind == "run" and decision.scope == "fleet"
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 3", "Chiller 4", "Chiller 6", "Chiller 9"}
    assert any("all 4" in note for note in decision.assumptions)


def test_how_is_it_doing_with_nothing_discussed_looks_across_the_site_and_says_so() -> None:
    decision = plan_turn("how is it doing?", Focus(), REFERENCE, catalog=default_catalog())
    assert decision.kind == "run" and {a for t in decision.tasks for a in t.asset_ids} == set(
        default_catalog().telemetry_assets)  # every monitored chiller, none invented
    assert any("read across the site" in note for note in decision.assumptions)


@pytest.mark.parametrize("message", ["The one we talked about.", "same chiller as before", "do that again for it"])
def test_references_with_an_empty_focus_ask_instead_of_inventing(message: str) -> None:
    decision = plan_turn(message, Focus(), REFERENCE, catalog=default_catalog())
    assert decision.kind == "clarify" and not decision.tasks


@pytest.mark.parametrize(("message", "expected"), [
    ("Show Chiller 99 data for 2035.", ["Chiller 99", "2016-01-01 to 2021-12-31"]),
    ("work orders for chiller 5", ["Chiller 5", "Chiller 14"]),
    ("history of CWC09999", ["CWC09999"]),
    ("what about AHU 2?", ["AHU 2", "chillers"]),
    ("Chiller 9 at site SOUTH", ["SOUTH", "MAIN"]),
    ("chiller 9 data for 2035", ["2035", "2016-01-01 to 2021-12-31"]),
    ("chiller 3 in 2015", ["2015"]),
    ("chiller 3 supply temp on 2020-02-30", ["2020-02-30", "not a valid date"]),
])
def test_impossible_requests_are_refused_with_what_exists(message: str, expected: list[str]) -> None:
    decision = plan_turn(message, Focus(), REFERENCE, catalog=default_catalog())
    assert decision.kind == "reject"
    for text in expected:
        assert text in decision.message


def test_past_looking_request_after_the_reference_date_is_refused_with_a_forecast_hint() -> None:
    decision = plan_turn("review chiller 9 for September 2021", Focus(), REFERENCE, catalog=default_catalog())
    assert decision.kind == "reject" and "forecast" in decision.message


def test_a_period_partly_outside_the_data_is_clipped_and_said() -> None:
    decision = plan_turn("review chiller 9 this summer", Focus(), REFERENCE, catalog=default_catalog())
    assert decision.kind == "run"
    assert decision.tasks[0].window is not None and decision.tasks[0].window.end.date() == date(2021, 7, 2)
    assert any("clipped" in note for note in decision.assumptions)


@pytest.mark.parametrize("message", ["", "   ", "blah blah", "12345", "🙂🙂", "DROP TABLE users; --"])
def test_noise_gets_a_question_with_examples(message: str) -> None:
    decision = plan_turn(message, Focus(), REFERENCE, catalog=default_catalog())
    assert decision.kind == "clarify" and "Chiller 9" in decision.message


def test_a_50_kb_pasted_log_is_refused_with_its_size_and_what_it_mentions() -> None:
    log = "2021-06-14T03:15:00-04:00 CWC04009 ALARM RUL0018 Evaporator Approach High value=7.9\n" * 700
    decision = plan_turn(log, Focus(), REFERENCE, catalog=default_catalog())
    assert decision.kind == "reject"
    assert f"{len(log):,}" in decision.message and "Chiller 9" in decision.message


def test_a_refusal_keeps_a_valid_chiller_as_the_subject() -> None:
    dialog = Dialog()
    assert dialog.say("Chiller 3 supply temperature on Feb 30 2020").kind == "reject"
    follow_up = dialog.say("ok, the last week then")
    assert follow_up.kind == "run" and follow_up.tasks[0].asset_ids == ["Chiller 3"]


def test_same_period_last_year_without_an_earlier_period_is_not_guessed() -> None:
    decision = plan_turn("chiller 9 for the same period last year", Focus(), REFERENCE, catalog=default_catalog())
    assert decision.kind == "reject" and "earlier period" in decision.message


def test_the_message_limit_is_the_service_setting_unless_one_is_passed_in() -> None:
    message = "Review Chiller 9's last two months, supply temperature and power input please. " * 60
    assert 4_000 < len(message) < Settings().max_message_chars  # read: under the one 20,000 limit
    assert plan_turn(message, Focus(), REFERENCE, catalog=default_catalog()).kind == "run"
    refused = plan_turn(message, Focus(), REFERENCE, max_message_chars=1_000, catalog=default_catalog())
    assert refused.kind == "reject" and "1,000" in refused.message


def test_a_look_at_a_work_order_only_chiller_shows_its_records_and_says_why() -> None:
    decision = plan_turn("chiller 1 trend last month", Focus(), REFERENCE, catalog=default_catalog())
    assert decision.kind == "run"
    assert {t.action for t in decision.tasks} == {"wo_summary", "alert_rules"}
    assert any("Chiller 1 has no telemetry" in note for note in decision.assumptions)


def test_a_reading_of_a_work_order_only_chiller_is_answered_saying_what_exists() -> None:
    decision = plan_turn("chiller 1 power last month", Focus(), REFERENCE, catalog=default_catalog())
    assert decision.kind == "answer" and not decision.tasks
    assert "Chiller 1" in decision.message and "no telemetry" in decision.message


def test_asked_whether_a_reading_can_be_had_the_answer_is_no_with_what_exists() -> None:
    decision = plan_turn("could you show me chiller 1's power last month?", Focus(), REFERENCE,
                         catalog=default_catalog())
    assert decision.kind == "answer" and decision.message.startswith("No, Chiller 1")


def test_with_a_telemetry_chiller_beside_it_the_work_order_only_one_is_left_out_and_said() -> None:
    decision = plan_turn("compare chiller 1 and chiller 6 power last month", Focus(), REFERENCE, catalog=default_catalog())
    assert decision.kind == "run" and {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 6"}
    assert any("Chiller 1 has no telemetry" in note for note in decision.assumptions)


def test_what_have_you_got_on_a_work_order_only_chiller_lists_its_records() -> None:
    decision = plan_turn("what have you got on chiller 2?", Focus(), REFERENCE, catalog=default_catalog())
    assert decision.kind == "run" and "wo_summary" in {t.action for t in decision.tasks}


def test_a_capability_question_with_a_word_between_is_answered() -> None:
    decision = plan_turn("new here - what can you really do for me?", Focus(), REFERENCE, catalog=default_catalog())
    assert decision.kind == "answer" and decision.intent == "capabilities"


@pytest.mark.parametrize("message", ["hows it looking today", "how's everything running?"])
def test_a_status_question_opening_a_chat_is_about_the_site(message: str) -> None:
    decision = plan_turn(message, Focus(), REFERENCE, catalog=default_catalog())
    assert decision.kind == "run" and {a for t in decision.tasks for a in t.asset_ids} == set(
        default_catalog().telemetry_assets)
