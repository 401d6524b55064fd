"""Whole-site scope, follow-ups on a ranking, the write gate and offers (issue 11), in sentences of
their own kind rather than any dialog set's."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from assetops.domain.turn import Focus
from graph.planning.artifacts import ArtifactSummary, fired_rule_ids_from, ranked_assets
from specialists.base import found_nothing as none_found
from tests.unit.planning.dialog import Dialog, steps

FOUR = {"Chiller 3", "Chiller 4", "Chiller 6", "Chiller 9"}
RANKING = {"prioritize": {"ranking": [{"asset_id": "Chiller 6", "score": 9.1}, {"asset_id": "Chiller 3", "score": 1.0},
                                      {"asset_id": "Chiller 4", "score": 0.5}, {"asset_id": "Chiller 9", "score": 0.2}]}}


def _assets(decision: object) -> set[str]:
    return {a for t in decision.tasks for a in t.asset_ids}  # type: ignore[attr-defined]


def test_a_symptom_somewhere_in_the_plant_is_investigated_on_every_chiller_and_ranked() -> None:
    decision = Dialog().say("somebody in the plant is drawing too much power since last week, which unit?")
    assert decision.scope == "fleet" and _assets(decision) == FOUR
    assert ("timeseries", "anomaly_detection") in steps(decision) and ("maintenance", "prioritize") in steps(decision)


def test_after_a_ranking_a_question_about_the_finding_is_about_the_top_chiller() -> None:
    dialog = Dialog(results=RANKING)
    dialog.say("one of the chillers is running hot, find it")
    follow_up = dialog.say("since when has that been going on?")
    assert _assets(follow_up) == {"Chiller 6"}
    assert any("Chiller 6" in note for note in follow_up.assumptions)


def test_the_others_are_the_site_minus_the_chillers_discussed() -> None:
    dialog = Dialog()
    dialog.say("chiller 9 anomalies in june 2021")
    assert _assets(dialog.say("and the rest of them?")) == FOUR - {"Chiller 9"}


def test_a_question_about_a_work_order_gets_advice_and_the_confirmation_drafts_it() -> None:
    dialog = Dialog(results={"diagnose": {"hypotheses": ["Condenser Water side fouling"]}})
    dialog.say("diagnose chiller 6 over may 2020")
    advice = dialog.say("do you think we ought to open a ticket for this?")
    assert "draft_wo" not in {t.action for t in advice.tasks} and advice.focus.pending_offer == "draft_wo"
    assert steps(dialog.say("sure, go ahead")) == [("maintenance", "draft_wo")]


def test_context_periods_give_way_to_the_period_asked_about() -> None:
    decision = Dialog(reference_date=date(2019, 12, 1)).say(
        "For the 2019 review: what was chiller 3's average tonnage in March?")
    window = decision.tasks[0].window
    assert window is not None and (window.start.month, window.end.month) == (3, 4)


def test_ranked_assets_prefers_the_latest_ranking_then_anomaly_shares() -> None:
    ranking = ArtifactSummary(id="a", producer="maintenance", kind="prioritize", asset_ids=("Chiller 3", "Chiller 9"),
                              key_results={"ranking": [{"asset_id": "Chiller 9"}, {"asset_id": "Chiller 3"}]})
    shares = [ArtifactSummary(id=f"s{i}", producer="timeseries", kind="anomaly_detection", asset_ids=(a,),
                              key_results={"anomaly_rate": r}) for i, (a, r) in enumerate([("Chiller 3", 0.3),
                                                                                            ("Chiller 9", 0.1)])]
    assert ranked_assets([ranking], ["Chiller 3", "Chiller 9"]) == ["Chiller 9", "Chiller 3"]
    assert ranked_assets(shares, ["Chiller 3", "Chiller 9"]) == ["Chiller 3", "Chiller 9"]
    assert ranked_assets(shares[:1], ["Chiller 3", "Chiller 9"]) == []


def test_only_rules_that_fired_are_analysed_for_their_consequences() -> None:
    listing = ArtifactSummary(id="r", producer="maintenance", kind="alert_rules", asset_ids=("Chiller 9",),
                              key_results={"rules": [{"rule_id": "RUL0018", "count": 31},
                                                     {"rule_id": "RUL0017", "count": 0}]})
    assert fired_rule_ids_from([listing], "Chiller 9") == ["RUL0018"]
    assert fired_rule_ids_from([listing], "Chiller 3") is None


def test_an_empty_listing_is_an_answer_not_a_failure() -> None:
    assert none_found("No corrective work orders found for equipment_id 'CWC04009' between 2018-02-19 and 2018-05-20")
    assert not none_found("database is unavailable")
    assert not none_found(None)


def test_nothing_is_written_without_a_command_even_as_the_dialog_next_step() -> None:
    dialog = Dialog(results={"diagnose": {"hypotheses": ["Evaporator Water side fouling"]}})
    dialog.say("rank the causes of chiller 9's approach problem in june 2021")
    for message in ("and then?", "what now?", "ok"):
        decision = dialog.say(message)
        assert "draft_wo" not in {t.action for t in decision.tasks}, message
    assert Focus().pending_offer is None


def test_both_means_the_two_discussed_last_when_the_focus_narrowed_to_one() -> None:
    dialog = Dialog()
    dialog.say("compare chillers 6 and 9 power in june 2021")
    dialog.say("and chiller 9 alone, any anomalies?")
    decision = dialog.say("ok, forecast both for next week")
    assert _assets(decision) == {"Chiller 6", "Chiller 9"}


def test_what_the_crew_should_check_is_a_procedure_not_another_look_at_the_data() -> None:
    dialog = Dialog()
    dialog.say("chiller 6 condenser water flow in june 2021")
    decision = dialog.say("ok, what should the techs check first when they get there?")
    assert decision.shape == "how_to" and ("maintenance", "validation_protocol") in steps(decision)


def test_a_site_question_keeps_the_monitored_or_the_unmonitored_half_it_names() -> None:
    monitored = Dialog().say("Of the monitored units, which one had the most corrective work orders in 2020?")
    assert _assets(monitored) == FOUR
    unmonitored = Dialog().say("Among the chillers without sensors, which needed the most repairs last year?")
    assert _assets(unmonitored) == {"Chiller 1", "Chiller 2", "Chiller 7", "Chiller 10", "Chiller 12", "Chiller 13",
                                    "Chiller 14"}


def test_a_summary_with_no_chiller_named_covers_every_chiller_the_session_looked_at() -> None:
    dialog = Dialog()
    dialog.say("how many work orders did chiller 6 get in 2020?")
    dialog.say("and chiller 9?")
    report = [t for t in dialog.say("ok wrap it up for the morning meeting, keep it short").tasks
              if t.action == "report"]
    assert report and report[0].asset_ids == ["Chiller 6", "Chiller 9"]
    named = [t for t in dialog.say("write up chiller 9 for my manager").tasks if t.action == "report"]
    assert named and named[0].asset_ids == ["Chiller 9"]


def test_two_recipes_wanting_the_same_scan_run_it_once_on_both_sensor_sets() -> None:
    from tests.unit.planning.dialog import Dialog, steps
    decision = Dialog().say("anything strange across the site over the past two weeks? which machine looks worst")
    scans = [t for t in decision.tasks if t.action == "anomaly_detection"]
    assert len(scans) == len({tuple(t.asset_ids) for t in scans}) == 4
    assert ("maintenance", "prioritize") in steps(decision)


def test_whether_a_chiller_was_fine_is_a_health_check_whatever_the_last_step_compared() -> None:
    from tests.unit.planning.dialog import Dialog, steps
    dialog = Dialog()
    dialog.say("is 9's supply temp up this month vs june?")
    decision = dialog.say("and 3 was okay in june, right?")
    assert decision.focus.asset_ids == ["Chiller 3"]
    assert ("timeseries", "anomaly_detection") in steps(decision)
    assert ("data", "compare") not in steps(decision)


def test_should_i_book_a_job_offers_to_draft_it_and_yes_write_it_up_drafts_that_job() -> None:
    from tests.unit.planning.dialog import Dialog, steps
    dialog = Dialog()
    asked = dialog.say("should we schedule a condenser tube cleaning on chiller 9 next month?")
    assert not any(t.action == "draft_wo" for t in asked.tasks)  # a question: advice, nothing written
    assert asked.focus.pending_offer == "draft_wo"
    taken = dialog.say("ok, go ahead and write that up")
    assert ("maintenance", "draft_wo") in steps(taken)
    draft = next(t for t in taken.tasks if t.action == "draft_wo")
    assert "tube cleaning" in str(draft.params.get("work"))


@pytest.mark.parametrize("reply", ["thanks, that's really useful", "ok cool", "got it, cheers"])
def test_a_thank_you_runs_nothing_and_keeps_the_subject(reply: str) -> None:
    from tests.unit.planning.dialog import Dialog
    dialog = Dialog()
    dialog.say("how did chiller 9 run last week?")
    decision = dialog.say(reply)
    assert decision.kind == "answer" and not decision.tasks and decision.intent == "acknowledge"
    assert decision.focus.asset_ids == ["Chiller 9"]


def test_an_open_question_with_nothing_named_and_nothing_discussed_looks_across_the_site() -> None:
    decision = Dialog().say("anything I ought to know before the ops meeting?")
    assert decision.kind == "run" and decision.scope == "fleet"
    assert ("maintenance", "prioritize") in steps(decision)
    assert Dialog().say("good morning").intent == "capabilities"
    assert Dialog().say("hmm?").kind == "clarify"


def test_which_one_after_a_look_at_a_single_chiller_chooses_among_the_site() -> None:
    dialog = Dialog()
    dialog.say("how did chiller 4 run last week?")
    decision = dialog.say("which one has the worst kw per ton at the moment?")
    assert decision.scope == "fleet" and len(decision.focus.asset_ids) == 4


def test_how_far_a_forecast_can_be_trusted_scores_it_against_actuals() -> None:
    dialog = Dialog()
    dialog.say("forecast chiller 4's load for the next week")
    decision = dialog.say("how sure are you about those numbers?")
    assert steps(decision) == [("timeseries", "evaluate_forecast")]


def test_preventive_against_corrective_counts_are_one_listing_not_a_telemetry_comparison() -> None:
    decision = Dialog().say("how many PMs vs CMs did chiller 2 get in March?")
    assert steps(decision) == [("maintenance", "wo_summary")]
    assert decision.tasks[0].params["kind"] == "all"


def test_a_kind_named_as_an_addition_lists_every_kind() -> None:
    decision = Dialog().say("what work orders got closed on chiller 2 in may, PMs included?")
    assert decision.tasks[0].params["kind"] == "all"


def test_the_most_alarms_last_month_is_a_pick_among_chillers_not_among_months() -> None:
    from artifacts.model import Artifact
    from graph.answering.stat_questions import busiest_month_sentence, run_time_sentence
    counted = Artifact(id="a1", session_id="s", turn_index=1, producer="maintenance", kind="alert_rules",
                       equipment_ids=["CWC04006"], results={"rules": [], "per_month": {"2021-06": 67}})
    assert busiest_month_sentence("which month had the most alarms?", [counted]) is not None
    assert busiest_month_sentence("which chiller set off the most alarms last month?", [counted]) is None
    window = Artifact(id="a2", session_id="s", turn_index=1, producer="data", kind="telemetry_window",
                      asset_ids=["Chiller 9"], window_start=datetime(2019, 7, 16, tzinfo=UTC),
                      window_end=datetime(2019, 7, 23, tzinfo=UTC), results={
                          "stats": {"Chiller 9 Power Input": {"mean": 100.0, "running_mean": 268.0, "unit": "kW",
                                                              "count": 600}}, "running_share": 0.5})
    assert run_time_sentence("how many running hours did it log that week?", [window]) is not None
    assert run_time_sentence("what was the kw doing that week? running hours only", [window]) is None


def test_sensors_acting_up_asks_after_sensor_health_not_the_chiller() -> None:
    decision = Dialog().say("are any of chiller 9's sensors acting up lately?")
    assert decision.intent == "sensor_health"


@pytest.mark.parametrize("message", ["is the supply temp transmitter on 4 misbehaving?",
                                     "something wrong with the instruments on chiller 3?"])
def test_trouble_said_of_the_instruments_is_sensor_health_whatever_the_trouble_word(message: str) -> None:
    assert Dialog().say(message).intent.startswith("sensor_health")
