"""Kinds of request met this stop: a day written in words or before its month ("since the first of May", "since the
3rd of June"), a day of the month put roughly ("around the 23rd"), a season beside the one discussed ("the summer before
that"), and a preventive order commanded for a time ahead."""

from __future__ import annotations

from datetime import date

from tests.unit.planning.dialog import Dialog, step_set, window_of

SPRING = date(2021, 7, 1)


def _days(window: tuple[object, object]) -> tuple[str, str]:
    start, end = window
    return start.date().isoformat(), end.date().isoformat()  # type: ignore[attr-defined]


def test_a_day_written_in_words_before_its_month_opens_the_span_since() -> None:
    decision = Dialog(reference_date=SPRING).say("what's chiller 6's condenser flow been like since the fourth of April?")
    assert _days(window_of(decision, "history")) == ("2021-04-04", "2021-07-01")


def test_a_numbered_day_before_its_month_is_that_month_not_the_current_one() -> None:
    decision = Dialog(reference_date=SPRING).say("chiller 4 power since the 12th of march?")
    assert _days(window_of(decision, "history")) == ("2021-03-12", "2021-07-01")


def test_a_month_then_its_day_in_words_is_that_day() -> None:
    decision = Dialog(reference_date=SPRING).say("show chiller 9 supply temp from June twenty-second")
    assert _days(window_of(decision, "history")) == ("2021-06-22", "2021-07-01")


def test_first_next_to_no_month_stays_a_word() -> None:
    decision = Dialog(reference_date=SPRING).say("first of all, how many alarms did chiller 9 raise in february?")
    assert _days(window_of(decision, "alert_rules")) == ("2021-02-01", "2021-03-01")


def test_a_day_of_the_month_put_roughly_is_that_day_of_the_latest_such_month() -> None:
    decision = Dialog(reference_date=date(2020, 9, 4)).say("chiller 6 stopped about the 28th, what does the data show")
    assert _days(window_of(decision, "history")) == ("2020-08-28", "2020-08-29")


def test_a_season_before_the_one_discussed_is_that_season_a_year_earlier() -> None:
    dialog = Dialog(reference_date=date(2019, 3, 1))
    dialog.say("average kW/ton of chiller 9 last summer?")
    decision = dialog.say("and the summer before that?")
    assert _days(window_of(decision, "history")) == ("2017-06-01", "2017-09-01")


def test_a_season_after_the_one_discussed_is_the_next_such_season() -> None:
    dialog = Dialog(reference_date=date(2020, 3, 1))
    dialog.say("chiller 6 supply temperature in winter 2018?")
    decision = dialog.say("what about the spring after that")
    assert _days(window_of(decision, "history")) == ("2019-03-01", "2019-06-01")


def test_a_preventive_order_commanded_for_a_season_ahead_is_drafted_not_listed() -> None:
    dialog = Dialog(reference_date=date(2021, 2, 1))
    dialog.say("how many corrective work orders has chiller 4 had this year?")
    decision = dialog.say("Raise a preventive work order for a tube brushing before the coming cooling season.")
    assert decision.kind == "run"
    assert step_set(decision) == {("maintenance", "draft_wo")}


def test_a_yes_or_no_tag_after_the_question_mark_makes_the_question_a_yes_or_no() -> None:
    decision = Dialog(reference_date=date(2019, 9, 15)).say("ch4 condenser flow dropped in july? y/n")
    assert decision.shape == "yes_no"
    assert _days(window_of(decision, "history")) == ("2019-07-01", "2019-08-01")


def test_an_order_named_by_its_job_is_drafted_for_that_job() -> None:
    dialog = Dialog(reference_date=date(2019, 9, 15))
    dialog.say("is chiller 9 due an eddy current test?")
    decision = dialog.say("ok draft the tube cleaning wo for it then")
    draft = next(t for t in decision.tasks if t.action == "draft_wo")
    assert draft.params["work"] == "tube cleaning"


def test_the_weeks_before_a_trip_dated_in_the_sentence_before_lead_up_to_it() -> None:
    decision = Dialog(reference_date=date(2020, 9, 15)).say("ch6 shut down aug 20. how was it running the 2 weeks before")
    assert _days(window_of(decision, "history")) == ("2020-08-06", "2020-08-20")


def test_months_of_that_year_are_those_months_in_the_year_discussed() -> None:
    dialog = Dialog(reference_date=date(2020, 10, 1))
    dialog.say("what was chiller 6's kW/ton in May 2018?")
    decision = dialog.say("how many corrective work orders did it get in June and July of that year?")
    assert _days(window_of(decision, "wo_summary")) == ("2018-06-01", "2018-08-01")


def test_that_month_after_a_month_named_in_the_same_message_is_that_month() -> None:
    dialog = Dialog(reference_date=date(2020, 10, 1))
    dialog.say("how many work orders did chiller 9 have in 2018?")
    decision = dialog.say("ok, march 2019 then. did chiller 9 run at all that month?")
    assert _days(window_of(decision, "history")) == ("2019-03-01", "2019-04-01")
    assert "compare" not in {t.action for t in decision.tasks}


def test_how_many_on_the_one_picked_counts_its_records_again() -> None:
    dialog = Dialog(reference_date=date(2019, 9, 15))
    dialog.say("which chiller had the most alarms in q1")
    decision = dialog.say("how many did that one have")
    assert step_set(decision) == {("maintenance", "alert_rules")}


def test_two_recorded_periods_set_side_by_side_after_a_forecast_are_compared_not_forecast() -> None:
    dialog = Dialog(reference_date=date(2020, 10, 1))
    dialog.say("what was chiller 6's power input in august?")
    dialog.say("forecast its power for the next week")
    decision = dialog.say("did it go the same way in june and july of this year against the same months of last year?")
    assert ("data", "compare") in step_set(decision)
    assert ("timeseries", "forecast") not in step_set(decision)
    assert {_days((t.window.start, t.window.end)) for t in decision.tasks if t.action == "history"} == {
        ("2020-06-01", "2020-08-01"), ("2019-06-01", "2019-08-01")}


def test_a_month_naming_the_review_is_the_occasion_and_the_symptoms_period_is_read() -> None:
    decision = Dialog(reference_date=date(2020, 10, 1)).say(
        "I'm writing up the October meeting notes, and chiller 9's power looked strange in early summer, mostly in "
        "June. Which of the monitored chillers had trouble with power input?")
    assert {_days((t.window.start, t.window.end)) for t in decision.tasks if t.action == "history"} == {
        ("2020-06-01", "2020-07-01")}


def test_a_month_naming_the_report_alone_is_still_the_period() -> None:
    decision = Dialog(reference_date=date(2020, 10, 1)).say("for the August report, what was chiller 6's kW/ton?")
    assert _days(window_of(decision, "history")) == ("2020-08-01", "2020-09-01")


def test_a_participle_setting_the_angle_leaves_the_yes_or_no_question_after_it() -> None:
    decision = Dialog(reference_date=date(2020, 10, 1)).say(
        "looking at chiller 3 in september now, is its condenser flow back to where it was?")
    assert decision.shape == "yes_no"


def test_which_of_them_fits_the_case_best_diagnoses_among_the_failure_modes() -> None:
    dialog = Dialog(reference_date=date(2020, 10, 1))
    dialog.say("chiller 3 condenser water flow in august vs july?")
    decision = dialog.say("what failure modes cause low flow, and which one fits our data best?")
    assert ("failure", "diagnose") in step_set(decision)


def test_alerts_that_end_up_as_orders_ask_for_the_alert_to_order_link() -> None:
    dialog = Dialog(reference_date=date(2019, 9, 15))
    dialog.say("alarms on chiller 9 since march?")
    decision = dialog.say("did any of those alarms end up in a work order")
    assert ("maintenance", "alert_to_failure") in step_set(decision)


def test_a_range_of_bare_months_set_against_a_year_written_after_it_is_the_latest_range() -> None:
    decision = Dialog(reference_date=date(2021, 7, 1)).say("ch4 kw per ton apr thru jun vs same months 2020, creeping up?")
    assert _days(window_of(decision, "history")) == ("2021-04-01", "2021-07-01")


def test_a_range_of_bare_months_takes_the_year_the_scene_names() -> None:
    decision = Dialog(reference_date=date(2021, 8, 16)).say(
        "Think back to summer 2018 on chiller 6. What did its supply temp average from July to September?")
    assert _days(window_of(decision, "history")) == ("2018-07-01", "2018-10-01")


def test_the_season_before_a_period_inside_that_season_is_the_one_a_year_earlier() -> None:
    dialog = Dialog(reference_date=date(2020, 10, 1))
    dialog.say("how did chiller 6 do since the first of August?")
    decision = dialog.say("and the summer before that, kW/ton?")
    assert _days(window_of(decision, "history")) == ("2019-06-01", "2019-09-01")


def test_a_participle_before_an_opinion_asked_with_would_leaves_the_yes_or_no() -> None:
    decision = Dialog(reference_date=date(2020, 10, 1)).say(
        "going back to 2017, would you say chiller 6 is breaking down more often than it used to?")
    assert decision.shape == "yes_no"
