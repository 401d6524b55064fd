"""Kinds of request met this stop: a period set against another across a sentence break, a time ahead that only sets
the scene, "that month" after a shorter period, a conclusion or a change put up without its question mark, a level
checked against another period, power judged for the cooling it gives, and a restart at any point since a stop."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from graph.answering.asked_figures import sensor_ranking
from graph.answering.compare_verdicts import comparison_verdict
from graph.answering.trend_verdicts import running_again_verdict, silent_reading_verdict
from graph.understanding.request import read_request, request_sentences
from tests.unit.answering.builders import art
from tests.unit.planning.dialog import Dialog, step_set

SUMMER = date(2021, 7, 1)


def _months(decision: object, action: str) -> set[tuple[int, int]]:
    return {(t.window.start.year, t.window.start.month) for t in decision.tasks  # type: ignore[attr-defined]
            if t.action == action and t.window is not None}


def test_a_period_set_against_the_one_of_the_sentence_before_is_compared_not_set_aside() -> None:
    decision = Dialog(reference_date=SUMMER).say("ch9 kw seemed off to me in march. mean while loaded against march "
                                                 "of last year?")
    assert ("data", "compare") in step_set(decision)
    assert _months(decision, "history") == {(2021, 3), (2020, 3)}


def test_a_level_put_up_with_a_command_to_compare_reads_both_periods() -> None:
    decision = Dialog(reference_date=SUMMER).say("ch9 cond flow july 2019 high? compare w july 2018")
    assert ("data", "compare") in step_set(decision)
    assert _months(decision, "history") == {(2019, 7), (2018, 7)}


def test_a_time_ahead_in_an_earlier_sentence_sets_the_scene_for_the_period_asked() -> None:
    decision = Dialog(reference_date=SUMMER).say(
        "Facilities expects a cold snap in the first week of August. I can't point at one machine, so please go "
        "through the whole plant over the past six weeks and tell me which unit bothers you.")
    assert decision.kind == "run"
    starts = {t.window.start.date() for t in decision.tasks if t.window is not None}
    assert starts and all(day < SUMMER for day in starts)
    assert len({a for t in decision.tasks for a in t.asset_ids}) > 1


def test_a_request_made_inside_a_statement_sentence_is_not_context() -> None:
    message = "The board wants numbers. I don't know which one it is, so please check every chiller for last month."
    assert "please check every chiller" in request_sentences(message)


@pytest.mark.parametrize(("before", "asked"), [
    # "that month" after a week: the calendar month that holds it
    ("what was chiller 4 doing the week of march 8 2021?", "any alerts that month"),
    # "the same two months" after one span of two months: that span
    ("go over march and april for chiller 4, its power while running", "how many alerts did it raise in the same two months?"),
])
def test_a_unit_pointed_back_at_is_the_calendar_span_that_holds_the_period_discussed(before: str, asked: str) -> None:
    dialog = Dialog(reference_date=SUMMER)
    dialog.say(before)
    decision = dialog.say(asked)
    assert _months(decision, "alert_rules") == {(2021, 3)}
    window = next(t.window for t in decision.tasks if t.window is not None)
    assert window is not None and window.end.month == (4 if "that month" in asked else 5)


@pytest.mark.parametrize("message", ["so the return was climbing", "ok so it was mostly idle then",
                                     "still dropping", "getting worse"])
def test_a_conclusion_or_a_change_put_up_without_a_question_mark_is_a_yes_no(message: str) -> None:
    assert read_request(message).shape == "yes_no"


@pytest.mark.parametrize("message", ["so draft it", "so what was it", "keep going"])
def test_a_command_or_a_wh_question_after_so_is_not_made_a_yes_no(message: str) -> None:
    assert read_request(message).shape != "yes_no"


def test_heading_the_wrong_way_after_yearly_counts_is_the_trend_of_those_counts() -> None:
    dialog = Dialog(reference_date=SUMMER)
    dialog.say("corrective work orders on chiller 9 in 2019 and 2020?")
    decision = dialog.say("is it heading in the wrong direction")
    assert step_set(decision) == {("maintenance", "wo_summary")}


def _window(asset: str, efficiency: float, power: float) -> object:
    return art("telemetry_window", {"stats": {
        f"{asset} Chiller Efficiency": {"running_mean": efficiency, "mean": efficiency, "unit": "kW/ton", "count": 9},
        f"{asset} Power Input": {"running_mean": power, "mean": power, "unit": "kW", "count": 9}}},
        asset=asset, producer="data", id=f"artifact_{asset[-1]}")


def test_more_power_than_it_should_ranks_on_power_for_the_cooling_given_not_the_biggest_draw() -> None:
    windows = [_window("Chiller 6", 0.41, 264.0), _window("Chiller 4", 0.49, 191.0)]
    beyond = sensor_ranking("one of them is using more kw than it should, which", windows)  # type: ignore[arg-type]
    plain = sensor_ranking("which one has the highest power", windows)  # type: ignore[arg-type]
    assert beyond is not None and beyond.first == "Chiller 4" and "for the cooling it gives" in beyond.headline
    assert plain is not None and plain.first == "Chiller 6"


def test_a_level_checked_against_the_other_period_read_this_turn_is_a_yes_or_no() -> None:
    def reading(year: int, value: float) -> object:
        return art("telemetry_window", {"stats": {"Chiller 4 Liquid Refrigerant Evaporator Temperature": {
            "running_mean": value, "mean": value, "unit": "degF", "count": 9}}},
            asset="Chiller 4", producer="data", id=f"artifact_{year}",
            start=datetime(year, 8, 1, tzinfo=UTC), end=datetime(year, 9, 1, tzinfo=UTC))

    turn = [reading(2019, 40.2), reading(2018, 42.0)]
    verdict = comparison_verdict("ch4 evap refrig temp aug 2019 low? vs aug 2018", turn, [])  # type: ignore[arg-type]
    assert verdict is not None and verdict.answer == "Yes"


def test_came_back_on_at_any_point_since_the_stop_is_yes_even_when_it_is_off_again_now() -> None:
    window = art("telemetry_window", {"running_share": 0.4, "last_running": "2018-08-19T23:45:00",
                                      "last_sample": "2018-08-20T23:45:00"}, asset="Chiller 3", producer="data")
    ever = running_again_verdict([window], "did it restart at all after the trip?")  # type: ignore[list-item]
    now = running_again_verdict([window], "is it back up now?")  # type: ignore[list-item]
    assert ever is not None and ever.answer == "Yes" and "off again now" in ever.sentence
    assert now is not None and now.answer == "No"


def test_a_sensor_still_out_is_asked_as_a_silence() -> None:
    window = art("telemetry_window", {"stats": {"Chiller 3 Condenser Water Flow": {"mean": 1.0, "count": 0}},
                                      "sensors_without_data": ["Chiller 3 Condenser Water Flow"]},
                 asset="Chiller 3", producer="data")
    verdict = silent_reading_verdict("is the cond water flow sensor still out?", [window],  # type: ignore[list-item]
                                     ["Condenser Water Flow"])
    assert verdict is not None and verdict.answer == "Yes"
    assert silent_reading_verdict("is the cond water flow out of range?", [window],  # type: ignore[list-item]
                                  ["Condenser Water Flow"]) is None


@pytest.mark.parametrize("message", ["is the return really higher than in may, or am I overthinking it?",
                                     "has it got worse since the spring, or is it just me?"])
def test_an_or_that_doubts_the_asker_leaves_a_yes_no(message: str) -> None:
    assert read_request(message).shape == "yes_no"


@pytest.mark.parametrize("message", ["is it the flow or the temperature sensor?",
                                     "was it really running harder this june, or are we looking at a bad meter?"])
def test_an_or_between_two_things_is_still_a_pick(message: str) -> None:
    assert read_request(message).shape == "which"


def test_a_verdict_asked_over_two_options_stays_a_verdict() -> None:
    assert read_request("so what's the verdict, is the plant improving or slipping?").shape == "verdict"


@pytest.mark.parametrize("message", ["ok what's your verdict - did the tubes foul?",
                                     "so bottom line then, is the sensor bad?"])
def test_a_verdict_asked_as_a_yes_no_is_a_yes_no(message: str) -> None:
    assert read_request(message).shape == "yes_no"


def test_a_count_of_chillers_pointed_back_at_is_the_ones_discussed_last() -> None:
    dialog = Dialog(reference_date=SUMMER)
    dialog.say("corrective work orders on chiller 7 in 2019?")
    dialog.say("and on chiller 12 and chiller 1?")
    dialog.say("does chiller 7 have any sensors?")
    decision = dialog.say("over 2019 and 2020, which of these three units had the most repairs?")
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 7", "Chiller 12", "Chiller 1"}


def test_a_split_named_only_in_the_scene_does_not_split_the_count_asked() -> None:
    decision = Dialog(reference_date=SUMMER).say("Doing the monthly ops pack. How many corrective work orders did "
                                                 "Chiller 12 have in 2020?")
    assert len([t for t in decision.tasks if t.action == "wo_summary"]) == 1


def test_a_bare_month_shares_the_year_of_the_month_after_its_or() -> None:
    decision = Dialog(reference_date=SUMMER).say("I recall a rough patch that winter. Any corrective work on chiller 9 "
                                                 "in November or December 2019?")
    months = {(t.window.start.year, t.window.start.month) for t in decision.tasks if t.window is not None}
    assert decision.kind == "run" and months and months <= {(2019, 11), (2019, 12)}


def test_a_described_one_pointed_back_at_is_the_pick() -> None:
    from graph.understanding.model import find_references
    from graph.understanding.text import Text
    from graph.understanding.vocabulary import vocabulary

    assert "asset" in find_references(Text.of("and that noisy one, what rules fired?"), vocabulary())
    assert "asset" not in find_references(Text.of("and the same period last year?"), vocabulary())


def test_a_move_put_up_in_the_past_after_two_periods_compares_those_two() -> None:
    dialog = Dialog(reference_date=SUMMER)
    dialog.say("chiller 9 tonnage may 2020 vs april 2020")
    decision = dialog.say("so the tonnage was falling")
    assert ("data", "compare") in step_set(decision)


def test_mostly_off_is_answered_on_the_running_share() -> None:
    from graph.answering.stat_questions import ran_at_all_sentence

    def window(share: float) -> object:
        return art("telemetry_window", {"running_share": share, "stats": {"Chiller 3 Power Input": {"mean": 1.0}}},
                   asset="Chiller 3", producer="data",
                   start=datetime(2021, 1, 1, tzinfo=UTC), end=datetime(2021, 2, 1, tzinfo=UTC))

    idle = ran_at_all_sentence("so it was largely idle in january", [window(0.1)])  # type: ignore[list-item]
    busy = ran_at_all_sentence("did it barely run in january?", [window(0.7)])  # type: ignore[list-item]
    assert idle is not None and idle.startswith("Yes") and "mostly off" in idle
    assert busy is not None and busy.startswith("No")


def test_a_reading_compared_across_two_periods_says_which_way_and_how_far() -> None:
    def reading(month: int, value: float) -> object:
        return art("telemetry_window", {"stats": {"Chiller 3 Condenser Water Flow": {
            "running_mean": value, "mean": value, "unit": "gpm", "count": 9}}},
            asset="Chiller 3", producer="data", id=f"artifact_{month}",
            start=datetime(2020, month, 1, tzinfo=UTC), end=datetime(2020, month + 1, 1, tzinfo=UTC))

    verdict = comparison_verdict("so the flow was sliding?", [reading(8, 1500.0), reading(7, 2000.0)], [])  # type: ignore[list-item]
    assert verdict is not None and verdict.answer == "Yes" and "25% lower than" in verdict.sentence


@pytest.mark.parametrize("message", ["probable cause", "likely culprit"])
def test_the_cause_asked_in_two_words_is_a_diagnosis(message: str) -> None:
    dialog = Dialog(reference_date=SUMMER)
    dialog.say("chiller 9 evap approach may vs april")
    assert ("failure", "diagnose") in step_set(dialog.say(message))


def test_a_state_against_a_level_with_its_auxiliary_left_out_is_a_yes_no() -> None:
    assert read_request("ch9 leaving water been sitting below its sp this week?").shape == "yes_no"


def test_above_sp_is_read_as_above_the_setpoint() -> None:
    from graph.answering.asked_figures import setpoint_side

    window = art("telemetry_window", {"stats": {
        "Chiller 9 Supply Temperature": {"running_mean": 46.0, "mean": 50.0, "unit": "degF", "count": 9},
        "Chiller 9 Setpoint Temperature": {"running_mean": 44.0, "mean": 44.0, "unit": "degF", "count": 9}}},
        asset="Chiller 9", producer="data")
    found = setpoint_side("chw supply running above sp?", [window])  # type: ignore[list-item]
    assert found is not None and found[0] == "Yes" and "2.0 degF above" in found[1]


def test_silencing_the_alerts_just_listed_is_alarm_tuning() -> None:
    from graph.understanding.request import ALARM_TUNING

    assert ALARM_TUNING.search("can we just mute those for a while?")
    assert not ALARM_TUNING.search("can we just clean those tubes?")


def test_a_question_behind_a_lead_in_with_its_mark_left_off_asks_the_cause() -> None:
    decision = Dialog(reference_date=SUMMER).say("thinking back to ch4 in spring 2019 what was going on with it")
    assert ("failure", "diagnose") in step_set(decision)



def test_came_second_points_at_the_runner_up() -> None:
    from graph.understanding.model import find_references
    from graph.understanding.text import Text
    from graph.understanding.vocabulary import vocabulary

    assert "second_asset" in find_references(Text.of("and which one came second?"), vocabulary())


@pytest.mark.parametrize(("typed", "read"), [("going by the work-order history", "going by the work order history"),
                                             ("water-side fouling", "water side fouling"),
                                             ("mar-may 2021", "mar - may 2021"), ("re-clean it", "re - clean it")])
def test_a_hyphenated_compound_reads_as_its_words_but_a_range_or_a_prefix_keeps_its_hyphen(typed: str, read: str) -> None:
    from graph.understanding.text import Text

    assert Text.of(typed).joined == read


def test_a_pick_answered_by_reading_one_chiller_names_it_first() -> None:
    from graph.answering.shapes import AnswerInputs, shaped_lead

    read = art("work_order_summary", {"total": 6, "corrective": 6}, asset="Chiller 13", producer="maintenance",
               summary="6 corrective work orders on CWC04013 (2020)")
    lead = shaped_lead(AnswerInputs(shape="which", scope="asset", question="and which one was next?",
                                    artifacts=[read]))  # type: ignore[list-item]
    assert lead is not None and lead.first.startswith("Chiller 13: 6 corrective")
    rules = shaped_lead(AnswerInputs(shape="which", scope="asset", question="which rules fired most?",
                                     artifacts=[read]))  # type: ignore[list-item]
    assert rules is None or not rules.first.startswith("Chiller 13:")


def test_the_same_two_months_after_two_periods_side_by_side_are_those_two() -> None:
    dialog = Dialog(reference_date=SUMMER)
    dialog.say("was chiller 9's power higher in april than in april 2020?")
    decision = dialog.say("and tonnage, same two months")
    assert ("data", "compare") in step_set(decision)
    assert _months(decision, "history") == {(2021, 4), (2020, 4)}


def test_mostly_down_to_a_cause_is_no_question_of_running() -> None:
    from graph.understanding.request import MOSTLY_IDLE

    assert not MOSTLY_IDLE.search("is that count mostly down to the leak in march?")
    assert MOSTLY_IDLE.search("so it was mostly down that week")


@pytest.mark.parametrize(("message", "named"), [("and what was up with 4, then?", ["Chiller 4"]),
                                                ("switching over to 9 - any alarms there?", ["Chiller 9"]),
                                                ("the load fell to 4 - odd", []), ("it rose to 6, then fell", [])])
def test_a_bare_number_the_clause_turns_to_is_a_chiller_but_not_a_level(message: str, named: list[str]) -> None:
    from graph.understanding.assets import find_assets
    from graph.understanding.text import Text
    from graph.understanding.vocabulary import vocabulary
    from tests.support.catalog import default_catalog

    assert find_assets(Text.of(message), vocabulary(), default_catalog()).assets == named


def test_whether_a_fault_lies_behind_a_move_asks_the_cause() -> None:
    decision = Dialog(reference_date=SUMMER).say("is there a problem behind the rise in chiller 6's kw/ton in may?")
    assert ("failure", "diagnose") in step_set(decision)


def test_both_months_after_one_span_of_two_months_is_that_span() -> None:
    dialog = Dialog(reference_date=SUMMER)
    dialog.say("go over march and april for chiller 4, its power while running")
    decision = dialog.say("alerts over both months?")
    assert _months(decision, "alert_rules") == {(2021, 3)}
