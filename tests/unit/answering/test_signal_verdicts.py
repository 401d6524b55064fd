"""Yes/no on the instruments and the models: sensors that look off, a tuned model against the base one."""

import pytest

from artifacts.model import Artifact
from graph.answering.signal_verdicts import forecast_verdict, sensor_health_verdict
from graph.answering.verdicts import yes_no_verdict
from tests.unit.answering.builders import art

DRIFT = "Return Temperature moved +0.71 degF at equal load (z +2.9) while 0 of its coupled temperatures followed"


def trends(flags: dict[str, list[str]], alone: list[str]) -> Artifact:
    per_sensor = {s: {"sensor": s, "flags": f, "missing_pct": 0.0, "longest_flat_hours": 0.0} for s, f in flags.items()}
    return art("trend_stats", {"per_sensor": per_sensor, "moved_alone": alone}, asset="Chiller 4",
               summary="Chiller 4 sensor health: stuck or missing: none; moved on its own: ...")


def test_a_sensor_that_moved_on_its_own_looks_off() -> None:
    found = trends({"Return Temperature": ["drift"], "Tonnage": []}, [DRIFT])
    verdict = yes_no_verdict("do any of chiller 4's sensors look off over the past 6 months?", [found])
    assert verdict.answer == "Yes" and verdict.sentence == f"Yes, Chiller 4 {DRIFT}."
    assert sensor_health_verdict([found], "Do its sensors look fine?").answer == "No"  # type: ignore[union-attr]


def test_stuck_sensors_are_off_and_shared_level_changes_are_not() -> None:
    stuck = trends({"Condenser Water Flow": ["stuck"], "Power Input": ["trend"]}, [])
    verdict = sensor_health_verdict([stuck], "is any sensor broken?")
    assert verdict is not None and verdict.sentence == "Yes, Chiller 4 Condenser Water Flow (stuck)."
    shared = trends({"Power Input": ["drift"], "Tonnage": ["drift"]}, [])  # moved together: the process, not a sensor
    clean = sensor_health_verdict([shared], "any bad readings?")
    assert clean is not None and clean.answer == "No"
    assert sensor_health_verdict([shared], "is the chiller okay?") is None  # not a question about sensors


def test_a_tuned_model_does_better_when_its_error_is_lower() -> None:
    def scored(tuned: float, base: float) -> Artifact:
        return art("evaluate_forecast", {"ckpt_tuned": [{"target": "Chiller 3 Tonnage", "pairs": 288, "mae": tuned}],
                                         "ttm_96_28": [{"target": "Chiller 3 Tonnage", "pairs": 288, "mae": base}],
                                         "model_checkpoint": "ckpt_tuned", "source": "artifact_dc_1"}, asset="Chiller 3")
    verdict = forecast_verdict([scored(41.2, 55.0)], "would a tuned model do better?")
    assert verdict is not None and verdict.sentence == ("Yes, the tuned model's error is lower: MAE 41.2 against 55.0 "
                                                        "for the base model (ttm_96_28) on Chiller 3.")
    assert forecast_verdict([scored(55.0, 54.5)], "does the error improve?").answer == "No"  # type: ignore[union-attr]


def test_no_forecast_verdict_when_only_the_base_model_was_scored() -> None:
    base_only = art("evaluate_forecast", {"ttm_96_28": [{"target": "Chiller 3 Tonnage", "pairs": 288, "mae": 55.0}],
                                          "model_checkpoint": None}, asset="Chiller 3",
                    summary="Chiller 3 2020-01-01..2021-01-01 with ttm_96_28: MAE 55.000, bias +1.000.")
    assert forecast_verdict([base_only], "would a tuned model do better?") is None
    verdict = yes_no_verdict("would a tuned model do better on its tonnage?", [base_only])
    assert verdict.sentence.startswith("Not clearly from this alone: Chiller 3 2020-01-01..2021-01-01 with ttm_96_28")


def test_a_forecast_is_held_against_the_level_the_question_names() -> None:
    from graph.answering.signal_verdicts import forecast_threshold_verdict


    per_target = {"Chiller 9 Power Input": {"from": "2021-06-15T00:00:00-04:00", "to": "2021-06-17T00:00:00-04:00",
                                            "first": 120.0, "last": 180.0, "min": 2.0, "max": 312.4, "mean": 150.0,
                                            "direction": "rising"}}
    found = art("forecast", {"per_target": per_target}, asset="Chiller 9")
    above = forecast_threshold_verdict([found], "will ch9 need more than 300 kW tomorrow afternoon?")
    assert above is not None and above.sentence == (
        "Yes, the forecast peak of Chiller 9 power input is 312.4 between 2021-06-15 00:00 and 2021-06-17 00:00, "
        "above 300 kW.")
    under = forecast_threshold_verdict([found], "will its power stay over 350 kW?")
    assert under is not None and under.answer == "No"
    assert forecast_threshold_verdict([found], "will the load top 80%?") is None  # load was not forecast


@pytest.mark.parametrize(("mae", "lead"), [(20.0, "Not needed"), (96.8, "Worth trying"), (300.0, "Yes, worth it")])
def test_is_fine_tuning_worth_it_is_read_from_how_far_the_base_model_misses(mae: float, lead: str) -> None:
    from graph.answering.shapes import AnswerInputs, shaped_lead


    scored = art("evaluate_forecast", {"ttm_96_28": [{"target": "Chiller 9 Tonnage", "pairs": 288, "mae": mae}],
                                       "actual_means": {"Chiller 9 Tonnage": 613.2}, "model_checkpoint": None},
                 asset="Chiller 9")
    advice = shaped_lead(AnswerInputs(shape="recommend", scope="asset", artifacts=[scored],
                                      question="is it worth fine tuning the model on 9's own data before we trust that?"))
    assert advice is not None and advice.first.startswith(f"{lead}: the forecast is")
