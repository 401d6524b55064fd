"""Fault schedules: the anchored schedule of the default seed and random schedules for other seeds."""

from __future__ import annotations

from datetime import date, timedelta

import numpy as np
import pandas as pd

from fleet.generator.config import DEFAULT_SEED, SITE_TIMEZONE, GeneratorConfig
from fleet.generator.faults.episodes import FAULT_CODES, FaultEpisode, local_time
from fleet.generator.timegrid import stream
from fleet.model import TELEMETRY_ASSETS


def _ep(asset: str, kind: str, onset: str, peak: str, repair: str, severity: float, **details: object) -> FaultEpisode:
    return FaultEpisode(asset, kind, local_time(onset), local_time(peak), local_time(repair), severity,
                        dict(details))


def default_episodes() -> list[FaultEpisode]:
    """The default seed's schedule: the anchored stories of the development dialogs plus background faults."""
    return [
        # Chiller 9, summer 2016: evaporator fouling with a slow refrigerant loss (purge), cleaned in September.
        _ep("Chiller 9", "evaporator_fouling", "2016-05-10 08:00", "2016-08-10 12:00", "2016-09-08 10:00", 3.5),
        _ep("Chiller 9", "refrigerant_loss", "2016-06-05 06:00", "2016-08-25 12:00", "2016-09-08 14:00", 2.5),
        # Chiller 3, summer 2017: evaporator fouling.
        _ep("Chiller 3", "evaporator_fouling", "2017-06-01 00:00", "2017-08-15 00:00", "2017-08-29 09:00", 3.0),
        # Chiller 6 ages: faults become more frequent from 2017 to 2020.
        _ep("Chiller 6", "condenser_flow", "2017-08-03 09:30", "2017-08-03 09:30", "2017-08-24 11:00", 0.3,
            shape="step"),
        _ep("Chiller 6", "refrigerant_loss", "2018-06-10 00:00", "2018-08-20 00:00", "2018-09-05 13:00", 2.0),
        _ep("Chiller 4", "refrigerant_loss", "2018-07-01 00:00", "2018-08-30 00:00", "2018-09-12 10:00", 2.2),
        _ep("Chiller 3", "trip", "2018-08-14 13:40", "2018-08-14 13:40", "2018-08-24 15:00", 1.0,
            offline_sensors=["Liquid Refrigerant Evaporator Temperature"], restart="2018-08-15T20:00:00+00:00"),
        _ep("Chiller 6", "condenser_flow", "2019-05-15 00:00", "2019-06-20 00:00", "2019-06-27 10:00", 0.35),
        _ep("Chiller 4", "sensor_drift", "2019-03-01 00:00", "2019-09-01 00:00", "2019-09-03 10:00", 0.25,
            sensor="Return Temperature"),
        # Chiller 9, July 2019: compressor overheating ending in a trip; the condenser flow transmitter
        # dies in the trip and stays offline until it is replaced.
        _ep("Chiller 9", "compressor_overheating", "2019-07-02 00:00", "2019-07-23 15:15", "2019-07-26 10:00", 0.22),
        _ep("Chiller 9", "trip", "2019-07-23 15:15", "2019-07-23 15:15", "2019-08-06 11:00", 1.0,
            offline_sensors=["Condenser Water Flow"], restart="2019-07-26T14:00:00+00:00"),
        _ep("Chiller 6", "compressor_overheating", "2019-08-05 00:00", "2019-08-27 14:30", "2019-08-30 09:00", 0.18),
        # Chiller 6, May-June 2020: condenser fouling building up, cleaned in July.
        _ep("Chiller 6", "condenser_fouling", "2020-04-25 00:00", "2020-06-30 00:00", "2020-07-09 10:00", 6.0),
        # Chiller 3, August 2020: condenser water flow drifting down (plugging strainer).
        _ep("Chiller 3", "condenser_flow", "2020-07-20 00:00", "2020-08-25 00:00", "2020-09-02 10:00", 0.35),
        # Chiller 6 supply temperature sensor drifting from December 2020 until recalibrated in July 2021.
        _ep("Chiller 6", "sensor_drift", "2020-12-01 00:00", "2021-07-20 08:00", "2021-07-20 10:00", 0.35,
            sensor="Supply Temperature"),
        # Chiller 4, spring 2021: condenser fouling raising power input, still open on 1 July 2021.
        _ep("Chiller 4", "condenser_fouling", "2021-01-15 00:00", "2021-04-20 00:00", "2021-07-12 10:00", 9.0),
        # Chiller 9, June 2021: evaporator fouling pushing the evaporator approach over its alert limit.
        _ep("Chiller 9", "evaporator_fouling", "2021-04-20 00:00", "2021-06-24 00:00", "2021-07-14 10:00", 6.5),
    ]


# Ramp (onset -> peak) and repair-delay ranges in days per fault type for random schedules.
_RANDOM_SHAPES: dict[str, tuple[tuple[int, int], tuple[int, int], tuple[float, float]]] = {
    "condenser_fouling": ((40, 100), (5, 20), (3.0, 7.0)),
    "evaporator_fouling": ((40, 100), (5, 20), (2.5, 6.0)),
    "condenser_flow": ((0, 30), (3, 14), (0.2, 0.4)),
    "refrigerant_loss": ((40, 90), (5, 20), (1.5, 3.0)),
    "compressor_overheating": ((10, 30), (2, 5), (0.15, 0.3)),
    "trip": ((0, 0), (3, 15), (1.0, 1.0)),
    "sensor_drift": ((90, 240), (1, 3), (0.2, 0.5)),
}
_DRIFTING_SENSORS = ("Supply Temperature", "Return Temperature", "Liquid Refrigerant Evaporator Temperature")
_OFFLINE_CANDIDATES = ("Condenser Water Flow", "Liquid Refrigerant Evaporator Temperature", "Supply Temperature")


def _random_episode(rng: np.random.Generator, asset: str, year: int) -> FaultEpisode:
    kind = str(rng.choice(sorted(FAULT_CODES)))
    ramp_days, repair_days, severity_range = _RANDOM_SHAPES[kind]
    # Faults show under load, so onsets fall in the cooling season (March to September).
    onset = pd.Timestamp(date(year, 3, 1)) + pd.Timedelta(minutes=15 * int(rng.integers(0, 214 * 96)))
    onset = onset.tz_localize(SITE_TIMEZONE).tz_convert("UTC")
    peak = onset + pd.Timedelta(days=int(rng.integers(ramp_days[0], ramp_days[1] + 1)))
    repair = peak + pd.Timedelta(days=int(rng.integers(repair_days[0], repair_days[1] + 1)))
    severity = round(float(rng.uniform(*severity_range)), 2)
    details: dict[str, object] = {}
    if kind == "trip":
        details["offline_sensors"] = [str(rng.choice(_OFFLINE_CANDIDATES))]
        details["restart"] = (onset + pd.Timedelta(hours=int(rng.integers(12, 60)))).isoformat()
    elif kind == "sensor_drift":
        details["sensor"] = str(rng.choice(_DRIFTING_SENSORS))
    elif kind == "condenser_flow" and peak == onset:
        details["shape"] = "step"
    return FaultEpisode(asset, kind, onset, peak, repair, severity, details)


def random_episodes(seed: int, years: range) -> list[FaultEpisode]:
    """About 1.3 faults per chiller and year; episodes of one type never overlap on one chiller."""
    episodes: list[FaultEpisode] = []
    for asset in TELEMETRY_ASSETS:
        rng = stream(seed, "faults", asset)
        for year in years:
            for _ in range(int(rng.poisson(1.3))):
                candidate = _random_episode(rng, asset, year)
                clash = any(e.fault_type == candidate.fault_type and e.overlaps(
                    candidate.onset, candidate.end + pd.Timedelta(days=1)) for e in episodes if e.asset_id == asset)
                if not clash:
                    episodes.append(candidate)
    return sorted(episodes, key=lambda e: (e.onset, e.asset_id))


def schedule_for(config: GeneratorConfig) -> list[FaultEpisode]:
    """The episodes that affect the configured window: explicit ones, the default story, or random."""
    if config.episodes is not None:
        candidates = list(config.episodes)
    elif config.seed == DEFAULT_SEED:
        candidates = default_episodes()
    else:
        candidates = random_episodes(config.seed, range(config.start.year, config.end.year + 1))
    window_start = local_time(config.start.isoformat())
    window_stop = local_time((config.end + timedelta(days=1)).isoformat())
    return [e for e in candidates if e.overlaps(window_start, window_stop)]
