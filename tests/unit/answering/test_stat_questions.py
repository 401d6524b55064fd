"""A statistic other than the mean leads when the question asks it: the peak or low of a reading, run time."""

from datetime import UTC, datetime

from graph.answering.stat_questions import extreme_sentence, run_time_sentence
from tests.unit.answering.builders import art

JUNE = {"start": datetime(2021, 6, 1, 4, tzinfo=UTC), "end": datetime(2021, 7, 1, 4, tzinfo=UTC)}


def _window() -> object:
    stats = {"Chiller 4 Tonnage": {"mean": 208.9, "running_mean": 383.8, "min": 0.0, "max": 591.4, "unit": "tons"}}
    return art("telemetry_window", {"stats": stats, "running_share": 0.54}, asset="Chiller 4", producer="data", **JUNE)


def test_the_peak_of_the_named_reading_leads() -> None:
    assert extreme_sentence("what's the peak tonnage it hit in that month?", [_window()]) == (  # type: ignore[list-item]
        "Chiller 4 peaked at 591.4 tons of tonnage in June 2021 (383.8 tons on average while running).")
    assert extreme_sentence("what was its tonnage?", [_window()]) is None  # type: ignore[list-item]


def test_run_hours_are_the_running_share_of_the_window() -> None:
    assert run_time_sentence("how many hours did chiller 4 run last month?", [_window()]) == (  # type: ignore[list-item]
        "Chiller 4 ran about 389 hours in June 2021 (54% of the time, 16.2 days).")
    assert run_time_sentence("how did it run?", [_window()]) is None  # type: ignore[list-item]
