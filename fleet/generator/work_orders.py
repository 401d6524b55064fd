"""Work orders: preventive ones on schedules for every chiller, corrective ones raised by faults."""

from __future__ import annotations

import numpy as np
import pandas as pd

from fleet.generator.config import DEFAULT_SEED, SITE_TIMEZONE, GeneratorConfig
from fleet.generator.faults import FaultEpisode
from fleet.generator.timegrid import stream
from fleet.knowledge import (
    WorkOrderTemplate,
    background_corrective,
    fault_types,
    preventive_schedules,
    secondary_codes,
)
from fleet.model import EQUIPMENT_IDS

WORK_ORDER_COLUMNS = [
    "wo_id", "wo_description", "collection", "primary_code", "primary_code_description", "secondary_code",
    "secondary_code_description", "equipment_id", "equipment_name", "preventive", "work_priority",
    "actual_finish", "duration", "actual_labor_hours", "fault_episode_id",
]
BACKGROUND_PER_YEAR = 2.5
# The default seed's Chiller 6 ages: minor corrective work grows year on year from 2017 to 2020.
CHILLER6_BACKGROUND = {2015: 1, 2016: 2, 2017: 2, 2018: 4, 2019: 6, 2020: 12, 2021: 6, 2022: 3}


def _hmm(hours: float) -> str:
    minutes = round(hours * 60)
    return f"{minutes // 60}:{minutes % 60:02d}"


def _order(template: WorkOrderTemplate, asset: str, finish: pd.Timestamp, *, preventive: bool,
           priority: int, duration_h: float, labor_h: float, episode_id: str | None = None) -> dict[str, object]:
    code = secondary_codes()[template.secondary_code]
    return {
        "wo_description": f"{code.primary_code_description}: {code.secondary_code_description} ({template.collection})",
        "collection": template.collection, "primary_code": code.primary_code,
        "primary_code_description": code.primary_code_description, "secondary_code": code.secondary_code,
        "secondary_code_description": code.secondary_code_description, "equipment_id": EQUIPMENT_IDS[asset],
        "equipment_name": asset, "preventive": preventive, "work_priority": priority,
        "actual_finish": finish.floor("min"), "duration": _hmm(duration_h), "actual_labor_hours": _hmm(labor_h),
        "fault_episode_id": episode_id,
    }


def _working_time(day: pd.Timestamp, rng: np.random.Generator) -> pd.Timestamp:
    """A weekday daytime finish on or after `day` (naive site-local)."""
    while day.weekday() >= 5:
        day += pd.Timedelta(days=1)
    return day.normalize() + pd.Timedelta(minutes=int(rng.integers(8 * 60, 16 * 60)))


def preventive_orders(config: GeneratorConfig) -> list[dict[str, object]]:
    """Scheduled preventive work (priority 5) for all chillers over the work-order years."""
    orders: list[dict[str, object]] = []
    for position, asset in enumerate(EQUIPMENT_IDS):
        rng = stream(config.seed, "preventive", asset)
        for template in preventive_schedules():
            for year in config.work_order_years:
                for month in range(1, 13):
                    if (month - 1 - template.first_month - position) % template.interval_months:
                        continue
                    day = pd.Timestamp(year=year, month=month, day=int(rng.integers(1, 26)))
                    orders.append(_order(template, asset, _working_time(day, rng), preventive=True, priority=5,
                                         duration_h=template.duration_h, labor_h=template.labor_h))
    return orders


def _detection_time(episode: FaultEpisode, rng: np.random.Generator) -> pd.Timestamp:
    """When maintenance notices the fault: hours after an abrupt one, part-way up the ramp otherwise."""
    if episode.peak <= episode.onset:
        return episode.onset + pd.Timedelta(hours=float(rng.uniform(1, 6)))
    return episode.onset + (episode.peak - episode.onset) * float(rng.uniform(0.45, 0.8))


def corrective_orders_for(episode: FaultEpisode, rng: np.random.Generator) -> list[dict[str, object]]:
    """Corrective orders of one fault: a first one when noticed, the last at the repair."""
    templates = fault_types()[episode.fault_type].corrective
    detected = _detection_time(episode, rng)
    repaired = episode.repair if episode.repair is not None else detected + pd.Timedelta(days=7)
    urgent = episode.fault_type in ("trip", "compressor_overheating")
    orders: list[dict[str, object]] = []
    for i, template in enumerate(templates):
        fraction = i / max(len(templates) - 1, 1)
        finish_utc = detected + (repaired - detected) * fraction + pd.Timedelta(minutes=30 * i)
        finish = finish_utc.tz_convert(SITE_TIMEZONE).tz_localize(None)
        priority = 1 if urgent or i == len(templates) - 1 else 2
        orders.append(_order(template, episode.asset_id, finish, preventive=False, priority=priority,
                             duration_h=float(rng.choice([2, 4, 6, 8])), labor_h=float(rng.choice([1, 2, 4, 6])),
                             episode_id=episode.episode_id))
    return orders


def background_orders(config: GeneratorConfig) -> list[dict[str, object]]:
    """Minor corrective work with no telemetry signature, at a low random rate on every chiller."""
    orders: list[dict[str, object]] = []
    templates = background_corrective()
    for asset in EQUIPMENT_IDS:
        rng = stream(config.seed, "background", asset)
        for year in config.work_order_years:
            if config.seed == DEFAULT_SEED and asset == "Chiller 6":
                count = CHILLER6_BACKGROUND.get(year, 2)
            else:
                count = int(rng.poisson(BACKGROUND_PER_YEAR))
            for _ in range(count):
                day = pd.Timestamp(year=year, month=1, day=1) + pd.Timedelta(days=int(rng.integers(0, 365)))
                template = templates[int(rng.integers(0, len(templates)))]
                orders.append(_order(template, asset, _working_time(day, rng), preventive=False,
                                     priority=int(rng.choice([1, 2])), duration_h=float(rng.choice([2, 3, 4])),
                                     labor_h=float(rng.choice([1, 2, 3]))))
    return orders


def work_orders(config: GeneratorConfig, episodes: list[FaultEpisode]) -> pd.DataFrame:
    """All work orders ordered by finish time, with ids WO<number> increasing with time."""
    rng = stream(config.seed, "corrective")
    orders = preventive_orders(config) + background_orders(config)
    for episode in sorted(episodes, key=lambda e: (e.onset, e.asset_id)):
        if episode.asset_id in config.assets:
            orders.extend(corrective_orders_for(episode, rng))
    frame = pd.DataFrame(orders, columns=[c for c in WORK_ORDER_COLUMNS if c != "wo_id"])
    frame = frame.sort_values(["actual_finish", "equipment_id", "primary_code"], kind="stable").reset_index(drop=True)
    id_rng = stream(config.seed, "wo-ids")
    numbers = 100000 + int(id_rng.integers(0, 50000)) + np.cumsum(id_rng.integers(1, 25, size=len(frame)))
    frame.insert(0, "wo_id", [f"WO{n}" for n in numbers])
    frame["work_priority"] = frame["work_priority"].astype("int64")
    frame["preventive"] = frame["preventive"].astype(bool)
    return frame[WORK_ORDER_COLUMNS]
