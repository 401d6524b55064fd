"""Kinds of request met this stop: a bare month said while an earlier year is discussed belongs to that year, and a
reading said to be higher or lower than in another period is that reading set against the period discussed."""

from __future__ import annotations

from datetime import date

from tests.unit.planning.dialog import Dialog, at

SUMMER = date(2021, 7, 1)


def _windows(decision: object) -> set[tuple[object, object]]:
    return {(t.window.start, t.window.end) for t in decision.tasks if t.window}  # type: ignore[attr-defined]


def test_a_bare_month_after_a_month_of_an_earlier_year_is_in_that_year() -> None:
    dialog = Dialog(reference_date=SUMMER)
    dialog.say("chiller 9 power in june 2020")
    assert _windows(dialog.say("what about may?")) == {(at(2020, 5, 1), at(2020, 6, 1))}


def test_a_bare_month_not_yet_begun_in_the_discussed_year_is_the_latest_one() -> None:
    dialog = Dialog(reference_date=SUMMER)
    dialog.say("chiller 9 power last month")  # June 2021: December 2021 has not begun
    assert _windows(dialog.say("and december?")) == {(at(2020, 12, 1), at(2021, 1, 1))}


def test_a_message_that_dates_a_period_itself_takes_no_year_from_the_dialog() -> None:
    dialog = Dialog(reference_date=SUMMER)
    dialog.say("chiller 9 power in june 2020")
    decision = dialog.say("compare march 2019 with may")
    assert (at(2020, 5, 1), at(2020, 6, 1)) not in _windows(decision)


def test_higher_than_a_month_after_a_reading_compares_the_two_periods() -> None:
    dialog = Dialog(reference_date=SUMMER)
    dialog.say("chiller 9 power in june 2020")
    for follow_up in ("is that higher than may?", "was it lower in march?", "hotter than the year before?"):
        probe = Dialog(reference_date=SUMMER, focus=dialog.focus, artifacts=list(dialog.artifacts))
        decision = probe.say(follow_up)
        assert "compare" in [t.action for t in decision.tasks], follow_up
        assert "anomaly_detection" not in [t.action for t in decision.tasks], follow_up
        assert (at(2020, 6, 1), at(2020, 7, 1)) in _windows(decision)


def test_higher_than_normal_is_still_a_look_for_anomalies() -> None:
    dialog = Dialog(reference_date=SUMMER)
    dialog.say("chiller 9 power in june 2020")
    decision = dialog.say("was it higher than normal in may?")
    assert "compare" not in [t.action for t in decision.tasks]


def test_this_june_is_the_current_one_whatever_year_is_discussed() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 5))
    dialog.say("chiller 9 kw/ton last month")
    dialog.say("same month a year before?")
    decision = dialog.say("going back to this june: did it throw any alarms?")
    assert _windows(decision) == {(at(2021, 6, 1), at(2021, 7, 1))}


def test_worry_asked_of_what_was_just_shown_is_never_off_topic() -> None:
    dialog = Dialog(reference_date=date(2020, 7, 5))
    dialog.say("check chiller 9 condenser sensors last 30 days")
    for follow_up in ("anything in there I should be worried about?", "anything in there that worries you?"):
        decision = Dialog(reference_date=date(2020, 7, 5), focus=dialog.focus,
                          artifacts=list(dialog.artifacts)).say(follow_up)
        assert decision.kind == "run" and decision.intent != "off_topic", follow_up


def test_a_side_of_the_machine_stands_for_its_failure_modes_and_swaps_into_the_last_question() -> None:
    dialog = Dialog(reference_date=date(2020, 7, 5))
    dialog.say("what can go wrong on chiller 9?")
    condenser = dialog.say("which sensors would show the condenser-side ones?")
    mapping = next(t for t in condenser.tasks if t.action == "sensor_mapping")
    assert set(mapping.params["failure_modes"]) == {"Condenser Water side fouling",
                                                     "Condenser Improper water side flow rate"}
    evaporator = dialog.say("and for the evaporator-side ones?")
    assert [t.action for t in evaporator.tasks] == ["sensor_mapping"]
    assert evaporator.tasks[0].params["failure_modes"] == ["Evaporator Water side fouling"]


def test_a_span_from_a_year_to_the_end_of_last_year_ends_there() -> None:
    decision = Dialog(reference_date=date(2020, 7, 5)).say(
        "can you pull the breakdown jobs on CWC04006 from 2017 up to the end of last year, year by year?")
    assert min(s for s, _ in _windows(decision)) == at(2017, 1, 1)
    assert max(e for _, e in _windows(decision)) == at(2020, 1, 1)


def test_how_many_a_year_splits_the_count_by_year() -> None:
    decision = Dialog(reference_date=date(2020, 7, 5)).say(
        "we get a steady drip of low-load alarms off chiller 3. how many a year since 2017?")
    assert _windows(decision) == {(at(y, 1, 1), at(y + 1, 1, 1)) for y in (2017, 2018, 2019)} | {
        (at(2020, 1, 1), at(2020, 7, 5))}


def test_them_after_the_chillers_named_in_the_same_message_is_that_set_not_a_question() -> None:
    decision = Dialog(reference_date=date(2018, 9, 20)).say(
        "how many corrective work orders did each of our four monitored chillers get from june through august, "
        "and were any of them refrigerant-related?")
    assert decision.kind == "run"
    assert sorted(a for t in decision.tasks for a in t.asset_ids) == ["Chiller 3", "Chiller 4", "Chiller 6",
                                                                      "Chiller 9"]


def test_tuning_an_alarm_looks_at_its_limit_and_at_what_its_alerts_led_to() -> None:
    dialog = Dialog(reference_date=date(2021, 1, 25))
    dialog.say("how many alerts did chiller 6 raise in 2020 and which rules?")
    decision = dialog.say("is it worth loosening the cycling alarm so people stop tuning it out?")
    assert decision.intent == "thresholds"
    followed = [t for t in decision.tasks if t.action == "alert_to_failure"]
    assert [t.params["rule_id"] for t in followed] == ["RUL0022"]
    counted = dialog.say("did it raise any alarms in may?")  # raising alarms is no limit moved
    assert [t.action for t in counted.tasks] == ["alert_rules"]


def test_the_rest_of_the_summer_is_no_pick_of_one_chiller() -> None:
    from graph.planning.scope import superlative_one

    assert not superlative_one("put together a maintenance plan for the site for the rest of the summer")
    assert superlative_one("the hottest one") and superlative_one("the worst of them")


def test_a_kind_of_work_order_named_after_a_count_of_another_kind_counts_that_kind() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 5))
    dialog.say("how many planned maintenance jobs did chiller 4 get in 2020?")
    decision = dialog.say("and the unplanned ones?")
    assert [t.action for t in decision.tasks] == ["wo_summary"]


def test_maint_is_maintenance() -> None:
    decision = Dialog(reference_date=date(2020, 9, 15)).say(
        "need a maint plan for the chillers going into fall - whats due and whats urgent")
    assert {"prioritize", "predict_next"} <= {t.action for t in decision.tasks}


def test_same_breakdown_for_another_chiller_repeats_the_listing_with_its_rule() -> None:
    dialog = Dialog(reference_date=date(2020, 9, 15))
    dialog.say("load low alarms on chiller 4 - count per year since 2017?")
    dialog.say("worst yr?")
    decision = dialog.say("same breakdown for 9")
    assert {t.action for t in decision.tasks} == {"alert_rules"}
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 9"}
    assert len(decision.tasks) == 4 and decision.focus.rule_ids == ["RUL0017"]


def test_by_this_point_last_year_is_last_year_up_to_todays_date() -> None:
    dialog = Dialog(reference_date=date(2020, 9, 15))
    dialog.say("how many corrective jobs has chiller 6 had so far this year?")
    decision = dialog.say("is that more than it had by this point last year?")
    assert (at(2019, 1, 1), at(2019, 9, 16)) in _windows(decision)
    alone = Dialog(reference_date=date(2020, 9, 15)).say("how many corrective jobs did chiller 6 have by this point "
                                                         "last year?")
    assert _windows(alone) == {(at(2019, 1, 1), at(2019, 9, 16))}


def test_a_side_of_the_site_named_after_one_chiller_is_asked_of_that_side() -> None:
    dialog = Dialog(reference_date=date(2020, 9, 15))
    dialog.say("what about chiller 13, what do we know about it")
    decision = dialog.say("of the ones without telemetry, which had the most corrective work last year")
    assert {a for t in decision.tasks for a in t.asset_ids} == {
        "Chiller 1", "Chiller 2", "Chiller 7", "Chiller 10", "Chiller 12", "Chiller 13", "Chiller 14"}
    monitored = Dialog(reference_date=date(2021, 1, 25)).say(
        "of the four chillers we actually monitor, which one needed the fewest corrective jobs in 2020?")
    assert {a for t in monitored.tasks for a in t.asset_ids} == {"Chiller 3", "Chiller 4", "Chiller 6", "Chiller 9"}


def test_while_loaded_is_a_condition_on_the_samples_not_the_load_reading() -> None:
    from graph.answering.asked_figures import asked_sensors
    from graph.understanding.sensors import find_sensors
    from graph.understanding.text import Text
    from graph.understanding.vocabulary import vocabulary

    for said in ("avg while loaded in aug vs june?", "what does it average when it's loaded?"):
        assert find_sensors(Text.of(said), vocabulary()).canonical == [], said
        assert "Chiller % Loaded" not in asked_sensors(said), said
    assert find_sensors(Text.of("what was the load at noon"), vocabulary()).canonical == ["Chiller % Loaded"]
    assert find_sensors(Text.of("kw/ton under load"), vocabulary()).canonical == ["Chiller Efficiency"]


def test_which_quarter_of_a_year_counts_each_quarter() -> None:
    dialog = Dialog(reference_date=date(2021, 1, 15))
    dialog.say("corrective work order count per year on chiller 6, 2017 through 2020?")
    decision = dialog.say("which quarter of last year was the heaviest for breakdowns?")
    assert _windows(decision) == {(at(2020, m, 1), at(2020 + (m == 10), (m + 3 - 1) % 12 + 1, 1))
                                  for m in (1, 4, 7, 10)}


def test_topped_up_yet_asks_for_the_job_since_the_period_discussed() -> None:
    dialog = Dialog(reference_date=date(2018, 9, 1))
    dialog.say("show me the liquid refrigerant evaporator temperature on chillers 4 and 6 for august against july")
    decision = dialog.say("has either of them been topped up yet?")
    assert {t.action for t in decision.tasks} == {"wo_summary"}
    # since August, the month asked about (July was what it was set against)
    assert _windows(decision) == {(at(2018, 8, 1), at(2018, 9, 2))}
    assert Dialog(reference_date=date(2018, 9, 1)).say("which is the top unit?").intent != "work_orders"


def test_a_job_already_put_in_for_what_was_found_is_asked_of_the_records() -> None:
    from graph.understanding.request import asks_if_resolved

    for said in ("has anyone already put a job in for it?", "is there already a work order in for that?",
                 "did someone raise a ticket on it?"):
        assert asks_if_resolved(said), said
    assert not asks_if_resolved("how many jobs are there for it?")


def test_since_an_event_dated_by_a_period_runs_from_then_to_today() -> None:
    from zoneinfo import ZoneInfo

    from graph.understanding.periods import find_periods
    from graph.understanding.text import Text
    from graph.understanding.vocabulary import vocabulary

    def spans(said: str) -> list[tuple[object, object]]:
        found = find_periods(Text.of(said).joined, vocabulary(), date(2019, 8, 20), zone=ZoneInfo("America/New_York"))
        return [(m.window.start, m.window.end) for m in found.mentions if m.window is not None]

    # a few days' event is over by their end; a month's starts with it
    assert spans("has the flow held up since they cleaned it at the end of june?") == [(at(2019, 7, 1),
                                                                                        at(2019, 8, 20))]
    assert spans("has it improved since the repair in march?") == [(at(2019, 3, 1), at(2019, 8, 20))]


def test_a_side_of_the_site_set_off_by_dashes_is_still_read() -> None:
    from graph.understanding.fleet_subset import telemetry_subset
    from graph.understanding.text import Text

    said = "of the chillers that only have maintenance records - no sensors - which had the most corrective work?"
    assert telemetry_subset(Text.of(said).joined) == "no_telemetry"
    assert telemetry_subset(Text.of("which chillers had the highest readings").joined) is None


def test_ranking_the_chillers_by_a_reading_reads_it_without_a_diagnosis() -> None:
    dialog = Dialog(reference_date=date(2020, 7, 15))
    for said in ("rank the four monitored chillers by average power draw while running last month.",
                 "rank them by kw/ton"):
        decision = dialog.say(said)
        assert {t.action for t in decision.tasks} == {"history"}, said
    causes = Dialog(reference_date=date(2020, 7, 15)).say("rank the causes by likelihood on chiller 6")
    assert "diagnose" in {t.action for t in causes.tasks}


def test_also_on_top_asks_for_the_pick_made_again() -> None:
    from graph.understanding.request import SAME_ONE

    for said in ("was 6 also on top in the same month a year earlier?", "still the worst in may?",
                 "was it top again in 2019?"):
        assert SAME_ONE.search(said), said
    assert not SAME_ONE.search("what was on top of the list?")


def test_the_one_with_the_worst_kw_per_ton_is_picked_from_the_means_the_dialog_read() -> None:
    from assetops.domain.turn import Focus, TimeWindow
    from graph.planning import ArtifactSummary

    june = TimeWindow(at(2021, 6, 1), at(2021, 7, 1), "last month")
    chillers = {"Chiller 3": 0.45, "Chiller 4": 0.49, "Chiller 6": 0.41, "Chiller 9": 0.40}
    read = [ArtifactSummary(id=f"w{n}", producer="data", kind="telemetry_window", asset_ids=(name,), window=june,
                            key_results={"stats": {f"{name} Chiller Efficiency": {"running_mean": kw, "mean": 0.2}}})
            for n, (name, kw) in enumerate(chillers.items())]
    dialog = Dialog(reference_date=SUMMER, focus=Focus(asset_ids=list(chillers), window=june), artifacts=read)
    decision = dialog.say("ok, the one with the worst kw/ton last month - what was it averaging")
    assert {a for t in decision.tasks for a in t.asset_ids} == {"Chiller 4"}
    best = Dialog(reference_date=SUMMER, focus=Focus(asset_ids=list(chillers), window=june), artifacts=read).say(
        "the one with the best kw/ton - how many hours did it run?")
    assert {a for t in best.tasks for a in t.asset_ids} == {"Chiller 9"}


def test_after_the_same_month_last_year_a_bare_month_is_this_years_again() -> None:
    dialog = Dialog(reference_date=SUMMER)
    dialog.say("supply temp on 6 in june")
    dialog.say("and the same month last year?")
    decision = dialog.say("how many setpoint attainment alarms did it throw in june")
    assert _windows(decision) == {(at(2021, 6, 1), at(2021, 7, 1))}


def test_a_message_that_places_itself_in_this_year_keeps_its_months_there() -> None:
    dialog = Dialog(reference_date=date(2021, 7, 5))
    dialog.say("chiller 9 alerts in may 2020")
    decision = dialog.say("ok back to this year. avg liquid refrigerant evap temp on 9 in june vs april?")
    assert (at(2021, 6, 1), at(2021, 7, 1)) in _windows(decision)
    assert (at(2021, 4, 1), at(2021, 5, 1)) in _windows(decision)


def test_loaded_stays_the_reading_when_no_figure_of_another_is_asked() -> None:
    from graph.understanding.sensors import find_sensors
    from graph.understanding.text import Text
    from graph.understanding.vocabulary import vocabulary

    said = "9 dropped off yesterday afternoon while it was loaded. did it trip or was that just the schedule"
    assert "Chiller % Loaded" in find_sensors(Text.of(said), vocabulary()).canonical


def test_a_bare_number_a_machine_verb_takes_is_a_chiller_and_keep_or_replace_is_advice() -> None:
    from graph.understanding.assets import find_assets
    from graph.understanding.request import read_request
    from graph.understanding.text import Text
    from graph.understanding.vocabulary import vocabulary
    from tests.support.catalog import default_catalog

    for said in ("should we start budgeting to replace 6?", "is it time to retire 6?",
                 "should we replace 6 or keep fixing it"):
        assert find_assets(Text.of(said), vocabulary(), default_catalog()).assets == ["Chiller 6"], said
    assert find_assets(Text.of("replace 6 bearings on it"), vocabulary(), default_catalog()).assets == []
    assert read_request("honestly, would you keep patching it up or start budgeting for a replacement?").shape \
        == "recommend"


def test_since_around_a_day_is_since_that_day_and_a_recent_period_last_year_moves_no_frame() -> None:
    dialog = Dialog(reference_date=SUMMER)
    first = dialog.say("since around christmas the leaving chilled water on chiller 6 has been reading warm against "
                       "setpoint. is it the sensor?")
    assert first.focus.window is not None and first.focus.window.start == at(2020, 12, 25)
    assert first.focus.window.end == at(2021, 7, 1)
    decision = dialog.say("how many setpoint attainment alarms did it log in may?")
    assert _windows(decision) == {(at(2021, 5, 1), at(2021, 6, 1))}


def test_an_inflection_of_a_known_word_is_no_typo() -> None:
    from graph.understanding.text import Text

    assert Text.of("which of the units are raising them").joined == "which of the units are raising them"
    assert Text.of("condensor fouling").joined == "condenser fouling"  # a real typo is still mended
    assert Text.of("how many correctives got raised").joined.startswith("how many corrective ")  # a plural too
    decision = Dialog(reference_date=date(2021, 7, 5)).say(
        "evaporator approach alarms have been stacking up across the plant since spring. which of the units are "
        "raising them, and how many came in last month?")
    assert {t.action for t in decision.tasks} == {"alert_rules"}


def test_a_bare_day_in_a_message_that_dates_a_day_of_a_named_month_is_in_that_month() -> None:
    dialog = Dialog(reference_date=date(2019, 8, 12))
    decision = dialog.say("chiller 9 tripped on the evening of july 23rd and was out for about two weeks. what were "
                          "its power input and supply temperature doing in the two weeks leading up to the trip, "
                          "from the 9th?")
    assert _windows(decision) == {(at(2019, 7, 9), at(2019, 7, 24))}
    again = dialog.say("pull the same two weeks from 2018 so I have something normal to compare against.")
    assert (at(2018, 7, 9), at(2018, 7, 24)) in _windows(again)
    alone = Dialog(reference_date=date(2019, 8, 12)).say("chiller 9 power since the 9th")
    assert _windows(alone) == {(at(2019, 8, 9), at(2019, 8, 12))}


def test_the_summers_of_two_years_are_two_summers() -> None:
    from zoneinfo import ZoneInfo

    from graph.understanding.periods import find_periods
    from graph.understanding.text import Text
    from graph.understanding.vocabulary import vocabulary

    found = find_periods(Text.of("give me its figures for the summers of 2018 and 2019 as well").joined, vocabulary(),
                         date(2021, 1, 25), zone=ZoneInfo("America/New_York"))
    assert [(m.window.start, m.window.end) for m in found.mentions if m.window] == [
        (at(2018, 6, 1), at(2018, 9, 1)), (at(2019, 6, 1), at(2019, 9, 1))]


def test_a_job_said_to_be_on_file_with_a_tag_question_is_a_yes_no_about_the_work_orders() -> None:
    from graph.understanding.request import read_request

    dialog = Dialog(reference_date=date(2021, 7, 5))
    dialog.say("chiller 4 condenser water temps this spring vs last spring")
    decision = dialog.say("there's already a condenser-plugged job on file from the spring, isn't there?")
    assert [t.action for t in decision.tasks] == ["wo_summary"]
    for said in ("it tripped twice, didn't it?", "chiller 9 was cycling a lot this spring, wasn't it?"):
        assert read_request(said).shape == "yes_no", said


def test_what_a_figure_is_for_asks_for_nothing_itself() -> None:
    from graph.understanding.model import intent_scores
    from graph.understanding.text import Text
    from graph.understanding.vocabulary import vocabulary

    said = ("give me last month's average liquid refrigerant temperature on it while it was loaded, so I can put the "
            "approach in the report.")
    assert "report" not in intent_scores(Text.of(said), vocabulary())
    assert "report" in intent_scores(Text.of("write the report so I can send it to the manager"), vocabulary())


def test_faults_that_keep_coming_back_are_the_corrective_orders() -> None:
    dialog = Dialog(reference_date=date(2020, 7, 5))
    dialog.say("can you pull the breakdown jobs on CWC04006 from 2017 up to the end of last year, year by year?")
    decision = dialog.say("what sort of faults keep coming back in those?")
    assert [t.params.get("kind") for t in decision.tasks] == ["corrective"]


def test_did_it_make_a_difference_reads_either_side_of_the_job_just_asked_about() -> None:
    from graph.planning import ArtifactSummary
    from graph.understanding.request import named_job

    assert named_job("was the condenser cleaned out at some point around then?") == "cleaning"
    cleaning = {"wo_id": "WO153938", "date": "2020-07-09", "code": "MT002",
                "description": "Cleaning: Condenser Tube Cleaning (condenser)"}
    listing = ArtifactSummary(id="wo", producer="maintenance", kind="wo_summary", asset_ids=("Chiller 6",),
                              key_results={"recent": [], "latest_per_job": [cleaning]})
    dialog = Dialog(reference_date=date(2021, 7, 5), artifacts=[listing])
    dialog.say("could you summarise how chiller 6 behaved last summer: average power while running?")
    dialog.say("was the condenser cleaned out at some point around then?")
    decision = dialog.say("did it make a difference? compare the fortnight before with the fortnight after.")
    assert decision.intent == "repair_check"
    assert {(at(2020, 6, 25), at(2020, 7, 9)), (at(2020, 7, 10), at(2020, 7, 24))} <= _windows(decision)
    later = dialog.say("right, and how's it looking this summer so far?")
    assert later.intent == "history"


def test_a_record_set_as_the_scene_of_did_that_sort_it_is_no_check_of_the_record_alone() -> None:
    decision = Dialog(reference_date=date(2019, 8, 20)).say(
        "chiller 6: there was a compressor overheating WO closed over the weekend, did that sort it")
    assert decision.intent != "work_orders"


def test_advice_asked_after_a_scene_of_records_gathers_the_evidence_beside_the_records() -> None:
    decision = Dialog(reference_date=date(2016, 8, 15)).say(
        "chiller 9's evaporator approach alarms won't stop. would it be worth planning an inspection shutdown for it?")
    assert decision.intent == "recommend_wo+alerts"
    assert {"alert_rules", "diagnose", "wo_summary"} <= {t.action for t in decision.tasks}
    assert not any(t.action == "draft_wo" for t in decision.tasks)
