""""Is the condenser flow normal over that stretch?" is judged on that reading: its own flagged share and any
sustained shift of it, not the chiller's worst reading."""

from __future__ import annotations

from graph.answering.diagnosis_verdicts import health_verdict
from tests.unit.answering.builders import art


def run(per_sensor: dict[str, float], shifts: list[str] | None = None) -> object:
    entries = {f"Chiller 6 {name}": {"sensor": f"Chiller 6 {name}", "rate": rate} for name, rate in per_sensor.items()}
    return art("anomaly_detection", {"per_sensor": entries, "anomaly_rate": max(per_sensor.values()),
                                     "sustained_shifts": [{"message": m} for m in shifts or []]})


def test_a_named_reading_within_the_healthy_share_is_normal_whatever_the_others_show() -> None:
    found = run({"Condenser Water Flow": 0.046, "Condenser Water Return To Tower Temperature": 0.19},
                ["From 2020-06-03 Chiller 6 Condenser Water Return To Tower Temperature is 3.1 above its relation"])
    verdict = health_verdict([found], "is the condenser flow normal over the same stretch?")  # type: ignore[list-item]
    assert verdict is not None and verdict.answer == "Yes"
    assert "condenser water flow looks normal" in verdict.sentence
    whole = health_verdict([found], "is chiller 6 running normally?")  # type: ignore[list-item]
    assert whole is not None and whole.answer == "No"  # the chiller as a whole: its worst reading counts


def test_a_named_reading_with_a_sustained_shift_is_not_normal() -> None:
    found = run({"Condenser Water Flow": 0.03},
                ["From 2020-06-03 Chiller 6 Condenser Water Flow is 900 below its relation (-27%)"])
    verdict = health_verdict([found], "is the condenser flow normal?")  # type: ignore[list-item]
    assert verdict is not None and verdict.answer == "No" and "sustained shift" in verdict.sentence
