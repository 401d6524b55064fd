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


def _ranking(*rows: tuple[str, float, str]) -> object:
    return art("priority_ranking", {"ranking": [{"asset_id": a, "score": s, "reasons": [r]} for a, s, r in rows]},
               asset=None, producer="maintenance")


def test_a_site_wide_yes_no_names_the_chiller_that_stands_out() -> None:
    from graph.answering.verdicts import fleet_pick_verdict

    ranked = _ranking(("Chiller 4", 45.1, "95.2% of points anomalous vs 5% expected (artifact_ts_1)"),
                      ("Chiller 6", 5.9, "16.9% of points anomalous"), ("Chiller 3", 0.0, "no adverse evidence"))
    verdict = fleet_pick_verdict("Is one of the chillers to blame?", [ranked])  # type: ignore[list-item]
    assert verdict is not None and verdict.sentence.startswith("Yes, Chiller 4 stands out: 95.2%")
    assert "artifact_ts_1" not in verdict.sentence and "Chiller 6" not in verdict.sentence
    healthy = fleet_pick_verdict("are they all ok?", [ranked])  # type: ignore[list-item]
    assert healthy is not None and healthy.answer == "No"


def test_a_site_wide_yes_no_with_nothing_standing_out_is_no() -> None:
    from graph.answering.verdicts import fleet_pick_verdict

    ranked = _ranking(("Chiller 4", 1.0, "6% anomalous"), ("Chiller 6", 0.0, "no adverse evidence"))
    verdict = fleet_pick_verdict("is any unit overheating?", [ranked])  # type: ignore[list-item]
    assert verdict is not None and verdict.answer == "No"


def test_a_build_up_before_an_event_is_judged_on_the_bad_direction_only() -> None:
    eased = trends("Chiller 3", Chiller_Efficiency=(-0.09, -4.9))
    verdict = worsening_verdict([eased], "anything building up in the hours before it went down?")  # type: ignore[list-item]
    assert verdict is not None and verdict.sentence.startswith("No, nothing was building up")


def test_back_in_service_is_read_from_the_running_share_since_the_stop() -> None:
    from graph.answering.trend_verdicts import running_again_verdict

    since = art("telemetry_window", {"running_share": 0.56}, asset="Chiller 3", producer="data")
    idle = art("telemetry_window", {"running_share": 0.0}, asset="Chiller 3", producer="data")
    assert running_again_verdict([since], "is it back up now?").answer == "Yes"  # type: ignore[list-item,union-attr]
    assert running_again_verdict([idle], "running again?").answer == "No"  # type: ignore[list-item,union-attr]
    assert running_again_verdict([since], "is it ok?") is None  # type: ignore[list-item]


def test_breakdowns_are_judged_on_the_latest_year_against_the_years_before() -> None:
    from tests.unit.answering.builders import work_orders

    bump = work_orders("Chiller 9", {"2018": 1, "2019": 8, "2020": 3}, 1.0)
    verdict = yes_no_verdict("so is it breaking down more often than it used to?", [bump])
    assert verdict.answer == "No" and "3 in 2020 against 4.5 a year before" in verdict.sentence
    rising = work_orders("Chiller 6", {"2017": 1, "2018": 2, "2019": 4, "2020": 7}, 2.0)
    assert yes_no_verdict("are breakdowns getting more frequent?", [rising]).answer == "Yes"


def test_that_against_the_year_before_compares_the_listing_this_turn_holds() -> None:
    from datetime import UTC, datetime

    def listing(year: int, corrective: int, turn: int) -> object:
        return art("work_order_summary", {"total": corrective, "corrective": corrective, "kind": "corrective"},
                   asset="Chiller 6", producer="maintenance", id=f"artifact_mp_{year}", turn=turn,
                   start=datetime(year, 1, 1, tzinfo=UTC), end=datetime(year + 1, 1, 1, tzinfo=UTC))

    verdict = yes_no_verdict("is that worse than the year before?", [listing(2019, 11, 2)],  # type: ignore[list-item]
                             [listing(2020, 14, 1)])  # type: ignore[list-item]
    assert verdict.sentence.startswith("Yes, Chiller 6 had 14 corrective work orders in 2020 against 11 in 2019")


def test_a_direction_question_is_answered_in_its_own_words_with_the_levels_as_read() -> None:
    per_sensor = {"Liquid Refrigerant Evaporator Temperature": {
        "sensor": "Liquid Refrigerant Evaporator Temperature", "drift": -1.11, "drift_z": -9.7, "flags": [],
        "first_level": 42.6, "last_level": 41.38}}
    found = art("trend_stats", {"per_sensor": per_sensor}, asset="Chiller 4")
    verdict = worsening_verdict([found], "has its liquid refrigerant evap temp been dropping this summer?")
    assert verdict is not None and verdict.sentence.startswith(
        "Yes, it has been falling from 2021-03-01 to 2021-06-01: Chiller 4 liquid refrigerant evaporator "
        "temperature 42.6 to 41.4 (-1.11 at equal load, z -9.7)")


def test_a_small_move_its_bad_way_is_said_as_it_is_not_as_steady() -> None:
    found = trends("Chiller 4", Liquid_Refrigerant_Evaporator_Temperature=(-0.45, -1.9))
    verdict = worsening_verdict([found], "is it getting worse?")  # type: ignore[list-item]
    assert verdict is not None and verdict.answer == "Not clearly"
    assert "edged its bad way, short of a clear change (z 2)" in verdict.sentence
    better = trends("Chiller 4", Liquid_Refrigerant_Evaporator_Temperature=(0.45, 1.9))
    assert worsening_verdict([better], "is it getting worse?").answer == "No"  # type: ignore[list-item,union-attr]
