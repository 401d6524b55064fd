"""Kinds of request the planner must read from how they are put, not from listed sentences: an
imperative that names a pick, a preview of a record, a cause asked with "what", "the other three",
positions in the dialog's order, a period given as context, "those two quarters", a follow-up on a
chiller without telemetry."""

from __future__ import annotations

from datetime import date

from tests.unit.planning.dialog import Dialog, at, steps, window_of


def test_an_imperative_write_that_names_a_pick_is_a_command() -> None:
    dialog = Dialog()
    dialog.say("Diagnose chiller 6 over the last month")
    decision = dialog.say("Raise a work order for the worst one.")
    assert ("maintenance", "draft_wo") in steps(decision)


def test_what_the_work_order_would_say_is_a_preview_not_a_write() -> None:
    dialog = Dialog()
    dialog.say("Diagnose chiller 6 over the last month")
    decision = dialog.say("Don't file anything yet - just tell me what the work order would say.")
    assert ("maintenance", "draft_wo") not in steps(decision)
    assert decision.intent == "recommend_wo" and decision.focus.pending_offer == "draft_wo"


def test_what_is_pushing_it_up_asks_for_the_cause() -> None:
    dialog = Dialog()
    dialog.say("chiller 4 power last month")
    decision = dialog.say("what's pushing its power up?")
    assert ("failure", "diagnose") in steps(decision)


def test_back_to_the_first_one_is_the_chiller_discussed_first() -> None:
    dialog = Dialog(reference_date=date(2020, 7, 1))
    dialog.say("Pull up Chiller 6's power draw for May and June.")
    dialog.say("Now chiller 3, same months")
    decision = dialog.say("OK, back to the first one - what's its load doing?")
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 6"}


def test_the_same_request_for_a_chiller_without_telemetry_shows_what_it_has() -> None:
    dialog = Dialog(reference_date=date(2020, 7, 1))
    dialog.say("Pull up Chiller 6's power draw for May and June.")
    decision = dialog.say("Do the same for Chiller 7.")
    assert decision.kind == "run"
    assert set(steps(decision)) == {("maintenance", "wo_summary"), ("maintenance", "alert_rules")}
    assert any("no telemetry" in note for note in decision.assumptions)
    # and the chiller discussed before it is still known
    assert decision.focus.discussed[:2] == ["Chiller 7", "Chiller 6"]


def test_a_quarter_in_a_year_given_as_context_and_those_two_quarters() -> None:
    dialog = Dialog(reference_date=date(2022, 1, 10))
    first = dialog.say("We're closing out 2020's books. How many work orders did Chiller 4 have in Q2?")
    assert window_of(first, "wo_summary") == (at(2020, 4, 1), at(2020, 7, 1))
    second = dialog.say("And the same quarter a year later?")
    assert window_of(second, "wo_summary") == (at(2021, 4, 1), at(2021, 7, 1))
    third = dialog.say("How did its kW/ton compare across those two quarters?")
    windows = {(t.window.start, t.window.end) for t in third.tasks if t.action == "history" and t.window}
    assert windows == {(at(2020, 4, 1), at(2020, 7, 1)), (at(2021, 4, 1), at(2021, 7, 1))}


def test_that_one_after_a_pick_is_the_asset_the_answer_picked() -> None:
    from dataclasses import replace

    from graph.nodes.respond import picked_asset
    answer = "Chiller 4. Chiller 4 runs least efficiently: 0.49 kW/ton (Chiller 3 0.43; Chiller 13 0.41).\nmore"
    assert picked_asset(answer, ["Chiller 3", "Chiller 4", "Chiller 13"]) == "Chiller 4"
    assert picked_asset("Chiller 13 leads, then Chiller 1.", ["Chiller 1", "Chiller 13"]) == "Chiller 13"
    dialog = Dialog()
    dialog.say("Our kW per ton across the plant has looked ugly all month. Which machine is dragging it down?")
    dialog.focus = replace(dialog.focus, picked="Chiller 4")
    decision = dialog.say("Why that one?")
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 4"}


def test_a_recommendation_for_next_month_is_advice_on_a_diagnosis_not_a_forecast() -> None:
    dialog = Dialog(reference_date=date(2021, 6, 10))
    decision = dialog.say("Should we plan a condenser tube inspection on Chiller 4 for next month?")
    assert decision.intent == "recommend_wo"
    assert ("failure", "diagnose") in steps(decision) and ("timeseries", "forecast") not in steps(decision)


def test_on_site_is_where_the_work_happens_not_the_whole_site() -> None:
    from graph.understanding.request import read_request
    assert not read_request("How should I track down the cause on site?").fleet
    assert not read_request("send a tech on-site tomorrow").fleet
    assert read_request("anything odd at the site recently?").fleet


def test_worse_every_year_after_work_orders_is_their_trend_over_all_years() -> None:
    dialog = Dialog(reference_date=date(2020, 12, 15))
    dialog.say("Is Chiller 6 breaking down more than Chiller 4 this year?")
    decision = dialog.say("Has it gotten worse every year?")
    assert {s for s in steps(decision)} == {("maintenance", "wo_summary")}
    assert all(t.window is None for t in decision.tasks)
    assert decision.focus.window is not None and decision.focus.window.label == "this year"


def test_the_job_the_user_describes_goes_into_the_draft() -> None:
    from graph.understanding.request import described_work
    assert described_work("OK. Raise a work order for a full condenser inspection on it.") == "full condenser inspection"
    assert described_work("ok raise a wo for it pls") is None
    assert described_work("Raise a work order for the worst one.") is None
    dialog = Dialog()
    dialog.say("chiller 9 power last month")
    decision = dialog.say("Raise a work order to inspect the compressor and its oil system.")
    draft = next(t for t in decision.tasks if t.action == "draft_wo")
    assert draft.params["work"] == "inspect the compressor and its oil system"


def test_a_month_takes_the_year_of_the_quarter_given_as_context_and_two_months_are_compared() -> None:
    dialog = Dialog(reference_date=date(2020, 10, 5))
    first = dialog.say("Building the Q3 2018 quarter-end pack: Chiller 4's average load and kW/ton for August, please.")
    assert window_of(first, "history") == (at(2018, 8, 1), at(2018, 9, 1))
    dialog.say("And last month for the same unit?")
    third = dialog.say("Which of the two months looks healthier?")
    compare = next(t for t in third.tasks if t.action == "compare")
    assert {(w["start"][:10], w["end"][:10]) for w in compare.params["windows"]} == {
        ("2018-08-01", "2018-09-01"), ("2020-09-01", "2020-10-01")}


def test_the_worst_one_is_the_one_an_earlier_answer_picked() -> None:
    from dataclasses import replace

    from graph.nodes.respond import picked_asset
    assert picked_asset("Yes, Chillers 4, 6 and 9 show abnormal behaviour.", ["Chiller 3", "Chiller 4",
                                                                               "Chiller 6"]) == "Chiller 4"
    dialog = Dialog()
    dialog.say("Our kW per ton across the plant has looked ugly all month. Which machine is dragging it down?")
    dialog.focus = replace(dialog.focus, picked="Chiller 4")
    dialog.say("Are the other three heading the same way?")
    decision = dialog.say("Raise a work order for the worst one.")
    drafts = [t for t in decision.tasks if t.action == "draft_wo"]
    assert [t.asset_ids for t in drafts] == [["Chiller 4"]]


def test_leaving_out_one_kind_of_work_order_asks_for_the_other() -> None:
    dialog = Dialog()
    decision = dialog.say("What were Chiller 2's jobs about this year? You may leave out the preventive ones.")
    assert decision.tasks[0].params["kind"] == "corrective"
    assert Dialog().say("chiller 2 work orders excluding corrective ones").tasks[0].params["kind"] == "preventive"
    assert Dialog().say("chiller 2 preventive work orders").tasks[0].params["kind"] == "preventive"


def test_that_climb_in_the_last_week_of_the_month_what_was_it() -> None:
    dialog = Dialog(reference_date=date(2019, 9, 5))
    dialog.say("How did Chiller 6 do in August 2019?")
    decision = dialog.say("That climb in the last week of the month - what was it?")
    assert ("failure", "diagnose") in steps(decision)
    assert window_of(decision, "diagnose") == (at(2019, 8, 25), at(2019, 9, 1))


def test_work_orders_after_a_named_period_stay_in_it_and_after_a_default_one_cover_all_history() -> None:
    dialog = Dialog(reference_date=date(2017, 6, 30))
    dialog.say("Diagnose Chiller 9 for last year")
    named = dialog.say("Were there repair jobs for it?")
    assert window_of(named, "wo_summary") == (at(2016, 1, 1), at(2017, 1, 1))
    fresh = Dialog(reference_date=date(2017, 6, 30))
    fresh.say("Diagnose Chiller 9")
    whole = fresh.say("Were there repair jobs for it?")
    assert next(t for t in whole.tasks if t.action == "wo_summary").window is None


def test_should_we_shut_it_down_is_advice_on_the_evidence() -> None:
    dialog = Dialog()
    dialog.say("chiller 6 last month")
    decision = dialog.say("should we shut it down?")
    assert decision.intent == "recommend_wo" and ("failure", "diagnose") in steps(decision)
    assert not any(t.action == "draft_wo" for t in decision.tasks)


def test_an_elliptical_follow_up_keeps_the_kind_of_work_orders() -> None:
    dialog = Dialog(reference_date=date(2021, 6, 20), results={"wo_summary": {"kind": "corrective"}})
    dialog.say("how many corrective wos did ch6 have in 2020")
    decision = dialog.say("vs ch4")
    assert {t.params["kind"] for t in decision.tasks if t.action == "wo_summary"} == {"corrective"}


def test_texting_abbreviations_for_a_forecast() -> None:
    decision = Dialog(reference_date=date(2021, 6, 20)).say("ch 9 fcst nxt wk kw")
    assert ("timeseries", "forecast") in steps(decision)


def test_the_question_sets_the_period_not_the_lead_in() -> None:
    decision = Dialog(reference_date=date(2021, 3, 10)).say(
        "For the January ops review - did chiller 4 have any alarms in December?")
    assert decision.focus.window is not None
    assert (decision.focus.window.start, decision.focus.window.end) == (at(2020, 12, 1), at(2021, 1, 1))


def test_is_it_ok_is_a_health_check() -> None:
    decision = Dialog(reference_date=date(2021, 3, 10)).say("Is chiller 3 ok?")
    assert ("timeseries", "anomaly_detection") in steps(decision)


def test_either_of_them_is_the_two_discussed_last() -> None:
    dialog = Dialog(reference_date=date(2021, 1, 10))
    dialog.say("How many corrective work orders did CWC04013 close last year?")
    dialog.say("And CWC04701 over the same period?")
    decision = dialog.say("Any alerts on either of them?")
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 1", "Chiller 13"}


def test_more_frequent_this_month_than_last_fetches_both_months() -> None:
    dialog = Dialog(reference_date=date(2021, 6, 25))
    dialog.say("chiller 9 alerts this month")
    decision = dialog.say("Are its Evaporator Approach High alerts more frequent this month than last?")
    windows = sorted((t.window.start, t.window.end) for t in decision.tasks if t.action == "alert_rules" and t.window)
    assert windows == [(at(2021, 5, 1), at(2021, 6, 1)), (at(2021, 6, 1), at(2021, 6, 26))]


def test_the_ranking_an_answer_gives_is_its_order_of_naming_by_name_or_equipment_id() -> None:
    from graph.nodes.respond import ranked_in_answer
    from tests.support.catalog import default_catalog

    answer = ("CWC04006 has the most alerts: 60 alerts.\n| CWC04006 | 60 |\n| CWC04009 | 24 |\n| CWC04703 | 0 |\n"
              "Scope: Chiller 3, Chiller 4, Chiller 6, Chiller 9.")
    assets = ["Chiller 3", "Chiller 4", "Chiller 6", "Chiller 9"]
    assert ranked_in_answer(answer, assets, default_catalog()) == ["Chiller 6", "Chiller 9", "Chiller 3", "Chiller 4"]


def test_why_about_a_chiller_asks_for_its_cause_but_why_not_asks_for_advice() -> None:
    from graph.understanding.request import read_request

    dialog = Dialog()
    dialog.say("look at chiller 9 over the last month")
    assert ("failure", "diagnose") in steps(dialog.say("Why that one? What is going on with it?"))
    assert read_request("why is its approach so high?").asks_cause
    assert not read_request("why not wait for the fall?").asks_cause


def test_which_x_picks_among_the_listing_that_x_names() -> None:
    dialog = Dialog()
    dialog.say("chiller 6 alarms last month?")
    assert steps(dialog.say("whcih rule is the worst offender")) == [("maintenance", "alert_rules")]
    dialog.say("chiller 6 corrective work orders in 2020")
    assert steps(dialog.say("which of those jobs was the biggest?")) == [("maintenance", "wo_summary")]


def test_naming_a_reading_after_a_ranking_asks_for_that_reading() -> None:
    dialog = Dialog()
    dialog.say("which of chiller 4 and chiller 6 needs attention first?")
    decision = dialog.say("How high did its kW/ton get in May?")
    assert ("data", "history") in steps(decision) and ("maintenance", "prioritize") not in steps(decision)


def test_whether_a_work_order_exists_already_looks_back_before_the_window_that_found_the_problem() -> None:
    dialog = Dialog(reference_date=date(2021, 6, 15))
    dialog.say("anything odd on chiller 4 in the last 3 weeks?")
    already = dialog.say("Did anybody already log a work order for that?")
    start, end = window_of(already, "wo_summary")
    assert start == at(2021, 5, 25) - (at(2021, 6, 1) - at(2020, 12, 3)) and end == at(2021, 6, 16)


def test_after_asking_about_the_others_it_is_still_the_chiller_under_discussion() -> None:
    dialog = Dialog()
    dialog.say("diagnose chiller 3 over the last month")
    dialog.say("Are the other three showing the same thing?")
    decision = dialog.say("is there already a work order covering it?")
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 3"}


def test_real_or_the_sensor_is_a_sensor_validity_question_even_misspelt() -> None:
    dialog = Dialog(reference_date=date(2021, 6, 2))
    dialog.say("chiller 6 alarms last month?")
    decision = dialog.say("how far off setpoint was it running in may, and is the water actualy that warm or is "
                          "the sensor off?")
    assert ("failure", "sensor_validity") in steps(decision)
    assert ("timeseries", "evaluate_forecast") not in steps(decision)


def test_a_finding_compared_with_another_chiller_stays_the_subject_with_its_own_period() -> None:
    dialog = Dialog(reference_date=date(2017, 9, 5))
    dialog.say("Chiller 3 ran worse than usual this summer. Diagnose it.")
    dialog.say("Is that the same thing Chiller 9 had last year?")
    decision = dialog.say("Were there repair jobs for it?")
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 3"}
    assert window_of(decision, "wo_summary") == (at(2017, 6, 1), at(2017, 9, 1))


def test_did_the_job_fix_it_reads_before_and_after_the_day_a_listing_showed_that_job() -> None:
    cleaning = {"recent": [{"wo_id": "WO144366", "date": "2017-08-29", "description": "Evaporator Tube Cleaning"}]}
    dialog = Dialog(reference_date=date(2017, 9, 5), results={"wo_summary": cleaning})
    dialog.say("what work orders did chiller 3 get this summer?")
    decision = dialog.say("Did the cleaning fix it?")
    windows = [t.window for t in decision.tasks if t.action == "history"]
    assert [(w.start, w.end) for w in windows if w is not None] == [(at(2017, 7, 30), at(2017, 8, 29)),
                                                                    (at(2017, 8, 30), at(2017, 9, 6))]


def test_when_was_it_last_cleaned_reads_the_whole_work_order_history() -> None:
    dialog = Dialog()
    dialog.say("how did chiller 9 run last month?")
    decision = dialog.say("when was it last cleaned?")
    assert steps(decision) == [("maintenance", "wo_summary")]
    task = decision.tasks[0]
    assert task.asset_ids == ["Chiller 9"] and task.window is None


def test_a_pick_named_by_equipment_id_is_picked_and_the_runner_up_follows_the_ranking() -> None:
    from dataclasses import replace

    from graph.nodes.respond import picked_asset
    from tests.support.catalog import default_catalog

    four = ["Chiller 3", "Chiller 4", "Chiller 6", "Chiller 9"]
    answer = "CWC04006. CWC04006 has the most alerts: 67 alerts; 3 other equipment id(s) below it."
    assert picked_asset(answer, four, default_catalog()) == "Chiller 6"
    dialog = Dialog()
    dialog.say("The alarm list was out of control all through June. Which chiller is generating the noise?")
    dialog.focus = replace(dialog.focus, picked="Chiller 6", ranked=["Chiller 6", "Chiller 9", "Chiller 3", "Chiller 4"])
    assert {a for t in dialog.say("What rules are those alarms on it?").tasks for a in t.asset_ids} == {"Chiller 6"}
    runner_up = dialog.say("And the runner-up, what's it complaining about?")
    assert {a for t in runner_up.tasks for a in t.asset_ids} == {"Chiller 9"}


def test_an_open_anything_about_the_site_mid_dialog_looks_across_the_site() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 2))
    dialog.say("is the supply temp sensor on chiller 6 drifting?")
    triage = dialog.say("anything else on site from june worth knowing?")
    assert ("failure", "prioritize") in steps(triage) or ("maintenance", "prioritize") in steps(triage)
    assert {a for t in triage.tasks for a in t.asset_ids} >= {"Chiller 3", "Chiller 4", "Chiller 6", "Chiller 9"}


def test_which_of_those_two_deserves_more_pms_is_picked_on_their_breakdowns() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 6))
    dialog.say("corrective work orders on chiller 12 since jan 2019")
    dialog.say("and chiller 13 over the same stretch")
    pick = dialog.say("which of those two should get more PMs?")
    summaries = [t for t in pick.tasks if t.action == "wo_summary"]
    assert {t.asset_ids[0] for t in summaries} == {"Chiller 12", "Chiller 13"}
    assert {t.params.get("kind") for t in summaries} == {"corrective"}


def test_real_problem_or_noise_asks_for_the_cause_not_the_listing_again() -> None:
    dialog = Dialog(reference_date=date(2021, 6, 28))
    dialog.say("alarms everywhere this month, where do i even begin??")
    assert ("failure", "diagnose") in steps(dialog.say("the ones on 9, genuine fault or just nuisance?"))


def test_which_chiller_had_more_pms_counts_the_pms_themselves() -> None:
    pick = Dialog(reference_date=date(2021, 8, 3)).say("which chiller had more PMs last year?")
    assert {t.params.get("kind") for t in pick.tasks if t.action == "wo_summary"} == {"preventive"}
