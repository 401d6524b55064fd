"""What changed between two windows: the part a question blames, and whether a repair fixed it."""

from artifacts.model import Artifact
from graph.answering.change_verdicts import attribution_verdict, referred_repair, repair_verdict
from graph.answering.verdicts import yes_no_verdict
from tests.unit.answering.builders import anomaly, art, day, orders, window

CONDENSER = {"Chiller Efficiency": (0.47, "kW/ton"), "Condenser Water Flow": (3300.0, "gpm"),
             "Condenser Water Return To Tower Temperature": (80.5, "degF")}
CLEANING = {"wo_id": "WO143101", "date": "2017-08-29", "code": "MT002", "description": "Evaporator Tube Cleaning"}
UPSET = {"wo_id": "WO143000", "date": "2017-07-22", "code": "OP003", "description": "Biological Fouling"}


def _june(year: int, flow: float, tower: float, kwt: float) -> Artifact:
    return window("Chiller 6", f"{year}-06-01", f"{year}-07-01", {
        "Chiller Efficiency": (kwt, "kW/ton"), "Condenser Water Flow": (flow, "gpm"),
        "Condenser Water Return To Tower Temperature": (tower, "degF")})


def test_the_gap_is_down_to_the_condenser_when_its_readings_moved() -> None:
    earlier, later = _june(2019, 2497.5, 82.0, 0.45), _june(2020, 3300.0, 80.5, 0.47)
    # this turn re-read 2019; 2020 is in the session: one asset's windows are told latest first
    verdict = attribution_verdict("Was the gap down to the condenser?", [earlier], [later, earlier])
    assert verdict is not None and verdict.answer == "Yes"
    assert verdict.sentence == ("Yes, the condenser side differs on Chiller 6: condenser water flow 3,300 gpm in June "
                                "2020 against 2,498 gpm in June 2019 (+32%).")
    assert any(line.startswith("- the gap itself: efficiency 0.47 kW/ton") for line in verdict.evidence)


def test_the_gap_is_not_down_to_a_part_whose_readings_barely_moved() -> None:
    earlier, later = _june(2019, 3280.0, 80.9, 0.45), _june(2020, 3300.0, 80.5, 0.47)
    verdict = yes_no_verdict("Was the difference due to the condenser?", [later], [earlier])
    assert verdict.answer == "No" and verdict.sentence.startswith("No, the condenser readings on Chiller 6 barely moved")


def test_two_assets_over_one_window_are_compared_by_asset() -> None:
    three = window("Chiller 3", "2020-06-01", "2020-07-01", {"Condenser Water Flow": (1950.0, "gpm")})
    nine = window("Chiller 9", "2020-06-01", "2020-07-01", {"Condenser Water Flow": (3301.0, "gpm")})
    verdict = attribution_verdict("Is that because of the condenser?", [three, nine], [])
    assert verdict is not None and verdict.sentence == ("Yes, the condenser side differs: condenser water flow 1,950 "
                                                        "gpm on Chiller 3 against 3,301 gpm on Chiller 9 (-41%).")


def test_no_attribution_without_a_part_or_without_a_second_window() -> None:
    earlier, later = _june(2019, 2497.5, 82.0, 0.45), _june(2020, 3300.0, 80.5, 0.47)
    assert attribution_verdict("Was the gap down to something?", [later], [earlier]) is None
    assert attribution_verdict("Was the gap down to the condenser?", [later], []) is None


def test_the_repair_referred_to_is_the_one_sharing_the_questions_words() -> None:
    listing = orders("Chiller 3", "CWC04703", total=3, corrective=3, start="2017-06-01", end="2017-09-05",
                     recent=[CLEANING, UPSET])
    assert referred_repair("Did the cleaning fix it?", [listing], "Chiller 3").wo_id == "WO143101"  # type: ignore[union-attr]
    assert referred_repair("Did the repair work?", [listing], "Chiller 3").wo_id == "WO143101"  # the latest


def test_a_repair_fixed_it_when_the_anomalies_after_it_are_back_to_normal() -> None:
    listing = orders("Chiller 3", "CWC04703", total=3, corrective=3, start="2017-06-01", end="2017-09-05",
                     recent=[CLEANING, UPSET])
    before = anomaly("Chiller 3", 0.31, start=day("2017-07-01"), end=day("2017-08-29"), id="artifact_ts_before")
    after = anomaly("Chiller 3", 0.04, start=day("2017-08-30"), end=day("2017-09-05"), id="artifact_ts_after")
    verdict = repair_verdict("Did the cleaning fix it?", [after], [listing, before])
    assert verdict is not None and verdict.answer == "Yes"
    assert verdict.sentence == ("Yes, Chiller 3 is back within what the detector flags on healthy data after WO143101 "
                                "(Evaporator Tube Cleaning) on 2017-08-29: 4.0% of running samples flagged against "
                                "31.0% before.")
    still = anomaly("Chiller 3", 0.22, start=day("2017-08-30"), end=day("2017-09-05"), id="artifact_ts_after")
    assert repair_verdict("Did the cleaning fix it?", [still], [listing, before]).answer == "No"  # type: ignore[union-attr]


def test_a_repair_judged_on_kw_per_ton_when_there_are_no_anomaly_results() -> None:
    listing = orders("Chiller 3", "CWC04703", total=3, corrective=3, start="2017-06-01", end="2017-09-05",
                     recent=[CLEANING])
    before = window("Chiller 3", "2017-08-01", "2017-08-29", {"Chiller Efficiency": (0.52, "kW/ton")})
    after = window("Chiller 3", "2017-08-30", "2017-09-05", {"Chiller Efficiency": (0.45, "kW/ton")})
    verdict = repair_verdict("Has it improved since the tube cleaning?", [after], [listing, before])
    assert verdict is not None and verdict.answer == "Yes" and "0.45 kW/ton while running against 0.52" in verdict.sentence


def test_a_plan_is_no_measurement_so_no_verdict_is_claimed() -> None:
    listing = orders("Chiller 9", "CWC04009", total=3, corrective=3, start="2016-01-01", end="2017-01-01",
                     recent=[CLEANING])
    protocol = art("validation_protocol", {"steps": ["Run Chiller 9 for 7 days"]}, asset="Chiller 9",
                   producer="maintenance", summary="Post-repair validation of Chiller 9: 5 steps, thresholds for 8 sensors")
    assert repair_verdict("Did the cleaning fix it?", [protocol], [listing]) is None
    verdict = yes_no_verdict("Did the cleaning fix it?", [protocol], [listing])
    assert verdict.answer == "Not clearly"
    assert verdict.sentence == "Not clearly from this alone: Post-repair validation of Chiller 9: 5 steps, thresholds " \
                               "for 8 sensors."


def test_a_planned_cleaning_the_question_names_is_the_repair_referred_to() -> None:
    planned = {**CLEANING, "preventive": True}
    listing = orders("Chiller 4", "CWC04704", total=2, corrective=1, start="2020-08-11", end="2021-08-11",
                     recent=[planned, UPSET])
    assert referred_repair("They cleaned its tubes in July. Did that fix it?", [listing],
                           "Chiller 4").wo_id == "WO143101"  # type: ignore[union-attr]
    assert referred_repair("Did the repair work?", [listing], "Chiller 4").wo_id == "WO143000"  # corrective only
