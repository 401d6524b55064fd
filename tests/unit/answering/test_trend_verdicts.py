"""Yes/no on change over time ("is it getting worse?") from the trend statistics' level changes."""

from __future__ import annotations

import pytest

from graph.answering.trend_verdicts import worsening_verdict
from graph.answering.verdicts import yes_no_verdict
from tests.unit.answering.builders import art


def trends(asset: str, **drifts: tuple[float, float]) -> object:
    """A trend_stats artifact: sensor -> (drift, z), sensor names with underscores for spaces."""
    per_sensor = {name.replace("_", " "): {"sensor": name.replace("_", " "), "drift": d, "drift_z": z, "flags": []}
                  for name, (d, z) in drifts.items()}
    return art("trend_stats", {"per_sensor": per_sensor}, asset=asset)


def test_a_reading_still_moving_its_bad_way_is_getting_worse() -> None:
    found = trends("Chiller 9", Liquid_Refrigerant_Evaporator_Temperature=(-0.9, -6.8), Chiller_Efficiency=(0.01, 0.4))
    verdict = worsening_verdict([found], "is it getting worse?")  # type: ignore[list-item]
    assert verdict is not None and verdict.answer == "Yes"
    assert "liquid refrigerant evaporator temperature -0.90" in verdict.sentence


def test_a_reading_moving_its_good_way_is_not_getting_worse_and_is_getting_better() -> None:
    found = trends("Chiller 4", Chiller_Efficiency=(-0.05, -4.0))
    assert worsening_verdict([found], "is it getting worse?").answer == "No"  # type: ignore[list-item,union-attr]
    assert worsening_verdict([found], "is it improving?").answer == "Yes"  # type: ignore[list-item,union-attr]


@pytest.mark.parametrize("question", ["is it getting worse?", "is it getting any better?"])
def test_steady_readings_answer_no_either_way(question: str) -> None:
    found = trends("Chiller 4", Chiller_Efficiency=(0.001, 0.5), Power_Input=(2.0, 1.1))
    verdict = worsening_verdict([found], question)  # type: ignore[list-item]
    assert verdict is not None and verdict.answer == "No" and "held steady" in verdict.sentence


def test_a_reading_without_a_bad_direction_counts_when_it_keeps_moving() -> None:
    found = trends("Chiller 4", Return_Temperature=(13.8, 8.8))
    assert worsening_verdict([found], "still drifting?").answer == "Yes"  # type: ignore[list-item,union-attr]


def test_a_question_not_about_change_over_time_is_left_to_the_other_families() -> None:
    found = trends("Chiller 4", Return_Temperature=(13.8, 8.8))
    assert worsening_verdict([found], "is it ok?") is None  # type: ignore[list-item]
    assert yes_no_verdict("is it getting worse?", [found]).answer == "Yes"  # type: ignore[list-item]
