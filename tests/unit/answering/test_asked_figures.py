"""The figure the question asks for is in the answer: a named sensor's mean, an alert count, a named rule's
count, a sensor ranked across chillers, a sensor compared across two periods of one chiller."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from artifacts.model import Artifact
from graph.answering.asked_figures import (
    alert_count_sentence,
    asked_figure_lines,
    asked_sensors,
    sensor_ranking,
)
from graph.answering.period_verdict import period_verdict
from graph.answering.shapes import AnswerInputs, shaped_lead
from graph.answering.verdicts import alert_verdict
from tests.unit.answering.builders import art

AUG_2018 = (datetime(2018, 8, 1, tzinfo=UTC), datetime(2018, 9, 1, tzinfo=UTC))
AUG_2019 = (datetime(2019, 8, 1, tzinfo=UTC), datetime(2019, 9, 1, tzinfo=UTC))


def window(asset: str, sensor: str, running: float, unit: str, *, period: tuple[datetime, datetime] = AUG_2019,
           ident: str = "") -> Artifact:
    stats = {f"{asset} {sensor}": {"mean": running / 2, "running_mean": running, "unit": unit, "count": 100}}
    found = art("telemetry_window", {"stats": stats, "running_share": 0.5}, asset=asset, producer="data",
                id=ident or f"artifact_dc_{asset[-1]}_{period[0].year}")
    found.window_start, found.window_end = period
    return found


def alerts(equipment: str, rules: list[tuple[str, str, int]]) -> Artifact:
    results: dict[str, Any] = {"rules": [{"rule_id": r, "rule_name": f"Chiller - {n}", "count": c}
                                         for r, n, c in rules]}
    return art("alert_rules", results, asset=None, equipment=[equipment], producer="maintenance",
               summary=f"{len(rules)} alert rule(s) fired on {equipment}")


def test_the_words_a_user_names_a_sensor_by() -> None:
    assert asked_sensors("ch4 kw/ton last mo vs apr?") == ["Chiller Efficiency"]
    assert asked_sensors("Chiller 4's average load and kW/ton for August") == ["Chiller Efficiency",
                                                                               "Chiller % Loaded"]
    assert asked_sensors("condenser water flow is down on one of them") == ["Condenser Water Flow"]
    assert asked_sensors("is the condenser water supply temperature high?") == ["Condenser Water"]
    assert asked_sensors("what went wrong yesterday?") == []


def test_a_named_sensor_the_lead_does_not_state_is_added_per_chiller() -> None:
    found = [window("Chiller 6", "Liquid Refrigerant Evaporator Temperature", 39.8, "degF"),
             window("Chiller 4", "Liquid Refrigerant Evaporator Temperature", 41.3, "degF")]
    lines = asked_figure_lines("somebody is short of refrigerant, which chillers?", found, already="Chiller 4.")
    assert lines == ["- Liquid Refrigerant Evaporator Temperature (mean while running): Chiller 6 39.8 degF; "
                     "Chiller 4 41.3 degF"]


def test_a_figure_the_lead_already_states_is_not_repeated() -> None:
    found = [window("Chiller 4", "Return Temperature", 50.49, "degF")]
    assert asked_figure_lines("return temperature creeping up?", found, already="Return Temperature: 50.49 degF") == []
    assert asked_figure_lines("return temperature creeping up?", found, already="nothing") == [
        "- Return Temperature (mean while running): Chiller 4 50.5 degF, 2019-08-01 to 2019-09-01 "
        "[artifact_dc_4_2019]"]


def test_one_chiller_in_two_periods_is_shown_per_period() -> None:
    found = [window("Chiller 9", "Chiller Efficiency", 0.5, "kW/ton"),
             window("Chiller 9", "Chiller Efficiency", 0.47, "kW/ton", period=AUG_2018)]
    (line,) = asked_figure_lines("kW/ton?", found)
    assert line == ("- Efficiency (mean while running), Chiller 9: 2019-08-01 to 2019-09-01 0.5 kW/ton; "
                    "2018-08-01 to 2018-09-01 0.47 kW/ton")


def test_less_efficient_ranks_the_highest_kw_per_ton_first() -> None:
    found = [window(f"Chiller {n}", "Chiller Efficiency", v, "kW/ton") for n, v in ((4, 0.45), (3, 0.48), (9, 0.41))]
    ranked = sensor_ranking("one chiller is less efficient than its siblings, find it", found)
    assert ranked is not None and ranked.first == "Chiller 3"
    assert ranked.headline == ("Chiller 3 runs least efficiently: 0.48 kW/ton while running "
                               "(Chiller 4 0.45 kW/ton; Chiller 9 0.41 kW/ton).")
    lead = shaped_lead(AnswerInputs(shape="which", scope="fleet", question="which one is less efficient?",
                                    artifacts=found))
    assert lead is not None and lead.first.startswith("Chiller 3. Chiller 3 runs least efficiently")


def test_asking_which_ran_more_efficiently_ranks_the_lowest_kw_per_ton_first() -> None:
    found = [window(f"Chiller {n}", "Chiller Efficiency", v, "kW/ton") for n, v in ((6, 0.45), (9, 0.42))]
    ranked = sensor_ranking("Which one ran more efficiently?", found)
    assert ranked is not None and ranked.first == "Chiller 9"
    assert ranked.headline == "Chiller 9 runs most efficiently: 0.42 kW/ton while running (Chiller 6 0.45 kW/ton)."
    worse = sensor_ranking("and which was less efficient?", found)
    assert worse is not None and worse.first == "Chiller 6"


def test_a_reading_that_went_down_ranks_the_lowest_first() -> None:
    found = [window(f"Chiller {n}", "Condenser Water Flow", v, "gpm") for n, v in ((3, 1540.0), (6, 3299.0))]
    ranked = sensor_ranking("condenser water flow is down on one of our chillers", found)
    assert ranked is not None and ranked.headline.startswith("Chiller 3 has the lowest condenser water flow: 1,540 gpm")
    up = sensor_ranking("whose condenser water flow is highest?", found)
    assert up is not None and up.first == "Chiller 6"


def test_how_many_alerts_leads_with_the_count() -> None:
    found = [alerts("CWC04006", [("RUL0022", "Chiller Cycling", 14), ("RUL0017", "Load Low", 11),
                                 ("RUL0018", "Evaporator Approach High", 0)])]
    assert alert_count_sentence("How many alerts has it thrown over that stretch?", found) == \
        "25 alerts on CWC04006 from 2 rules."
    assert alert_count_sentence("what did the alerts say?", found) is None  # no count asked, no rule named
    lead = shaped_lead(AnswerInputs(shape="open", scope="asset", question="how many alerts since spring?",
                                    artifacts=found))
    assert lead is not None and lead.first == "25 alerts on CWC04006 from 2 rules."
    assert lead.lines == ["- 3 alert rule(s) fired on CWC04006"]


def test_a_named_rule_gets_its_own_count() -> None:
    found = [alerts("CWC04009", [("RUL0018", "Evaporator Approach High", 51), ("RUL0017", "Load Low", 32)])]
    question = "Is the Evaporator Approach High rule firing more on Chiller 9?"
    assert alert_count_sentence(question, found) == "RUL0018 Evaporator Approach High fired 51 times on CWC04009."
    verdict = alert_verdict(found, question)
    assert verdict is not None and verdict.sentence == "Yes, RUL0018 Evaporator Approach High fired 51 times on CWC04009."
    silent = alert_verdict([alerts("CWC04009", [("RUL0018", "Evaporator Approach High", 0)])], question)
    assert silent is not None and silent.answer == "No"


def test_kw_per_ton_better_a_year_earlier_compares_the_two_periods() -> None:
    now = window("Chiller 6", "Chiller Efficiency", 0.50, "kW/ton")
    before = window("Chiller 6", "Chiller Efficiency", 0.47, "kW/ton", period=AUG_2018)
    verdict = period_verdict("Was its kW/ton better in the same month a year earlier?", [now, before], [])
    assert verdict is not None and verdict.answer == "Yes"
    assert verdict.sentence == ("Yes, Chiller 6's efficiency was 0.47 kW/ton while running in August 2018, "
                                "better than 0.5 kW/ton while running in August 2019.")
    worse = period_verdict("Is its kW/ton worse now?", [now], [before])  # the other period from the session
    assert worse is not None and worse.answer == "Yes"
    as_bad = period_verdict("Was it this bad last year, efficiency-wise?", [before], [now])
    assert as_bad is not None and as_bad.answer == "No"


def test_the_other_period_is_the_one_this_turn_fetched_not_an_earlier_look_back() -> None:
    this_month = window("Chiller 6", "Condenser Water Flow", 2500.0, "gpm",
                        period=(datetime(2019, 8, 1, tzinfo=UTC), datetime(2019, 8, 16, tzinfo=UTC)))
    july = window("Chiller 6", "Condenser Water Flow", 3300.0, "gpm", period=(
        datetime(2019, 7, 1, tzinfo=UTC), datetime(2019, 8, 1, tzinfo=UTC)), ident="artifact_dc_july")
    last_30_days = window("Chiller 6", "Condenser Water Flow", 2600.0, "gpm", period=(
        datetime(2019, 7, 16, tzinfo=UTC), datetime(2019, 8, 15, tzinfo=UTC)), ident="artifact_dc_30d")
    verdict = period_verdict("is its condenser water flow down this month vs july?", [this_month, july], [last_30_days])
    assert verdict is not None and verdict.answer == "Yes"
    assert "3,300 gpm" in verdict.sentence and "July 2019" in verdict.sentence


def test_a_look_back_that_overlaps_the_asked_window_is_not_an_earlier_period() -> None:
    asked = window("Chiller 6", "Supply Temperature", 43.4, "degF",
                   period=(datetime(2019, 8, 1, tzinfo=UTC), datetime(2019, 8, 21, tzinfo=UTC)))
    around = window("Chiller 6", "Supply Temperature", 43.3, "degF", ident="artifact_dc_around",
                    period=(datetime(2019, 7, 24, tzinfo=UTC), datetime(2019, 8, 21, tzinfo=UTC)))
    assert period_verdict("supply temp creeping up too over the same stretch?", [around], [asked]) is None


def test_no_comparative_word_or_no_second_period_gives_no_period_verdict() -> None:
    now = window("Chiller 6", "Chiller Efficiency", 0.50, "kW/ton")
    assert period_verdict("Was its kW/ton better a year earlier?", [now], []) is None
    before = window("Chiller 6", "Chiller Efficiency", 0.47, "kW/ton", period=AUG_2018)
    assert period_verdict("What was its kW/ton?", [now, before], []) is None


def test_several_named_sensors_are_left_side_by_side_not_ranked_on_one() -> None:
    found = [window(f"Chiller {n}", "Chiller Efficiency", v, "kW/ton") for n, v in ((3, 0.46), (9, 0.43))]
    assert sensor_ranking("tonnage, % load and kw/ton side by side for ch3 and ch9", found) is None
    assert asked_sensors("tonnage, % load and kw/ton side by side") == ["Chiller Efficiency", "Chiller % Loaded",
                                                                        "Tonnage"]


def test_a_comparison_with_no_word_of_time_is_not_read_as_two_periods() -> None:
    now = window("Chiller 6", "Supply Temperature", 46.0, "degF")
    before = window("Chiller 6", "Supply Temperature", 44.0, "degF", period=AUG_2018)
    assert period_verdict("Is the supply temperature higher than it should be?", [now], [before]) is None
    found = period_verdict("Is the supply temperature higher than last year?", [now], [before])
    assert found is not None and found.answer == "Yes"


def test_kw_per_ton_is_efficiency_and_a_fault_word_is_not_a_measure() -> None:
    from graph.answering.asked_figures import names_measure
    assert asked_sensors("Our kW per ton across the plant looks ugly") == ["Chiller Efficiency"]
    assert not names_measure("which one has been losing refrigerant?", "Liquid Refrigerant Evaporator Temperature")
    assert names_measure("evap approach on ch9?", "Liquid Refrigerant Evaporator Temperature")


def test_a_pick_by_a_named_measure_ranks_worst_first_even_when_the_average_is_dragged_down() -> None:
    from graph.answering.asked_figures import sensor_ranking
    found = [window("Chiller 3", "Chiller Efficiency", 0.43, "kW/ton"),
             window("Chiller 4", "Chiller Efficiency", 0.49, "kW/ton")]
    ranked = sensor_ranking("kW per ton is ugly. Which machine is dragging the average down?", found, measure_only=True)
    assert ranked is not None and ranked.first == "Chiller 4"
    assert sensor_ranking("which one has been losing refrigerant?",
                          [window("Chiller 3", "Liquid Refrigerant Evaporator Temperature", 42.4, "degF"),
                           window("Chiller 4", "Liquid Refrigerant Evaporator Temperature", 41.9, "degF")],
                          measure_only=True) is None


def test_how_to_do_the_repair_leads_with_the_fix_and_ends_with_the_validation() -> None:
    diagnosis = art("diagnose", {"hypotheses": [{"failure_mode": "Condenser Water side fouling", "probability": 0.9,
                                                 "bounds": [0.85, 0.97], "confirm_by": "condenser approach check"}]},
                    asset="Chiller 4")
    protocol = art("validation_protocol", {"steps": ["Run 7 days", "Compare sensors"]}, asset="Chiller 4")
    lead = shaped_lead(AnswerInputs(shape="how_to", scope="asset", question="How should I go about the cleaning?",
                                    artifacts=[protocol, diagnosis]))
    assert lead is not None and lead.first.startswith("To deal with Condenser Water side fouling")
    assert any("validate the repair" in line for line in lead.lines)
    validating = shaped_lead(AnswerInputs(shape="how_to", scope="asset", question="How do we validate the repair?",
                                          artifacts=[protocol, diagnosis]))
    assert validating is not None and validating.first.startswith("To validate the repair")


def test_what_the_work_order_would_say_shows_the_order_without_filing_it() -> None:
    from graph.answering.recommend import recommend
    diagnosis = art("diagnose", {"hypotheses": [{"failure_mode": "Condenser Water side fouling", "probability": 0.9,
                                                 "bounds": [0.85, 0.97]}]}, asset="Chiller 6")
    advice = recommend("Don't file anything yet - just tell me what the work order would say.", [diagnosis], None)
    assert advice.sentence.startswith("The work order would read:") and "Chiller 6" in advice.sentence
    assert "nothing is filed" in advice.sentence and "draft it" in advice.offer


def test_which_of_two_periods_is_healthier_picks_the_lower_kw_per_ton() -> None:
    found = [window("Chiller 4", "Chiller Efficiency", 0.46, "kW/ton", period=AUG_2018),
             window("Chiller 4", "Chiller Efficiency", 0.44, "kW/ton", period=AUG_2019)]
    lead = shaped_lead(AnswerInputs(shape="which", scope="asset", question="Which of the two months looks healthier?",
                                    artifacts=found))
    assert lead is not None and lead.first.startswith("August 2019 looks healthier")
    worse = shaped_lead(AnswerInputs(shape="which", scope="asset", question="Which month was worse?", artifacts=found))
    assert worse is not None and worse.first.startswith("August 2018 looks worse")
    bare = shaped_lead(AnswerInputs(shape="which", scope="asset", question="whch was worse", artifacts=found))
    assert bare is not None and bare.first.startswith("August 2018 looks worse")  # nothing named: the periods read


def test_a_pick_between_causes_is_not_a_pick_between_periods() -> None:
    from graph.answering.asked_figures import period_pick
    found = [window("Chiller 9", "Liquid Refrigerant Evaporator Temperature", 39.7, "degF", period=AUG_2018),
             window("Chiller 9", "Liquid Refrigerant Evaporator Temperature", 42.4, "degF", period=AUG_2019)]
    assert period_pick("ch9's evap approach has been widening for weeks now. fouling or refrigerant?", found) is None


def test_a_failure_code_reads_only_the_parts_it_has() -> None:
    from datetime import datetime as dt

    from specialists.maintenance.drafting import code_text, draft_work_order
    draft = draft_work_order(equipment_id="CWC04704", asset_id="Chiller 4", failure_mode="Condenser Water side fouling",
                             confidence=0.9, evidence=[], existing=[], now=dt(2021, 6, 1))
    assert "None" not in code_text(draft) and code_text(draft).startswith("failure code ")
    inspection = draft_work_order(equipment_id="CWC04704", asset_id="Chiller 4", failure_mode=None, confidence=None,
                                  evidence=[], existing=[], now=dt(2021, 6, 1), work="inspect the compressor")
    assert "no failure code" in code_text(inspection)


def _window(asset: str, supply: float, setpoint: float, running: bool = True) -> Artifact:
    def entry(value: float) -> dict[str, object]:
        return {"mean": value, "running_mean": value if running else None, "count": 10, "unit": "degF"}
    return art("telemetry_window", {"stats": {f"{asset} Supply Temperature": entry(supply),
                                              f"{asset} Setpoint Temperature": entry(setpoint)}},
               asset=asset, producer="data", id=f"artifact_dc_{asset[-1]}")


def test_chillers_are_ranked_on_their_supply_above_their_own_setpoint_and_idle_ones_left_out() -> None:
    from graph.answering.asked_figures import setpoint_offset_ranking

    windows = [_window("Chiller 9", 44.0, 44.0), _window("Chiller 6", 43.6, 43.0), _window("Chiller 4", 69.8, 44.0,
                                                                                          running=False)]
    ranked = setpoint_offset_ranking("the leaving chilled water keeps drifting above setpoint, which one?", windows)
    assert ranked is not None and ranked.first == "Chiller 6"
    assert "+0.6 degF" in ranked.headline and any("Chiller 4: not running" in line for line in ranked.lines)
    assert setpoint_offset_ranking("which one has the highest supply temperature?", windows) is None


def test_a_reading_is_held_against_the_level_the_question_names() -> None:
    from graph.answering.asked_figures import level_sentence
    from tests.unit.answering.builders import window

    reads = [window(f"Chiller {n}", "2020-09-03", "2020-09-10", {"Chiller % Loaded": (load, "%")})
             for n, load in ((3, 58.0), (6, 45.0), (9, 57.0))]
    found = level_sentence("any chillers running below 30% load most of last week?", reads)
    assert found is not None and found[:2] == (
        "No", "No, none went below 30% (mean while running): the lowest was Chiller 6 at 45%.")
    above = level_sentence("were any of them over 50% load?", reads)
    assert above is not None and above[1] == "Yes, Chiller 3 (58%) and Chiller 9 (57%) were above 50% (mean while running)."
    assert level_sentence("how was the load last week?", reads) is None


@pytest.mark.parametrize(("question", "sensor"), [("ch4 evap temps look low to me", "Liquid Refrigerant Evaporator Temperature"),
                                                  ("what are its amps doing?", "Power Input")])
def test_everyday_names_of_readings_are_read(question: str, sensor: str) -> None:
    from graph.answering.asked_figures import asked_sensors

    assert asked_sensors(question) == [sensor]


def test_what_a_rule_means_is_its_name_then_where_it_fired() -> None:
    from graph.answering.asked_figures import rule_meaning_sentence
    nine = alerts("CWC04009", [("RUL0018", "Evaporator Approach High", 31), ("RUL0017", "Load Low", 5)])
    six = alerts("CWC04006", [("RUL0017", "Load Low", 9)])
    said = rule_meaning_sentence("what does RUL0018 mean?", [nine, six])
    assert said == ("RUL0018 is the Evaporator Approach High alert rule (Chiller - Evaporator Approach High); it fired "
                    "31 times, all on CWC04009.")
    assert rule_meaning_sentence("what does that mean?", [nine, six]) is None


def test_kw_per_t_is_efficiency_and_a_tower_visit_names_no_reading() -> None:
    assert asked_sensors("the tower contractor was in last week. ch4 kw/t in may looked ugly") == ["Chiller Efficiency"]
    assert "Condenser Water" in asked_sensors("tower return temp on 6?")


def test_was_the_supply_holding_setpoint_is_yes_within_a_degree_and_no_naming_the_one_off() -> None:
    from graph.answering.asked_figures import setpoint_held
    from tests.unit.answering.builders import window

    held = [window(f"Chiller {n}", "2020-07-01", "2020-08-01", {"Supply Temperature": (s, "degF"),
                                                              "Setpoint Temperature": (44.0, "degF")})
            for n, s in ((3, 44.2), (4, 44.0))]
    found = setpoint_held("Was the CHWST holding setpoint in July?", held)
    assert found is not None and found[0] == "Yes" and found[1].startswith("Yes, the chilled-water supply held setpoint")
    warm = [*held[:1], window("Chiller 6", "2020-07-01", "2020-08-01", {"Supply Temperature": (46.5, "degF"),
                                                                      "Setpoint Temperature": (44.0, "degF")})]
    found = setpoint_held("did they hold setpoint in july?", warm)
    assert found is not None and found[0] == "No" and "Chiller 6 ran 2.5 degF above it" in found[1]
    assert setpoint_held("what was the supply temp in july?", held) is None


def test_a_window_a_narrower_reading_was_cut_from_gives_no_figure_of_its_own() -> None:
    from tests.unit.answering.builders import window
    days = window("Chiller 9", "2019-07-23", "2019-07-25", {"Power Input": (250.3, "kW")}, id="days")
    hour = art("point_values", {"values": {}}, asset="Chiller 9", producer="data", id="hour",
               start=datetime(2019, 7, 23, 18, 15, tzinfo=UTC), end=datetime(2019, 7, 23, 19, 15, tzinfo=UTC))
    assert asked_figure_lines("what was it pulling in kw the hour before it dropped", [hour, days]) == []
    lines = asked_figure_lines("what was it pulling in kw over those days", [days])
    assert len(lines) == 1 and "250.3 kW" in lines[0]


def test_the_failure_codes_a_rule_points_at_come_first_then_where_it_fired() -> None:
    from graph.answering.asked_figures import rule_codes_sentence
    nine = alerts("CWC04009", [("RUL0022", "Chiller Cycling", 40), ("RUL0017", "Load Low", 12)])
    nine.results["rule_failure_codes"] = {"RUL0022": ["CS007 Overactive Control Logic", "CS005 Control System "
                                                                                        "Malfunction"],
                                          "RUL0017": ["CS007 Overactive Control Logic", "OP001 Process Upset"]}
    said = rule_codes_sentence("which failure codes is that rule tied to?", [nine])
    assert said is not None and said.startswith("RUL0022 Chiller Cycling points at CS007 Overactive Control Logic and "
                                                "CS005 Control System Malfunction")
    assert "it fired 40 times on CWC04009" in said
    named = rule_codes_sentence("what codes do the load low alarms map to?", [nine])
    assert named is not None and named.startswith("RUL0017 Load Low points at CS007")
    nine.results["asked_rules"] = ["RUL0017"]  # the rule the dialog asked about, when none is named
    asked = rule_codes_sentence("what failure codes do those alerts usually point at?", [nine])
    assert asked is not None and asked.startswith("RUL0017")
    assert rule_codes_sentence("how many alerts did it log?", [nine]) is None
