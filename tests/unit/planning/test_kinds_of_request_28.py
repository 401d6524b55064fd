"""Kinds of request met in two development sets (heldout28, heldout29): the earlier side of a comparison left
unsaid ("this summer than last?"), every chiller over two periods, energy used, alerts named by their rules,
the dialog's own state ("so where are we?"), advice asked in a word or two, a bare chiller number before "so"
or "the", a quarter set against the same quarter of a named year, and what was measured after a forecast."""

from __future__ import annotations

from datetime import date

from graph.understanding.assets import find_assets
from graph.understanding.request import read_request
from graph.understanding.text import Text
from graph.understanding.vocabulary import vocabulary
from tests.unit.planning.dialog import Dialog, at, default_catalog

AUTUMN = date(2021, 9, 15)
NOVEMBER = date(2020, 11, 20)
MARCH = date(2021, 3, 15)


def _windows(decision: object) -> set[tuple[object, object]]:
    return {(t.window.start, t.window.end) for t in decision.tasks if t.window}  # type: ignore[attr-defined]


def test_than_last_after_a_season_is_the_same_season_a_year_before() -> None:
    decision = Dialog(reference_date=AUTUMN).say("did chiller 6 use less energy this summer than last?")
    assert ("compare" in [t.action for t in decision.tasks])
    assert _windows(decision) >= {(at(2021, 6, 1), at(2021, 9, 1)), (at(2020, 6, 1), at(2020, 9, 1))}


def test_than_last_after_a_month_is_that_month_a_year_before() -> None:
    decision = Dialog(reference_date=AUTUMN).say("was chiller 9 worse this july than last?")
    assert _windows(decision) >= {(at(2021, 7, 1), at(2021, 8, 1)), (at(2020, 7, 1), at(2020, 8, 1))}


def test_every_chiller_is_compared_over_two_periods_when_the_plant_is_asked() -> None:
    decision = Dialog(reference_date=AUTUMN).say("did the chillers use more power this july than last?")
    compared = [t for t in decision.tasks if t.action == "compare"]
    assert sorted(a for t in compared for a in t.asset_ids) == ["Chiller 3", "Chiller 4", "Chiller 6", "Chiller 9"]
    assert all(len(t.params["windows"]) == 2 for t in compared)


def test_energy_used_is_the_power_drawn_but_energy_efficiency_is_kw_per_ton() -> None:
    from graph.understanding.sensors import find_sensors

    assert find_sensors(Text.of("did the plant use less energy this summer?"), vocabulary()).canonical == ["Power Input"]
    assert find_sensors(Text.of("is its energy efficiency ok?"), vocabulary()).canonical == ["Chiller Efficiency"]


def test_a_listing_asked_by_rule_after_an_alert_ranking_stays_on_alerts() -> None:
    dialog = Dialog(reference_date=NOVEMBER)
    dialog.say("which chillers are throwing the most alerts this month")
    broken_down = dialog.say("break the worst one down by rule")
    assert {t.action for t in broken_down.tasks} == {"alert_rules"}
    # a listing that names work orders still lists work orders
    orders = dialog.say("break the work orders down by failure code")
    assert {t.action for t in orders.tasks} == {"wo_summary"}


def test_where_are_we_asks_for_the_findings() -> None:
    assert read_request("so where are we?").shape == "verdict"
    assert read_request("what have we got so far?").shape == "verdict"
    assert read_request("where are the chillers located?").shape != "verdict"


def test_advice_asked_in_a_word_or_two_points_back_at_the_subject() -> None:
    dialog = Dialog(reference_date=NOVEMBER)
    dialog.say("is chiller 9 ok this month?")
    for message in ("should I be worried?", "anything I need to escalate?", "anything we should act on?",
                    "is there anything I need to chase up?"):
        decision = dialog.say(message)
        assert decision.kind == "run" and decision.intent == "recommend_wo", message
    assert dialog.say("should I buy bitcoin?").kind == "reject"


def test_a_bare_chiller_number_before_so_or_the_is_the_chiller() -> None:
    catalog = default_catalog()
    assert find_assets(Text.of("why is 3 so much worse?"), vocabulary(), catalog).assets == ["Chiller 3"]
    assert find_assets(Text.of("is 9 the worst?"), vocabulary(), catalog).assets == ["Chiller 9"]
    assert find_assets(Text.of("was 2020 that bad?"), vocabulary(), catalog).assets == []


def test_a_quarter_against_the_same_quarter_of_a_named_year_is_the_latest_one() -> None:
    decision = Dialog(reference_date=MARCH).say("How did chiller 3's power in Q4 compare with Q4 2019?")
    assert _windows(decision) >= {(at(2020, 10, 1), at(2021, 1, 1)), (at(2019, 10, 1), at(2020, 1, 1))}
    # a year that frames the message still gives a bare month its year
    framed = Dialog(reference_date=MARCH).say("closing out 2019: how did chiller 4 run in june?")
    assert _windows(framed) == {(at(2019, 6, 1), at(2019, 7, 1))}


def test_what_it_actually_averaged_after_a_forecast_is_measured() -> None:
    dialog = Dialog(reference_date=MARCH)
    dialog.say("forecast ch9 load for the next 2 weeks")
    actual = dialog.say("what's it actually been averaging this month?")
    assert [t.action for t in actual.tasks] == ["history"]
    assert _windows(actual) == {(at(2021, 3, 1), at(2021, 3, 16))}


def test_last_weekend_is_saturday_and_sunday_and_the_weekend_after_it_is_the_same_one() -> None:
    dialog = Dialog(reference_date=NOVEMBER)  # a Friday
    first = dialog.say("was ch6 running at all last weekend?")
    assert _windows(first) == {(at(2020, 11, 14), at(2020, 11, 16))}
    assert [t.action for t in first.tasks] == ["history"]  # whether it ran: its running share, not an analysis
    again = dialog.say("what was it pulling on average over the weekend")
    assert _windows(again) == {(at(2020, 11, 14), at(2020, 11, 16))}


def test_between_two_days_of_the_month_is_the_span_of_this_month() -> None:
    dialog = Dialog(reference_date=NOVEMBER)
    decision = dialog.say("how many alerts did chiller 6 have between the 9th and the 15th")
    assert _windows(decision) == {(at(2020, 11, 9), at(2020, 11, 16))}


def test_a_job_said_in_the_passive_with_a_tag_asks_whether_it_was_done() -> None:
    dialog = Dialog(reference_date=MARCH)
    dialog.say("hows #4 doin this month vs last month? effcy mainly")
    decision = dialog.say("the condenser tubes got cleaned on it earlier this month, right?")
    assert {t.action for t in decision.tasks} == {"wo_summary"}


def test_ran_at_all_answers_yes_or_no_on_the_running_share() -> None:
    from graph.answering.stat_questions import ran_at_all_sentence
    from tests.unit.answering.builders import running

    def ran(asset: str, share: float) -> object:
        return running(asset, "2020-02-01", "2020-03-01", share)

    fleet = [ran("Chiller 3", 0.05), ran("Chiller 4", 0.0)]
    idle = ran_at_all_sentence("Did any of the chillers sit idle for the whole of February?", fleet)  # type: ignore[arg-type]
    assert idle is not None and idle.startswith("Yes, Chiller 4 did not run")
    one = ran_at_all_sentence("did it run at all in february?", fleet[:1])  # type: ignore[arg-type]
    assert one is not None and one.startswith("Yes, Chiller 3 ran about 35 hours")
    off = ran_at_all_sentence("was it running at all?", fleet[1:])  # type: ignore[arg-type]
    assert off is not None and off.startswith("No, Chiller 4 did not run")
    assert ran_at_all_sentence("how did it run in february?", fleet) is None


def test_mostly_one_rule_is_that_rule_s_share_of_the_alerts() -> None:
    from graph.answering.asked_figures import mostly_rule_sentence
    from tests.unit.answering.builders import alerts

    listed = [alerts("Chiller 9", "CWC04009", {"RUL0022": 6, "RUL0017": 3}, start="2021-03-01", end="2021-03-16",
                     names={"RUL0022": "Chiller - Chiller Cycling", "RUL0017": "Chiller - Load Low"})]
    mostly = mostly_rule_sentence("Mostly the cycling ones?", listed)
    assert mostly is not None and mostly.startswith("Yes, RUL0022 Chiller Cycling made up 6 of the 9 alerts")
    not_mostly = mostly_rule_sentence("mainly load low?", listed)
    assert not_mostly is not None and not_mostly.startswith("No,") and "RUL0022" in not_mostly
    assert mostly_rule_sentence("how many were cycling?", listed) is None


def test_the_one_before_after_the_last_job_asks_that_question_for_the_order_before_it() -> None:
    dialog = Dialog(reference_date=MARCH)
    first = dialog.say("when was the last corrective WO on CWC04009?")
    again = dialog.say("and the one before?")
    assert [(t.action, t.asset_ids, t.params.get("kind")) for t in again.tasks] == \
        [(t.action, t.asset_ids, t.params.get("kind")) for t in first.tasks]


def test_the_order_before_the_latest_is_the_next_older_one_of_that_job() -> None:
    from graph.answering.shapes import _the_one_before
    from graph.understanding.last_done import REPAIR_STEMS
    from tests.unit.answering.builders import orders

    listed = orders("Chiller 9", "CWC04009", total=3, corrective=3, start="2020-01-01", end="2021-03-15", recent=[
        {"wo_id": "WO3", "date": "2021-02-26", "code": "L004", "description": "Gasket Leak"},
        {"wo_id": "WO2", "date": "2020-11-12", "code": "E005", "description": "Control Wiring Fault"},
        {"wo_id": "WO1", "date": "2020-08-01", "code": "M009", "description": "Seal Failure"}])
    from artifacts.readings import recent_orders

    latest = recent_orders(listed)[0]
    assert _the_one_before(listed, latest, REPAIR_STEMS).startswith("; the one before it: WO2 on 2020-11-12")


def test_when_was_the_latest_of_those_keeps_the_alerts_and_their_period() -> None:
    dialog = Dialog(reference_date=NOVEMBER)
    counted = dialog.say("how many 'excessive power while off' alerts has ch3 had since the start of 2019?")
    latest = dialog.say("when was the latest of those?")
    assert {t.action for t in latest.tasks} == {"alert_rules"}
    assert _windows(latest) == _windows(counted)


def test_a_scope_fronted_before_which_still_asks_for_a_pick() -> None:
    assert read_request("Across all of them, which had the most corrective WOs so far this year?").shape == "which"
    assert read_request("over the summer, was it worse?").shape == "yes_no"


APRIL = date(2020, 4, 8)


def test_the_one_before_that_is_the_period_before_the_one_discussed() -> None:
    dialog = Dialog(reference_date=APRIL)
    dialog.say("ch6 avg power draw last month?")
    before = dialog.say("and the one before that?")
    assert _windows(before) == {(at(2020, 2, 1), at(2020, 3, 1))}


def test_when_did_it_last_run_reads_far_enough_back() -> None:
    from graph.answering.stat_questions import last_ran_sentence
    from tests.unit.answering.builders import window

    decision = Dialog(reference_date=APRIL).say("when did chiller 3 last run?")
    assert [t.action for t in decision.tasks] == ["history"]
    assert _windows(decision) == {(at(2019, 4, 9), at(2020, 4, 9))}
    read = window("Chiller 3", "2019-04-09", "2020-04-09", {"Chiller % Loaded": (40.0, "%")})
    read.results.update({"last_running": "2020-03-16T19:30:00-04:00", "last_sample": "2020-04-08T23:45:00-04:00"})
    assert last_ran_sentence("when did it last run?", [read]) == "Chiller 3 last ran on 2020-03-16 19:30 (load above 10%)."


def test_a_chiller_that_has_not_run_at_all_is_asked_about_idling() -> None:
    from graph.answering.stat_questions import ran_at_all_sentence
    from tests.unit.answering.builders import running

    def ran(asset: str, share: float) -> object:
        return running(asset, "2020-04-01", "2020-04-09", share)

    fleet = [ran("Chiller 3", 0.0), ran("Chiller 4", 0.3)]
    said = ran_at_all_sentence("any chiller that hasnt run at all this month?", fleet)  # type: ignore[arg-type]
    assert said is not None and said.startswith("Yes, Chiller 3 did not run")


def test_a_topic_head_with_a_colon_keeps_its_records_and_a_relative_year_is_its_own() -> None:
    decision = Dialog(reference_date=APRIL).say("chiller 4 alerts: Q1 vs Q4 last year?")
    assert {t.action for t in decision.tasks} == {"alert_rules"}
    assert _windows(decision) == {(at(2020, 1, 1), at(2020, 4, 1)), (at(2019, 10, 1), at(2020, 1, 1))}


def test_a_month_the_year_before_is_that_month_a_year_before_the_one_discussed() -> None:
    dialog = Dialog(reference_date=APRIL)
    dialog.say("ch4 return temp was reading high last year - sensor or real?")
    decision = dialog.say("what did it average in aug vs aug the year before?")
    assert _windows(decision) >= {(at(2019, 8, 1), at(2019, 9, 1)), (at(2018, 8, 1), at(2018, 9, 1))}


AUGUST = date(2021, 8, 20)


def test_counting_orders_closed_is_a_count_not_the_last_job() -> None:
    from graph.understanding.last_done import last_done_job

    vocab = vocabulary()
    assert last_done_job(Text.of("How many corrective work orders were closed on #6 that month?"), vocab) == frozenset()
    assert last_done_job(Text.of("were the condenser tubes cleaned on it in june?"), vocab)


def test_the_same_quarter_last_year_is_kept_beside_the_quarter_asked() -> None:
    decision = Dialog(reference_date=AUGUST).say(
        "Is CWC04704 pulling more power in Q2 than it did in the same quarter last year?")
    assert _windows(decision) >= {(at(2021, 4, 1), at(2021, 7, 1)), (at(2020, 4, 1), at(2020, 7, 1))}


def test_so_far_this_year_overall_is_the_whole_year_to_date() -> None:
    dialog = Dialog(reference_date=AUGUST)
    dialog.say("what was chiller 3's average kW/ton in March?")
    dialog.say("and march last year?")
    overall = dialog.say("what about so far this year overall")
    assert _windows(overall) == {(at(2021, 1, 1), at(2021, 8, 21))}


def test_the_year_before_that_after_two_years_is_before_both() -> None:
    dialog = Dialog(reference_date=AUGUST)
    dialog.say("#6 corrective WOs, 2020 vs 2019?")
    before = dialog.say("and the year before that?")
    assert _windows(before) == {(at(2018, 1, 1), at(2019, 1, 1))}


def test_why_the_jump_after_two_alert_counts_names_the_rule_that_moved() -> None:
    from graph.answering.asked_figures import alert_change_driver
    from tests.unit.answering.builders import alerts

    dialog = Dialog(reference_date=NOVEMBER)
    dialog.say("alerts on chiller 9 last quarter?")
    dialog.say("and this quarter so far")
    assert {t.action for t in dialog.say("why the jump").tasks} == {"alert_rules"}
    names = {"RUL0017": "Chiller - Load Low", "RUL0022": "Chiller - Chiller Cycling"}
    counts = [alerts("Chiller 9", "CWC04009", {"RUL0017": 1}, start="2020-07-01", end="2020-10-01", names=names),
              alerts("Chiller 9", "CWC04009", {"RUL0017": 20, "RUL0022": 13}, start="2020-10-01", end="2020-11-21",
                     names=names)]
    driver = alert_change_driver("why the jump", counts)
    assert driver is not None and driver[0].startswith("The rise on CWC04009 is mostly RUL0017 Load Low: 20 ")
    assert alert_change_driver("how many alerts?", counts) is None


def test_a_doubt_that_the_anomaly_is_just_a_sensor_asks_whether_the_reading_is_real() -> None:
    dialog = Dialog(reference_date=MARCH)
    dialog.say("is chiller 6 ok?")
    # (the validity check first; the diagnosis beside it says whether a sensor fault leads)
    assert dialog.say("so is the anomaly just a sensor problem?").intent == "sensor_validity+diagnose"


def test_a_job_s_order_around_then_is_looked_for_a_month_either_side() -> None:
    dialog = Dialog(reference_date=NOVEMBER)
    dialog.say("ch4 chw return temp, aug 2019 vs aug 2020?")
    dialog.say("the 2019 figure looks high for the load it had. could the sensor have been drifting?")
    decision = dialog.say("was there a calibration work order on it around then?")
    assert [t.action for t in decision.tasks] == ["wo_summary"]
    assert _windows(decision) == {(at(2019, 7, 1), at(2019, 10, 2))}


def test_did_we_do_anything_about_it_asks_whether_it_was_dealt_with() -> None:
    from graph.understanding.request import asks_if_resolved

    assert asks_if_resolved("did we do anything about it back then?")
    assert not asks_if_resolved("did we run it at night?")


def test_the_other_two_after_a_pick_are_the_two_ranked_beside_it() -> None:
    from dataclasses import replace

    dialog = Dialog(reference_date=MARCH)
    dialog.say("Which chillers got load-low alerts last month?")
    dialog.focus = replace(dialog.focus, asset_ids=["Chiller 4"], picked="Chiller 4",
                           ranked=["Chiller 4", "Chiller 6", "Chiller 3", "Chiller 9"])
    decision = dialog.say("And the other two, anything besides load low on them last month?")
    assert {t.action for t in decision.tasks} == {"alert_rules"}
    assert sorted(a for t in decision.tasks for a in t.asset_ids) == ["Chiller 3", "Chiller 6"]


def test_besides_a_rule_lists_the_other_rules_that_fired() -> None:
    from graph.answering.asked_figures import other_rules_sentence
    from tests.unit.answering.builders import alerts

    names = {"RUL0017": "Chiller - Load Low", "RUL0022": "Chiller - Chiller Cycling"}
    listed = [alerts("Chiller 6", "CWC04006", {"RUL0017": 1, "RUL0022": 1}, start="2021-02-01", end="2021-03-01",
                     names=names),
              alerts("Chiller 3", "CWC04703", {"RUL0017": 1}, start="2021-02-01", end="2021-03-01", names=names)]
    said = other_rules_sentence("anything besides load low on them last month?", listed)
    assert said is not None and said.startswith("Yes, besides RUL0017 Load Low") and "CWC04006 logged RUL0022" in said
    assert "CWC04703" not in said


def test_a_month_picked_by_the_answer_is_that_month_next() -> None:
    from graph.nodes.respond import picked_month

    zone = default_catalog().zone
    picked = picked_month("July 2019 was the busiest month for corrective work orders on CWC04009: 4 of 8.", zone)
    assert picked is not None and (picked.start, picked.end) == (at(2019, 7, 1), at(2019, 8, 1))
    assert picked_month("Chiller 9 had the most alerts in July 2019.", zone) is None


def test_that_month_and_the_same_month_the_year_before_are_both_read() -> None:
    dialog = Dialog(reference_date=APRIL)
    dialog.say("Chiller 9 tripped last July. What was going on with it in the weeks before?")
    decision = dialog.say("what did its power average that month, and in july the year before?")
    assert _windows(decision) >= {(at(2019, 7, 1), at(2019, 8, 1)), (at(2018, 7, 1), at(2018, 8, 1))}


MAY = date(2021, 5, 12)


def test_whose_after_a_condition_picks_across_the_site_on_that_component() -> None:
    assert read_request("If the crew can only get to one condenser this month, whose should it be?").shape == "which"
    decision = Dialog(reference_date=MAY).say("If the crew can only get to one condenser this month, whose should it be?")
    ranked = [t for t in decision.tasks if t.action == "prioritize"]
    assert len(ranked) == 1 and ranked[0].params == {"component": "condenser"}
    assert sorted(ranked[0].asset_ids) == ["Chiller 3", "Chiller 4", "Chiller 6", "Chiller 9"]


def test_a_component_ranking_counts_that_component_s_faults_only() -> None:
    from specialists.maintenance.prioritize import prioritise
    from tests.unit.answering.builders import art

    def diagnosis(asset: str, modes: list[tuple[str, float]]) -> object:
        return art("hypotheses", {"hypotheses": [{"failure_mode": m, "confidence": p} for m, p in modes]},
                   asset=asset, producer="failure", id=f"artifact_fr_{asset[-1]}")

    found = [diagnosis("Chiller 9", [("Evaporator Water side fouling", 0.94)]),
             diagnosis("Chiller 4", [("Condenser Water side fouling", 0.90)])]
    assert prioritise(found, ["Chiller 4", "Chiller 9"])[0].asset_id == "Chiller 9"  # type: ignore[arg-type]
    assert prioritise(found, ["Chiller 4", "Chiller 9"], "condenser")[0].asset_id == "Chiller 4"  # type: ignore[arg-type]


def test_a_summary_passed_on_is_a_verdict_on_the_findings() -> None:
    assert read_request("ok. what do I tell the room, in one sentence?").shape == "verdict"
    assert read_request("Condense that into two lines I can paste into the shift log.").shape == "verdict"
    dialog = Dialog(reference_date=MAY)
    dialog.say("how many alerts did chiller 3 log last summer")
    assert dialog.say("ok. what do I tell the room, in one sentence?").kind == "run"


def test_the_most_recent_job_is_looked_for_in_the_whole_history() -> None:
    decision = Dialog(reference_date=MAY).say("what was chiller 7's most recent corrective job?")
    assert [t.window for t in decision.tasks] == [None]


def test_rank_them_after_a_comparison_ranks_on_the_same_reading() -> None:
    dialog = Dialog(reference_date=MAY)
    first = dialog.say("Which chiller at MAIN had the worst kW/ton last month?")
    ranked = dialog.say("rank all four, best to worst")
    assert {t.action for t in ranked.tasks} == {"compare"}
    assert {s for t in ranked.tasks for s in t.sensors} == {s for t in first.tasks for s in t.sensors}


def test_orders_of_a_job_asked_with_any_are_a_yes_or_no_on_that_job() -> None:
    from graph.understanding.last_done import last_done_job

    vocab = vocabulary()
    assert read_request("any calib or sensor WOs on it this yr?").shape == "yes_no"
    assert last_done_job(Text.of("any calib or sensor WOs on it this yr?"), vocab) == frozenset({"calibrat"})
    assert last_done_job(Text.of("any corrective WOs on it in june?"), vocab) == frozenset()  # a count of repairs
    dialog = Dialog(reference_date=MAY)
    dialog.say("is ch6 chw supply sitting above setpoint lately? last 30 days")
    assert {t.action for t in dialog.say("any calib or sensor WOs on it this yr?").tasks} == {"wo_summary"}


def test_a_side_of_the_setpoint_after_a_condition_reads_the_supply_against_it() -> None:
    assert read_request("so while it was running, was it actually above setpoint?").shape == "yes_no"
    dialog = Dialog(reference_date=MAY)
    dialog.say("What did chiller 3's supply temp average June through August 2020?")
    decision = dialog.say("so while it was running, was it actually above setpoint?")
    assert {s.split(" ", 2)[2] for t in decision.tasks for s in t.sensors} >= {"Supply Temperature",
                                                                              "Setpoint Temperature"}


def test_a_claimed_trend_held_up_for_checking_reads_the_trend() -> None:
    message = "Chiller 4's kW/ton seems to have been climbing since January. Real, or am I imagining it?"
    assert read_request(message).shape == "yes_no"
    assert Dialog(reference_date=MAY).say(message).intent == "worsening"


def test_a_chiller_that_ran_a_few_days_is_judged_on_those_days() -> None:
    import numpy as np
    import pandas as pd

    from specialists.common.trend import trend_table

    index = pd.date_range("2021-01-01", periods=96 * 40, freq="15min")
    load = np.zeros(len(index))
    load[96 * 5:96 * 7] = 60.0  # two days running early on
    load[96 * 35:96 * 37] = 60.0  # and two days late
    efficiency = np.where(load > 0, np.r_[np.full(96 * 20, 0.42), np.full(96 * 20, 0.44)], 0.0)
    frame = pd.DataFrame({"Chiller % Loaded": load, "Chiller Efficiency": efficiency}, index=index)
    trend = next(t for t in trend_table(frame) if t.sensor == "Chiller Efficiency")
    assert (trend.first_level, trend.last_level) == (0.42, 0.44)  # not the idle zeros


def test_a_window_cut_from_a_wider_one_is_the_evidence_not_the_wider_one() -> None:
    from assetops.domain.turn import SpecialistResult
    from graph.nodes.respond import without_cut_sources
    from tests.unit.answering.builders import window

    summer = window("Chiller 6", "2021-06-01", "2021-09-01", {"Power Input": (294.0, "kW")}, id="wide")
    june = window("Chiller 6", "2021-06-01", "2021-07-01", {"Power Input": (263.8, "kW")}, id="cut")
    june.results["cut_from"] = "wide"
    cutting = SpecialistResult("data", "history", "ok", "June", artifact_ids=["cut"], reused_artifact_ids=["wide"])
    assert [a.id for a in without_cut_sources([june, summer], [cutting])] == ["cut"]
    reading_it = SpecialistResult("data", "history", "ok", "summer", reused_artifact_ids=["wide"])
    assert [a.id for a in without_cut_sources([june, summer], [cutting, reading_it])] == ["cut", "wide"]


def test_a_chiller_then_last_year_is_a_period_not_the_last_job() -> None:
    from graph.understanding.last_done import last_done_job

    assert last_done_job(Text.of("how many corrective jobs did we close on ch6 last year"), vocabulary()) == frozenset()


def test_since_the_15th_after_since_may_15_is_may_15() -> None:
    dialog = Dialog(reference_date=date(2019, 6, 18))
    dialog.say("CH6 condenser side has been running hot since May 15 and the kw/ton is up with it. whats going on?")
    decision = dialog.say("whats the CW flow been averaging since the 15th vs april?")
    assert (at(2019, 5, 15), at(2019, 6, 18)) in _windows(decision)
