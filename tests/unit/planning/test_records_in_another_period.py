"""Record counts asked again over another period: "the 12 months before that" is twelve months next to the period
discussed, "was May any better?" counts May and sets it against the month discussed, and "is that typical, or was
2019 different?" counts 2019; "anything actionable in there?" after an alert count asks whether work followed."""

from __future__ import annotations

from datetime import date

from graph.answering.compare_verdicts import comparison_verdict
from tests.unit.answering.builders import alerts
from tests.unit.planning.dialog import Dialog, at, steps, window_of


def test_the_12_months_before_that_is_twelve_months_next_to_the_period_discussed() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 1))
    dialog.say("corrective WOs on chiller 6 in the last 12 months?")
    decision = dialog.say("how does that stack up against the 12 months before that?")
    assert window_of(decision, "wo_summary") == (at(2019, 7, 1), at(2020, 7, 1))


def test_was_may_any_better_counts_may_and_holds_it_against_the_month_discussed() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 1))
    dialog.say("ch6 alarm count went thru the roof in june. how many did it throw and under which rules?")
    decision = dialog.say("was May any better?")
    assert steps(decision) == [("maintenance", "alert_rules")]
    assert window_of(decision, "alert_rules") == (at(2021, 5, 1), at(2021, 6, 1))
    june = alerts("Chiller 6", "CWC04006", {"RUL0014": 37, "RUL0012": 30}, start="2021-06-01", end="2021-07-01")
    may = alerts("Chiller 6", "CWC04006", {"RUL0014": 40, "RUL0012": 28}, start="2021-05-01", end="2021-06-01")
    verdict = comparison_verdict("was May any better?", [may], [june, may])
    assert verdict is not None and verdict.answer == "No"
    assert verdict.sentence.startswith("No, about the same (within 2%): Chiller 6 had 68 alerts in May 2021 against 67 in June 2021")


def test_is_that_typical_or_was_another_year_different_counts_that_year() -> None:
    dialog = Dialog(reference_date=date(2021, 1, 11))
    dialog.say("how many alarms did chiller 9 log last year")
    decision = dialog.say("is that typical for 9 or was 2019 different?")
    assert steps(decision) == [("maintenance", "alert_rules")]
    assert window_of(decision, "alert_rules") == (at(2019, 1, 1), at(2020, 1, 1))


def test_actionable_or_nuisance_after_an_alert_count_asks_whether_work_followed() -> None:
    dialog = Dialog(reference_date=date(2021, 1, 11))
    dialog.say("how many alarms did chiller 9 log last year")
    decision = dialog.say("anything actionable in there or is it mostly nuisance stuff?")
    assert {action for _, action in steps(decision)} <= {"alert_rules", "alert_to_failure"}
    assert ("maintenance", "alert_to_failure") in steps(decision)


def test_the_same_two_months_of_another_year_moves_the_messages_own_period() -> None:
    dialog = Dialog(reference_date=date(2020, 7, 1))
    first = dialog.say("Compare Chiller 6's kW/ton for May-June this year with the same two months of 2019.")
    windows = sorted({(t.window.start, t.window.end) for t in first.tasks if t.window is not None})
    assert windows == [(at(2019, 5, 1), at(2019, 7, 1)), (at(2020, 5, 1), at(2020, 7, 1))]
    again = dialog.say("power input, same two periods?")  # both periods, each on its own
    assert sorted({(t.window.start, t.window.end) for t in again.tasks if t.window is not None}) == windows


def test_same_two_periods_sets_the_two_figures_side_by_side() -> None:
    from graph.answering.stat_questions import comparison_sentence
    from tests.unit.answering.builders import window

    now = window("Chiller 6", "2020-05-01", "2020-07-01", {"Power Input": (297.7, "kW")})
    before = window("Chiller 6", "2019-05-01", "2019-07-01", {"Power Input": (265.7, "kW")})
    sentence = comparison_sentence("power input, same two periods?", [before, now], ["Power Input"])
    assert sentence is not None and "297.7 kW" in sentence and "265.7 kW" in sentence


def test_a_reading_averaged_after_an_analysis_asks_for_the_figure_and_its_period_follow_up_too() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 2))
    dialog.say("ch6 chw supply has been drifting up since the start of the year, is that the sensor or real")
    figure = dialog.say("whats the chw supply averaging over june, and what's the setpoint")
    assert steps(figure) == [("data", "history")]
    again = dialog.say("and back in oct before any of this started?")
    assert steps(again) == [("data", "history")]
    assert window_of(again, "history") == (at(2020, 10, 1), at(2020, 11, 1))


def test_the_week_before_in_the_same_message_is_next_to_the_messages_own_week() -> None:
    decision = Dialog(reference_date=date(2020, 6, 22)).say(
        "what changed on 6 this past week vs the week before? kw/t and cond return temp pls")
    windows = sorted({(t.window.start, t.window.end) for t in decision.tasks if t.window is not None})
    assert windows == [(at(2020, 6, 8), at(2020, 6, 15)), (at(2020, 6, 15), at(2020, 6, 22))]


def test_texted_follow_ups_after_a_comparison_are_read() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 1))
    dialog.say("ch4 eff lst month??")
    same_month = dialog.say("vs same mnth 2020")  # the month discussed, a year earlier (not all of 2020)
    assert (at(2020, 6, 1), at(2020, 7, 1)) in {(t.window.start, t.window.end) for t in same_month.tasks if t.window}
    assert dialog.say("worse y/n").intent == "compare"  # that comparison again, read as yes or no
    assert steps(dialog.say("y tho"))[-1] == ("failure", "diagnose")  # "y tho": why, though


def test_worse_y_n_reads_the_comparison_as_yes_or_no() -> None:
    from tests.unit.answering.builders import window

    now = window("Chiller 4", "2021-06-01", "2021-07-01", {"Chiller Efficiency": (0.49, "kW/ton")}, id="a")
    before = window("Chiller 4", "2020-06-01", "2020-07-01", {"Chiller Efficiency": (0.46, "kW/ton")}, id="b")
    verdict = comparison_verdict("worse y/n", [now, before], [now, before])
    assert verdict is not None and verdict.answer == "Yes" and "0.49 kW/ton" in verdict.sentence


def test_worse_y_n_is_of_the_chillers_own_two_periods_even_with_another_chiller_read_before() -> None:
    from tests.unit.answering.builders import window

    nine = window("Chiller 9", "2021-06-24", "2021-07-01", {"Chiller Efficiency": (0.44, "kW/ton")}, id="n")
    now = window("Chiller 4", "2021-06-01", "2021-07-01", {"Chiller Efficiency": (0.49, "kW/ton")}, id="a")
    before = window("Chiller 4", "2020-06-01", "2020-07-01", {"Chiller Efficiency": (0.46, "kW/ton")}, id="b")
    verdict = comparison_verdict("worse y/n", [now], [nine, now, before])
    assert verdict is not None and verdict.answer == "Yes"
    assert "June 2020" in verdict.sentence and "Chiller 9" not in verdict.sentence
    dialog = Dialog(reference_date=date(2021, 7, 1))
    assert window_of(dialog.say("ch4 eff lst month??"), "history") == (at(2021, 6, 1), at(2021, 7, 1))
