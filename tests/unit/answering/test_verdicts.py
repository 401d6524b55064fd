"""Yes/no answers are decided from the evidence: "Yes", "No" or "Not clearly" first."""

from datetime import UTC, datetime

from graph.answering.verdicts import (
    anomaly_verdict,
    breakdown_trend_verdict,
    failure_mode_verdict,
    sensor_validity_verdict,
    yes_no_verdict,
)
from tests.unit.answering.builders import anomaly, art, diagnosis, work_orders


def test_rising_corrective_orders_answer_yes_with_the_series() -> None:
    verdict = breakdown_trend_verdict(
        [work_orders("Chiller 6", {"2016": 1, "2017": 2, "2018": 4, "2019": 7, "2020": 11}, 2.5)],
        "Are breakdowns getting more frequent?")
    assert verdict is not None and verdict.answer == "Yes"
    assert verdict.sentence == ("Yes, breakdowns are getting more frequent: 1, 2, 4, 7, 11 corrective orders a "
                                "year 2016-2020.")


def test_the_year_under_way_is_said_beside_the_complete_years() -> None:
    from tests.unit.answering.builders import day
    years = work_orders("Chiller 6", {"2017": 4, "2018": 7, "2019": 11}, 3.5, id="y")
    so_far = art("work_order_summary", {"total": 30, "corrective": 12, "corrective_per_year": {}, "partial_year": None},
                 asset="Chiller 6", producer="maintenance", id="p", start=day("2020-01-01"), end=day("2020-11-21"))
    verdict = breakdown_trend_verdict([years, so_far], "is corrective work trending up?")
    assert verdict is not None and verdict.answer == "Yes"
    assert verdict.sentence.endswith("4, 7, 11 corrective orders a year 2017-2019; 12 so far in 2020.")


def test_a_whole_year_listed_while_it_is_under_way_counts_as_that_year_so_far() -> None:
    from tests.unit.answering.builders import day
    years = work_orders("Chiller 6", {"2016": 2, "2017": 4, "2018": 7}, 2.5, id="y")
    this_year = art("work_order_summary", {"total": 10, "corrective": 10, "corrective_per_year": {},
                                           "partial_year": "2019", "partial_year_corrective": 10},
                    asset="Chiller 6", producer="maintenance", id="p", start=day("2019-01-01"), end=day("2020-01-01"))
    verdict = breakdown_trend_verdict([years, this_year], "and 2019 so far")
    assert verdict is not None
    assert verdict.sentence.endswith("2, 4, 7 corrective orders a year 2016-2018; 10 so far in 2019.")


def test_steady_corrective_orders_answer_no() -> None:
    verdict = breakdown_trend_verdict([work_orders("Chiller 6", {"2019": 3, "2020": 3}, 0.0)], "more breakdowns?")
    assert verdict is not None and verdict.sentence.startswith("No, breakdowns are roughly steady")


def test_one_year_of_orders_is_not_clear() -> None:
    verdict = breakdown_trend_verdict([work_orders("Chiller 6", {"2020": 3}, None)], "")  # type: ignore[arg-type]
    assert verdict is not None and verdict.answer == "Not clearly"


def test_anomaly_share_against_the_false_alarm_rate() -> None:
    assert anomaly_verdict([anomaly("Chiller 6", 0.31)], "Is anything abnormal?").answer == "Yes"  # type: ignore[union-attr]
    assert anomaly_verdict([anomaly("Chiller 6", 0.03)], "Is anything abnormal?").answer == "No"  # type: ignore[union-attr]
    # up to twice the nominal rate is what the detector flags on fault-free data: no finding, the figure said
    slight = anomaly_verdict([anomaly("Chiller 6", 0.07)], "Anything odd?")
    assert slight is not None and slight.answer == "No" and "slightly above" in slight.sentence


def test_a_health_question_flips_the_answer() -> None:
    verdict = anomaly_verdict([anomaly("Chiller 6", 0.03)], "Is Chiller 6 running normally?")
    assert verdict is not None and verdict.sentence.startswith("Yes, nothing abnormal stands out")


def test_named_failure_mode_that_leads_is_yes() -> None:
    diag = diagnosis("Chiller 6", ("Condenser Water side fouling", 0.75, 0.85), ("Refrigerant leak", 0.1, 0.2))
    verdict = failure_mode_verdict([diag], "is it condenser fouling?")
    assert verdict is not None and verdict.sentence.startswith("Yes, Condenser Water side fouling is the most likely")


def test_named_failure_mode_far_behind_is_no() -> None:
    diag = diagnosis("Chiller 6", ("Condenser Water side fouling", 0.75, 0.85), ("Refrigerant leak", 0.1, 0.2))
    verdict = failure_mode_verdict([diag], "could it be a refrigerant leak?")
    assert verdict is not None and verdict.answer == "No"
    assert "most likely cause on Chiller 6 is Condenser Water side fouling" in verdict.sentence


def test_a_named_mode_is_not_answered_with_another_mode_of_the_same_kind() -> None:
    # "fouling" is shared with evaporator fouling, but the question asks about the condenser
    diag = diagnosis("Chiller 6", ("Temperature Sensor: Calibration drift", 0.72, 0.87),
                     ("Evaporator Water side fouling", 0.0, 0.15))
    verdict = yes_no_verdict("is the condenser fouling then?", [diag], [diag])
    assert verdict is not None and verdict.answer == "No"
    assert verdict.sentence.startswith("No, Condenser Water side fouling is not among the likely causes")
    fouled = yes_no_verdict("is it fouled?", [diag], [diag])  # names both sides: the ranked one answers
    assert fouled is not None and "Evaporator Water side fouling is less likely" in fouled.sentence


def test_sensor_drift_question() -> None:
    validity = art("sensor_validity", {"verdicts": [{"sensor": "Supply Temperature", "verdict": "sensor_drift",
                                                     "shift": 1.5, "followers": []}]}, producer="failure")
    assert sensor_validity_verdict([validity], "Is the supply sensor drifting?").answer == "Yes"  # type: ignore[union-attr]
    assert sensor_validity_verdict([validity], "Is the drift real?").answer == "No"  # type: ignore[union-attr]


def test_no_fitting_evidence_opens_with_the_turns_finding_not_with_a_sentence_about_it() -> None:
    forecast = art("forecast", {"per_target": {}}, summary="Chiller 6 kW/ton forecast: 0.48 to 0.52 over 28 days; "
                                                           "trend rising")
    verdict = yes_no_verdict("Is it worth it?", [forecast])
    assert verdict.answer == "Not clearly"
    assert verdict.sentence == "Not clearly from this alone: Chiller 6 kW/ton forecast: 0.48 to 0.52 over 28 days."
    bare = yes_no_verdict("Is it worth it?", [art("forecast", {"per_target": {}})])
    assert bare.sentence.startswith("Not clearly from this alone: the forecast of Chiller 6")
    assert yes_no_verdict("Is it worth it?", []).sentence == "Not clearly: this turn produced no evidence that settles it."


def test_the_fallback_prefers_a_finding_to_raw_telemetry_or_a_plan() -> None:
    protocol = art("validation_protocol", {"steps": ["Run it for 7 days"]}, summary="Post-repair validation of "
                   "Chiller 6: 5 steps")
    rate = anomaly("Chiller 6", 0.09, summary="Chiller 6 power input was off its expected relation on 9.0% of samples")
    verdict = yes_no_verdict("Has it got worse every year?", [protocol, rate])
    assert verdict.sentence == ("Not clearly from this alone: Chiller 6 power input was off its expected relation on "
                                "9.0% of samples.")


def test_named_mode_prefers_the_diagnosis_over_anomalies() -> None:
    diag = diagnosis("Chiller 6", ("Condenser Water side fouling", 0.75, 0.85))
    verdict = yes_no_verdict("So is it condenser fouling?", [anomaly("Chiller 6", 0.31), diag])
    assert "fouling" in verdict.sentence


def test_a_work_order_question_without_frequency_words_asks_whether_there_is_one() -> None:
    from artifacts.model import Artifact
    from graph.answering.verdicts import yes_no_verdict

    listing = Artifact(id="artifact_mp_1", session_id="s", turn_index=1, producer="maintenance",
                       kind="work_order_summary", asset_ids=["Chiller 4"], summary="2 corrective work orders",
                       results={"total": 2, "corrective": 2, "corrective_per_year": {"2019": 1, "2020": 1}, "corrective_trend_per_year": 0.0,
                                "recent": [{"wo_id": "WO156507", "date": "2021-05-02", "code": "M013",
                                            "description": "Condenser Plugged"}]})
    verdict = yes_no_verdict("was a work order raised for it?", [listing])
    assert verdict.answer == "Yes" and "WO156507" in verdict.sentence
    frequency = yes_no_verdict("are breakdowns getting more frequent?", [listing])
    assert frequency.answer == "No" and "steady" in frequency.sentence  # the frequency question reads the trend
    empty = Artifact(id="artifact_mp_2", session_id="s", turn_index=1, producer="maintenance",
                     kind="work_order_summary", asset_ids=["Chiller 4"], summary="No corrective work orders",
                     results={"total": 0})
    assert yes_no_verdict("any WO?", [empty]).answer == "No"


def test_a_telemetry_comparison_shows_every_shared_sensor_with_units() -> None:
    from artifacts.model import Artifact
    from graph.answering.fleet_ranking import compare_assets

    def window(asset: str, power: float, kwt: float, flow: float) -> Artifact:
        stats = {f"{asset} Power Input": {"running_mean": power, "unit": "kW"},
                 f"{asset} Chiller Efficiency": {"running_mean": kwt, "unit": "kW/ton"},
                 f"{asset} Condenser Water Flow": {"running_mean": flow, "unit": "gpm"}}
        return Artifact(id=f"artifact_dc_{asset[-1]}", session_id="s", turn_index=1, producer="data",
                        kind="telemetry_window", asset_ids=[asset], summary="", results={"stats": stats})

    comparison = compare_assets([window("Chiller 6", 268.7, 0.41, 1950.0), window("Chiller 9", 273.9, 0.43, 1537.5)])
    assert comparison is not None and comparison.headline.startswith("Chiller 9 runs least efficiently")
    text = "\n".join(comparison.lines)
    assert "| Asset | Power Input | Efficiency | Condenser Water Flow |" in text
    assert "273.9 kW" in text and "1,538 gpm" in text and "0.41 kW/ton" in text


def test_safe_is_a_health_word_so_a_finding_means_no() -> None:
    from graph.answering.diagnosis_verdicts import health_verdict

    flagged = anomaly("Chiller 9", 0.162)
    verdict = yes_no_verdict("Is it safe to keep running it through August?", [flagged])
    assert verdict.answer == "No" and verdict.sentence.startswith("No, Chiller 9 shows abnormal behaviour (16.2%")
    calm = yes_no_verdict("Is it safe to keep running it through August?", [anomaly("Chiller 9", 0.03)])
    assert calm.answer == "Yes" and calm.sentence.startswith("Yes, nothing abnormal stands out on Chiller 9: 3.0% of running")
    for question in ("Is it okay?", "Is it fine to leave it?", "Is Chiller 9 healthy?", "Is it running normally?"):
        assert health_verdict([flagged], question).answer == "No"  # type: ignore[union-attr]
    # the anomaly family flips the same way when asked on its own
    assert anomaly_verdict([flagged], "Is it safe to run?").answer == "No"  # type: ignore[union-attr]


def test_an_opening_ok_is_a_reply_not_a_health_question() -> None:
    verdict = yes_no_verdict("OK, is anything abnormal on it?", [anomaly("Chiller 9", 0.31)])
    assert verdict.answer == "Yes" and "abnormal" in verdict.sentence


def test_a_likely_fault_or_a_trip_makes_a_health_question_no() -> None:
    diag = diagnosis("Chiller 9", ("Condenser Water side fouling", 0.75, 0.85), ("No fault: normal operation", 0.1, 0.2))
    verdict = yes_no_verdict("Is it safe to keep running?", [anomaly("Chiller 9", 0.03), diag])
    assert verdict.answer == "No" and "most likely has Condenser Water side fouling (0.80)" in verdict.sentence
    healthy = diagnosis("Chiller 9", ("No fault: normal operation", 0.8, 0.9))
    assert yes_no_verdict("Is Chiller 9 fine?", [healthy]).answer == "Yes"
    weak = diagnosis("Chiller 9", ("Purge Unit Excessive purge", 0.3, 0.4))
    assert yes_no_verdict("Is Chiller 9 fine?", [weak]).answer == "Not clearly"


def test_a_trip_is_answered_from_the_diagnosis_not_from_an_anomaly_share() -> None:
    tripped = art("diagnose", {"hypotheses": [{"failure_mode": "Control Panel: Electrical failure (safety trip)",
                                               "probability": 0.97}], "trip_time": "2019-07-23T15:15:00"},
                  asset="Chiller 9", producer="failure")
    verdict = yes_no_verdict("Did it trip last month?", [anomaly("Chiller 9", 0.31), tripped])
    assert verdict.sentence == "Yes, Chiller 9 stopped on a safety trip at 2019-07-23 15:15."
    calm = diagnosis("Chiller 9", ("No fault: normal operation", 0.8, 0.9))
    assert yes_no_verdict("Did any chiller trip this summer?", [calm]).answer == "No"
    # without a diagnosis the anomaly share does not claim a trip
    assert yes_no_verdict("Did any chiller trip this summer?", [anomaly("Chiller 9", 0.31)]).answer == "Not clearly"


def test_the_same_thing_compares_the_most_likely_causes_of_two_diagnoses() -> None:
    three = diagnosis("Chiller 3", ("Evaporator Water side fouling", 0.9, 1.0), ("Purge Unit Excessive purge", 0.0, 0.1),
                      id="artifact_fr_3")
    nine = diagnosis("Chiller 9", ("Evaporator Water side fouling", 0.6, 0.8), id="artifact_fr_9")
    same = yes_no_verdict("Is that the same thing Chiller 9 had last year?", [nine], [three, nine])
    assert same.answer == "Yes" and same.sentence.startswith("Yes, the same: Evaporator Water side fouling is the most "
                                                             "likely cause on both Chiller 3")
    other = diagnosis("Chiller 9", ("No fault: normal operation", 0.6, 0.8), ("Evaporator Water side fouling", 0.1, 0.2),
                      id="artifact_fr_9")
    partly = yes_no_verdict("Is that the same thing Chiller 9 had last year?", [other], [three, other])
    assert partly.answer == "Partly" and partly.sentence.startswith("Partly: Evaporator Water side fouling leads on "
                                                                    "Chiller 3")
    healthy = diagnosis("Chiller 9", ("No fault: normal operation", 0.6, 0.8), id="artifact_fr_9")
    no = yes_no_verdict("Is that the same thing Chiller 9 had last year?", [healthy], [three, healthy])
    assert no.answer == "No" and "the diagnosis of Chiller 9" in no.sentence and "found no fault (0.70)" in no.sentence
    assert yes_no_verdict("Is that the same thing Chiller 9 had?", [healthy]).answer != "Partly"  # one case: no compare


def test_a_trend_question_is_not_answered_by_one_anomaly_share() -> None:
    assert anomaly_verdict([anomaly("Chiller 6", 0.31)], "Has it gotten worse every year?") is None
    assert anomaly_verdict([anomaly("Chiller 6", 0.31)], "Is it worse than normal?") is not None


def test_the_fallback_for_several_chillers_leads_with_how_they_compare() -> None:
    found = [anomaly("Chiller 3", 0.04, summary="Chiller 3 efficiency drifted"), anomaly("Chiller 4", 0.31)]
    verdict = yes_no_verdict("Did any chiller at the plant trip this summer?", found)
    assert verdict.sentence == ("Not clearly from this alone: Chiller 4 is highest of Chillers 3 and 4 at 31.0% of "
                                "running samples off its expected power-load relation (1 of 2 stand out).")


def test_breaking_down_is_no_direction_so_more_often_is_not_flipped() -> None:
    rising = work_orders("Chiller 6", {"2017": 4, "2018": 7, "2019": 11, "2020": 14}, 3.4)
    more = yes_no_verdict("is CWC04006 breaking down more often than it used to? look at 2017-2020", [rising])
    assert more.sentence.startswith("Yes, breakdowns are getting more frequent: 4, 7, 11, 14")
    assert yes_no_verdict("Are its breakdowns getting less frequent?", [rising]).answer == "No"
    assert yes_no_verdict("Is it getting better?", [rising]).answer == "No"


def test_alarms_and_anomalies_asked_together_are_both_said_a_yes_first() -> None:
    quiet = art("alert_rules", {"rules": [{"rule_id": "RUL0017", "rule_name": "Chiller - Load Low", "count": 0}]},
                equipment=["CWC04704"], asset="Chiller 4", producer="maintenance")
    verdict = yes_no_verdict("anything abnormal in there? alarms too", [quiet, anomaly("Chiller 4", 0.31)])
    assert verdict.answer == "Yes" and verdict.sentence.startswith("Yes, Chiller 4 shows abnormal behaviour")
    assert "- No, no alert rule fired in this period." in verdict.evidence
    loud = art("alert_rules", {"rules": [{"rule_id": "RUL0017", "rule_name": "Chiller - Load Low", "count": 11}]},
               equipment=["CWC04704"], asset="Chiller 4", producer="maintenance")
    both = yes_no_verdict("anything abnormal in there? alarms too", [loud, anomaly("Chiller 4", 0.03)])
    assert both.sentence == "Yes, 11 alerts fired on CWC04704: RUL0017 Load Low (11)."


def test_breakdowns_getting_worse_is_answered_per_chiller_when_several_were_looked_at() -> None:
    from graph.answering.verdicts import breakdown_trend_verdict
    six = art("work_order_summary", {"corrective_per_year": {"2016": 1, "2017": 2, "2018": 4, "2019": 7},
                                      "corrective_trend_per_year": 2.0},
              asset="Chiller 6", producer="maintenance", id="a6")
    four = art("work_order_summary", {"corrective_per_year": {"2016": 4, "2017": 3, "2018": 4, "2019": 4},
                                       "corrective_trend_per_year": 0.1},
               asset="Chiller 4", producer="maintenance", id="a4")
    verdict = breakdown_trend_verdict([six, four], "has it gotten worse every year?")
    assert verdict is not None and verdict.answer == "Yes"
    assert verdict.sentence.startswith("Yes on Chiller 6, not on Chiller 4")
    assert "1, 2, 4, 7 corrective orders a year" in verdict.sentence


def test_real_or_noise_is_answered_as_the_choice_from_the_diagnosis() -> None:
    from graph.answering.diagnosis_verdicts import real_or_noise_sentence
    from tests.unit.answering.builders import diagnosis
    drift = diagnosis("Chiller 6", ("Temperature Sensor: Calibration drift", 0.7, 0.9), ("Normal operation", 0.1, 0.2))
    drift.results["hypotheses"][0]["evidence_for"] = ["Supply Temperature moved +2.4 degF at equal load"]
    said = real_or_noise_sentence("the alarms on 6, real problem or noise?", [drift])
    assert said is not None and said.startswith("Most likely an instrument problem, not the machine: on Chiller 6")
    assert "Supply Temperature moved" in said
    fouled = diagnosis("Chiller 9", ("Evaporator Water side fouling", 0.9, 1.0))
    assert (real_or_noise_sentence("genuine fault or just nuisance?", [fouled]) or "").startswith("Real: on Chiller 9")
    healthy = diagnosis("Chiller 3", ("Normal operation", 0.8, 0.9), ("Evaporator Water side fouling", 0.0, 0.1))
    assert (real_or_noise_sentence("is it real or noise?", [healthy]) or "").startswith("Noise, most likely")
    assert real_or_noise_sentence("what is the most likely cause?", [fouled]) is None


def test_one_fault_or_two_counts_the_likely_faults_of_the_diagnosis() -> None:
    from graph.answering.diagnosis_verdicts import fault_count_verdict
    both = diagnosis("Chiller 9", ("Evaporator Water side fouling", 0.45, 0.55), ("Purge Unit Excessive purge", 0.3, 0.4))
    two = fault_count_verdict([both], "Is that one fault or two at once?")
    assert two is not None and two.sentence.startswith("Two at once, most likely: on Chiller 9 both")
    one = diagnosis("Chiller 9", ("Evaporator Water side fouling", 0.85, 0.95), ("Purge Unit Excessive purge", 0.0, 0.1))
    single = fault_count_verdict([one], "Is that one fault or two at once?")
    assert single is not None and single.sentence.startswith("One fault, most likely: Evaporator Water side fouling")
    assert fault_count_verdict([one], "is it serious?") is None


def test_still_down_and_back_up_are_read_from_the_latest_samples() -> None:
    from graph.answering.trend_verdicts import running_again_verdict
    from tests.unit.answering.builders import art as built

    off = built("telemetry_window", {"running_share": 0.32, "last_running": "2019-07-23T15:00:00-04:00",
                                     "last_sample": "2019-07-24T23:45:00-04:00"}, asset="Chiller 9", producer="data")
    down = running_again_verdict([off], "ch9 tripped yday, is it still down?")
    assert down is not None and down.answer == "Yes"
    assert down.sentence == ("Yes, Chiller 9 is still off: it last ran at 2019-07-23 15:00 and has sat at idle since, "
                             "to the latest sample at 2019-07-24 23:45.")
    up = running_again_verdict([off], "is it back up now?")
    assert up is not None and up.answer == "No"
    on = built("telemetry_window", {"running_share": 0.44, "last_running": "2019-07-27T23:30:00-04:00",
                                    "last_sample": "2019-07-27T23:45:00-04:00"}, asset="Chiller 9", producer="data")
    assert running_again_verdict([on], "is it still down?").answer == "No"  # type: ignore[union-attr]
    assert running_again_verdict([on], "is it back up now?").answer == "Yes"  # type: ignore[union-attr]


def test_a_reading_still_reporting_nothing_is_read_from_the_latest_read() -> None:
    from graph.answering.trend_verdicts import silent_reading_verdict
    from tests.unit.answering.builders import art as built

    evap = "Chiller 3 Liquid Refrigerant Evaporator Temperature"
    week = built("telemetry_window", {"stats": {evap: {"count": 439, "mean": 42.0}}}, asset="Chiller 3",
                 producer="data", id="w", start=datetime(2018, 8, 10, 4, tzinfo=UTC),
                 end=datetime(2018, 8, 17, 4, tzinfo=UTC))
    today = built("point_values", {"values": {evap: None}}, asset="Chiller 3", producer="data", id="p",
                  start=datetime(2018, 8, 16, 4, tzinfo=UTC), end=datetime(2018, 8, 17, 4, tzinfo=UTC))
    silent = silent_reading_verdict("evap refrig temp still reading nothing?", [week, today], [])
    assert silent is not None and silent.answer == "Yes" and "still reports nothing" in silent.sentence
    back = built("point_values", {"values": {evap: {"mean": 41.0, "count": 96}}}, asset="Chiller 3",
                 producer="data", id="p2", start=datetime(2018, 8, 16, 4, tzinfo=UTC),
                 end=datetime(2018, 8, 17, 4, tzinfo=UTC))
    assert silent_reading_verdict("evap refrig temp still reading nothing?", [week, back], []).answer == "No"  # type: ignore[union-attr]
    assert silent_reading_verdict("what's the evap refrig temp?", [week, today], []) is None
    # the silence told in the scene, the question whether it reports again: a reading that reports is a yes
    again = silent_reading_verdict("the evap refrig temp was blank after the trip. can we trust it again?",
                                   [week, back], [])
    assert again is not None and again.answer == "Yes" and "reporting again" in again.sentence
    still = silent_reading_verdict("the evap refrig temp went blank after the trip. is it back?", [week, today], [])
    assert still is not None and still.answer == "No" and "still reports nothing" in still.sentence


def test_whether_any_sensor_is_offline_is_not_read_as_the_reading_discussed() -> None:
    from graph.answering.trend_verdicts import silent_reading_verdict
    from tests.unit.answering.builders import art as built

    load = "Chiller 3 Chiller % Loaded"
    read = built("telemetry_window", {"stats": {load: {"count": 96, "mean": 50.0}}}, asset="Chiller 3",
                 producer="data", id="w")
    assert silent_reading_verdict("is any sensor on it still offline?", [read], ["Chiller % Loaded"]) is None
