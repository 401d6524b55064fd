"""Kinds of request met this stop: a comparison of two periods that names which side is asked about."""

from __future__ import annotations

from datetime import date

from tests.unit.planning.dialog import Dialog

SEPTEMBER = date(2020, 9, 15)


def _span(window: object) -> tuple[date, date]:
    return window.start.date(), window.end.date()  # type: ignore[attr-defined]


def test_a_period_set_against_another_leaves_the_asked_one_under_discussion() -> None:
    dialog = Dialog(reference_date=SEPTEMBER)
    dialog.say("the evaporator on chiller 4 seems sluggish. what did its supply temp average in june, and how does "
               "that stack up compared to may?")
    assert _span(dialog.focus.window) == (date(2020, 6, 1), date(2020, 7, 1))
    assert dialog.focus.earlier_window is not None
    assert _span(dialog.focus.earlier_window) == (date(2020, 5, 1), date(2020, 6, 1))
    decision = dialog.say("did chiller 6 do the same that month?")
    assert {_span(t.window) for t in decision.tasks if t.window is not None} == {(date(2020, 6, 1), date(2020, 7, 1))}


def test_a_comparison_between_two_months_with_no_side_is_about_the_span() -> None:
    dialog = Dialog(reference_date=SEPTEMBER)
    dialog.say("how much has chiller 6's kW/ton moved between march and june?")
    assert _span(dialog.focus.window) == (date(2020, 3, 1), date(2020, 7, 1))


AUTUMN = date(2020, 9, 14)


def test_whether_the_ranking_holds_for_another_period_is_the_ranking_again() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("who has had the most breakdown tickets this year across the plant?")
    decision = dialog.say("and in 2018? is the pecking order the same?")
    assert {t.action for t in decision.tasks} == {"wo_summary"}
    assert {t.window.start.year for t in decision.tasks if t.window is not None} == {2018}
    assert len({a for t in decision.tasks for a in t.asset_ids}) > 4


def test_the_ones_without_after_asking_which_chillers_report_data_are_the_others() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    first = dialog.say("what units do you get sensor data from?")
    assert first.intent == "inventory"
    decision = dialog.say("of the ones without, which logged the most preventive jobs last year?")
    assets = {a for t in decision.tasks for a in t.asset_ids}
    assert assets and not assets & {"Chiller 3", "Chiller 4", "Chiller 6", "Chiller 9"}


def test_without_that_question_the_ones_without_is_no_side_of_the_site() -> None:
    from graph.understanding.fleet_subset import telemetry_subset

    assert telemetry_subset("of the ones without which logged the most jobs ?") is None
    assert telemetry_subset("of the ones without which logged the most jobs ?", sensing_asked=True) == "no_telemetry"
    assert telemetry_subset("and the ones with ?", sensing_asked=True) == "telemetry"


def test_a_chiller_raising_a_rule_by_two_of_its_words_asks_for_those_alerts() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 5))
    decision = dialog.say("chiller 9 has been throwing evaporator approach all week. how many since june?")
    assert {t.action for t in decision.tasks} == {"alert_rules"}
    assert dialog.focus.asked_rules == ["RUL0018"]


def test_a_reading_that_is_flagging_names_no_rule() -> None:
    from graph.understanding import understand
    from tests.support.catalog import default_catalog

    said = understand("ch3 condenser water flow has been flagging since june", AUTUMN, catalog=default_catalog())
    assert said.named_rules == [] and said.raised_rules == []


def test_it_after_comparing_the_chiller_discussed_with_another_is_the_chiller_discussed() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 5))
    dialog.say("how has chiller 4's return temp looked over june?")
    dialog.say("put chiller 4 next to chiller 3 on return temp for the same month")
    decision = dialog.say("should we get its sensor checked?")
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 4"}


def test_the_smaller_one_after_a_pick_by_size_is_the_other_end() -> None:
    from assetops.domain.turn import Focus

    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("tonnage on chillers 4 and 9 over the last two weeks?")
    dialog.say("which one carried more load?")
    assert dialog.focus.picked_for == "high"
    dialog.focus = Focus(**{**dialog.focus.__dict__, "picked": "Chiller 9", "ranked": ["Chiller 9", "Chiller 4"]})
    decision = dialog.say("when did the smaller one last get serviced?")
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 4"}


def test_a_trip_dated_by_a_day_that_opens_a_span_or_a_bare_weekday_is_the_trip() -> None:
    dialog = Dialog(reference_date=date(2019, 8, 5))
    dialog.say("#9 tripped on the 23rd and since it came back its flow reads blank. what else went quiet?")
    assert dialog.focus.told_event is not None and dialog.focus.told_event.date() == date(2019, 7, 23)
    weekday = Dialog(reference_date=date(2018, 8, 20))
    weekday.say("chiller 3 quit last thurs. anything dead since?")
    assert weekday.focus.told_event is not None and weekday.focus.told_event.date() == date(2018, 8, 16)


def test_a_day_after_the_trip_named_as_a_noun_is_no_date_of_the_trip() -> None:
    dialog = Dialog(reference_date=date(2019, 8, 12))
    dialog.say("chiller 9 tripped on july 23rd. its power in the two weeks up to the trip, from the 9th?")
    assert dialog.focus.told_event is not None and dialog.focus.told_event.date() == date(2019, 7, 23)


def test_the_trip_as_the_time_of_the_question_asks_no_trip() -> None:
    from graph.answering.diagnosis_verdicts import trip_verdict

    assert trip_verdict([], "was the compressor running hot before it tripped?") is None
    assert trip_verdict([], "did it trip?") is None  # (no diagnosis to answer from: None either way)


def test_records_since_an_event_on_the_reference_day_are_that_days() -> None:
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from assetops.domain.turn import SpecialistTask, TimeWindow
    from specialists.maintenance.shared import date_args

    zone = ZoneInfo("America/New_York")
    window = TimeWindow(datetime(2019, 8, 5, 22, tzinfo=zone), datetime(2019, 8, 6, 22, tzinfo=zone), "since the trip")
    task = SpecialistTask(specialist="maintenance", action="wo_summary", asset_ids=["Chiller 9"], window=window)
    assert date_args(task, date(2019, 8, 5)) == {"start_date": "2019-08-05", "end_date": "2019-08-06"}


def test_chiller_numbers_typed_in_a_hurry() -> None:
    from graph.understanding.assets import find_assets
    from graph.understanding.text import Text
    from graph.understanding.vocabulary import vocabulary
    from tests.support.catalog import default_catalog

    def named(said: str) -> list[str]:
        return sorted(find_assets(Text.of(said), vocabulary(), default_catalog()).assets)

    assert named("4s cond water flow last week?") == ["Chiller 4"]  # the apostrophe left out
    assert named("is 6 a real worry or noise") == ["Chiller 6"]
    assert named("same old story like 9") == ["Chiller 9"]
    assert named("temps in the 90s all week") == []


def test_a_claim_that_the_sensor_is_off_with_a_question_tag_checks_the_instrument() -> None:
    dialog = Dialog(reference_date=date(2021, 6, 14))
    dialog.say("chiller 4 return temp this month?")
    decision = dialog.say("the load and power look fine to me. i reckon the return sensor is drifting. you agree?")
    assert {t.action for t in decision.tasks} >= {"sensor_validity"}


def test_losing_charge_is_the_refrigerant_loss_failure_mode() -> None:
    from graph.understanding.identifiers import find_failure_modes
    from graph.understanding.text import Text
    from graph.understanding.vocabulary import vocabulary

    assert find_failure_modes(Text.of("could it be losing charge"), vocabulary()) == ["Purge Unit Excessive purge"]
    assert find_failure_modes(Text.of("refrig evap temp looked low on my walkround"), vocabulary()) == []


def test_a_season_or_fortnight_with_a_relative_year_is_that_years() -> None:
    from graph.understanding import understand
    from tests.support.catalog import default_catalog

    said = understand("kw/ton this summer vs summer last year", date(2021, 9, 20), catalog=default_catalog())
    assert [m.window.start.year for m in said.periods.mentions if m.window is not None] == [2021, 2020]
    dialog = Dialog(reference_date=date(2021, 5, 15))
    decision = dialog.say("chiller 9 supply temp this month vs the same fortnight last yr")
    assert {_span(t.window) for t in decision.tasks if t.window is not None} >= {(date(2020, 5, 1), date(2020, 5, 16))}


def test_a_move_claimed_in_one_period_is_read_against_the_period_before() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    decision = dialog.say("ops say chiller 4's tonnage was slipping in june, can you confirm that?")
    spans = {_span(t.window) for t in decision.tasks if t.window is not None}
    assert {(date(2020, 6, 1), date(2020, 7, 1)), (date(2020, 5, 1), date(2020, 6, 1))} <= spans


def test_since_then_after_a_day_told_in_the_message_runs_from_that_day() -> None:
    from graph.understanding import understand
    from tests.support.catalog import default_catalog

    said = understand("the tubes got brushed on the 4th. has the approach come back since then?", AUTUMN,
                      catalog=default_catalog())
    spans = [(m.window.start.date(), m.window.label) for m in said.periods.mentions if m.window is not None]
    assert spans == [(date(2020, 9, 4), "since the 4th")]


def test_a_reading_come_back_or_looking_sane_after_work_is_a_check_of_the_repair() -> None:
    for question in ("they flushed the strainer on the 2nd. has its flow come back since then?",
                     "the transmitter got recalibrated sep 3. reads sane since then?"):
        dialog = Dialog(reference_date=AUTUMN)
        dialog.say("chiller 3 condenser water flow over august?")
        decision = dialog.say(question)
        assert "repair_check" in (decision.intent or ""), question


def test_this_time_after_two_periods_side_by_side_is_the_later() -> None:
    dialog = Dialog(reference_date=date(2020, 6, 25))
    dialog.say("chiller 6 condenser return temp this month?")
    dialog.say("what about the same weeks last june")
    decision = dialog.say("so this time it's something else - what are the likely causes?")
    assert {t.window.start.year for t in decision.tasks if t.window is not None} == {2020}


def test_the_period_pointed_at_and_one_named_are_read_side_by_side() -> None:
    dialog = Dialog(reference_date=date(2016, 9, 30))
    dialog.say("chiller 9 supply temp june through august?")
    decision = dialog.say("and its power over those same 3 months, and then this month")
    spans = {_span(t.window) for t in decision.tasks if t.window is not None}
    assert {(date(2016, 6, 1), date(2016, 9, 1)), (date(2016, 9, 1), date(2016, 10, 1))} <= spans


def test_saying_a_chiller_has_no_sensors_is_agreed_with() -> None:
    said = Dialog(reference_date=date(2021, 3, 22)).say("chiller 13 has no sensor data right?")
    assert said.message.startswith("Right, Chiller 13")
    asked = Dialog(reference_date=date(2021, 3, 22)).say("does chiller 13 have sensors?")
    assert asked.message.startswith("No, Chiller 13")


def test_the_worst_one_after_a_pick_of_the_most_records_is_that_pick() -> None:
    from assetops.domain.turn import Focus

    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("which chiller logged the most corrective work orders last year?")
    assert dialog.focus.picked_for == "high"
    dialog.focus = Focus(**{**dialog.focus.__dict__, "picked": "Chiller 6",
                            "ranked": ["Chiller 6", "Chiller 9", "Chiller 14"]})
    decision = dialog.say("what kind of failures are behind the worst one's numbers?")
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 6"}


def test_a_repair_told_with_two_periods_named_either_side_compares_those() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("chiller 6 kw/ton in june?")
    decision = dialog.say("tubes got cleaned jul 9. did it help? compare aug to june")
    spans = {_span(t.window) for t in decision.tasks if t.specialist == "data"}
    assert spans == {(date(2020, 6, 1), date(2020, 7, 1)), (date(2020, 8, 1), date(2020, 9, 1))}


def test_compare_one_month_to_another_is_two_periods_and_from_one_to_another_a_span() -> None:
    from graph.understanding import understand
    from tests.support.catalog import default_catalog

    two = understand("compare sept to may for chiller 4", AUTUMN, catalog=default_catalog())
    assert len([m for m in two.periods.mentions if m.window is not None]) == 2
    span = understand("compare its load from may to july with 2019", AUTUMN, catalog=default_catalog())
    assert span.periods.mentions[0].window is not None and span.periods.mentions[0].window.label == "may to july"


def test_one_of_the_records_listed_singled_out_and_asked_about_is_read_from_those_records() -> None:
    dialog = Dialog(reference_date=AUTUMN)
    dialog.say("which chillers threw the most alarms this year?")
    decision = dialog.say("there was a weird one on chiller 4 back in may, what was it?")
    assert {t.action for t in decision.tasks} == {"alert_rules"}
    assert {_span(t.window) for t in decision.tasks if t.window is not None} == {(date(2020, 5, 1), date(2020, 6, 1))}


def test_the_less_efficient_one_is_read_off_the_kw_per_ton_whatever_was_picked_since() -> None:
    from assetops.domain.turn import Focus
    from graph.planning import ArtifactSummary

    dialog = Dialog(reference_date=date(2017, 8, 20))
    dialog.say("which chiller has been least efficient since june?")
    dialog.artifacts = [ArtifactSummary(id=f"w{n}", producer="data", kind="history", asset_ids=(asset,),
                                        key_results={"stats": {f"{asset} Chiller Efficiency": {"running_mean": kwt}}})
                        for n, (asset, kwt) in enumerate((("Chiller 3", 0.48), ("Chiller 4", 0.45),
                                                          ("Chiller 6", 0.44), ("Chiller 9", 0.41)))]
    dialog.focus = Focus(**{**dialog.focus.__dict__, "picked": "Chiller 6"})
    decision = dialog.say("going back to the less efficient one: was it this bad a year ago?")
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 3"}


def test_a_bare_number_in_a_reported_clause_or_between_places_is_a_chiller() -> None:
    from graph.understanding.assets import find_assets
    from graph.understanding.text import Text
    from graph.understanding.vocabulary import vocabulary
    from tests.support.catalog import default_catalog

    def named(said: str) -> list[str]:
        return sorted(find_assets(Text.of(said), vocabulary(), default_catalog()).assets)

    assert named("the operators reckon 4 is short of charge") == ["Chiller 4"]
    assert named("the cycling alarm keeps showing up on 6 on the panel") == ["Chiller 6"]
    assert named("they say 3 weeks is enough") == []


def test_a_bare_number_the_only_candidate_is_taken_as_the_chiller_rather_than_asking_back() -> None:
    decision = Dialog(reference_date=AUTUMN).say("heads up from the night shift about 9: what did its load average last week?")
    assert decision.kind == "run"
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 9"}
    assert any("bare number" in note for note in decision.assumptions or [])
    nothing = Dialog(reference_date=AUTUMN).say("what did its load average over the last 3 weeks?")
    assert nothing.kind == "clarify"


def test_rank_the_top_three_after_a_count_per_chiller_ranks_that_count() -> None:
    dialog = Dialog(reference_date=date(2020, 3, 30))
    dialog.say("across the site, which chiller had the most corrective WOs last year?")
    decision = dialog.say("rank the top 3 pls")
    assert {t.action for t in decision.tasks} == {"wo_summary"}


def test_is_the_sensor_lying_or_is_it_real_checks_the_instrument_of_the_chiller_discussed() -> None:
    dialog = Dialog(reference_date=date(2021, 6, 15))
    dialog.say("chiller 6 supply temp vs setpoint for may while running?")
    decision = dialog.say("so is the sensor lying to us or is the water actually warm?")
    assert {(t.action, tuple(t.asset_ids)) for t in decision.tasks} >= {("sensor_validity", ("Chiller 6",))}


def test_that_year_after_a_season_of_a_year_is_the_whole_year() -> None:
    decision = Dialog(reference_date=date(2019, 7, 1)).say(
        "word is 9 had evaporator trouble in summer 2016. how many approach alarms did it log that year?")
    assert {_span(t.window) for t in decision.tasks if t.window is not None} == {(date(2016, 1, 1), date(2017, 1, 1))}


def test_the_same_week_in_a_named_month_is_that_month_not_the_period_pointed_at() -> None:
    dialog = Dialog(reference_date=date(2019, 7, 24))
    dialog.say("chiller 9 supply temp the week before the 23rd?")
    decision = dialog.say("what did it do over the same week in june, for comparison")
    assert all(t.window is not None and t.window.start.month == 6 for t in decision.tasks)
