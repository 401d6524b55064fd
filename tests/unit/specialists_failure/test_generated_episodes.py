"""The diagnosis names the injected fault on generated telemetry (one fault per short window).

Each case simulates one chiller for a few summer weeks with a single injected fault episode through
the fleet's generator, then scores it with the diagnosis bench's evaluation (the same pure functions
the failure specialist uses).
"""

from __future__ import annotations

from datetime import date

import pandas as pd
import pytest

from bench.diagnosis_bench import evaluate_episode, summarise
from fleet.synthetic import FaultEpisode, GeneratorConfig, episodes_frame, simulate
from specialists.common.frames import from_telemetry_table

ONSET = pd.Timestamp("2020-06-20", tz="UTC")
PEAK = pd.Timestamp("2020-07-25 15:00", tz="UTC")
REPAIR = pd.Timestamp("2020-08-05", tz="UTC")

CASES: dict[str, tuple[str, float, dict[str, object]]] = {
    "condenser_fouling": ("Chiller 9", 6.0, {}),
    "evaporator_fouling": ("Chiller 9", 5.0, {}),
    "condenser_flow": ("Chiller 6", 0.35, {}),
    "refrigerant_loss": ("Chiller 4", 2.5, {}),
    "compressor_overheating": ("Chiller 9", 0.25, {}),
    "sensor_drift": ("Chiller 6", 1.0, {"sensor": "Supply Temperature"}),
    "trip": (
        "Chiller 3",
        1.0,
        {"offline_sensors": ["Condenser Water Flow"], "restart": "2020-07-26T18:00:00+00:00"},
    ),
}


def _episode(fault_type: str) -> FaultEpisode:
    asset, severity, details = CASES[fault_type]
    onset = PEAK if fault_type == "trip" else ONSET
    return FaultEpisode(asset, fault_type, onset, PEAK, REPAIR, severity, dict(details))


@pytest.mark.parametrize("fault_type", sorted(CASES))
def test_the_injected_failure_mode_ranks_first(fault_type: str) -> None:
    episode = _episode(fault_type)
    config = GeneratorConfig(
        start=date(2020, 6, 1), end=date(2020, 8, 10), assets=(episode.asset_id,), episodes=[episode]
    )
    frame = from_telemetry_table(simulate(config, [episode]).telemetry, episode.asset_id)
    row = episodes_frame([episode]).iloc[0].to_dict()
    outcome = evaluate_episode(frame, row)
    assert outcome.rank == 1, f"{fault_type}: ranked {outcome.rank}, top {outcome.top}"
    assert summarise([outcome])["ALL"]["top1"] == 1.0
