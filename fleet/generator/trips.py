"""Trips in a generated fleet: when each chiller tripped and which sensors went offline.

Dialogs about a trip use the trip day as their reference date; this is where they find it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from typing import Any

import pandas as pd

from fleet.generator.config import SITE_TIMEZONE


@dataclass(frozen=True)
class Trip:
    """One trip: aware UTC instant, site-local day, and the sensors without data after it."""

    episode_id: str
    asset_id: str
    equipment_id: str
    tripped_at: pd.Timestamp
    local_date: date
    offline_sensors: tuple[str, ...]


def trips(fault_episodes: pd.DataFrame, asset_id: str | None = None) -> list[Trip]:
    """Trips of a fault_episodes frame (optionally one chiller's), ordered by time.

    A `trip` episode trips at its onset; a `compressor_overheating` episode ends in a trip at its peak.
    """
    out: list[Trip] = []
    for row in fault_episodes.itertuples(index=False):
        if asset_id is not None and row.asset_id != asset_id:
            continue
        if row.fault_type == "trip":
            when = _utc(row.onset)
        elif row.fault_type == "compressor_overheating":
            when = _utc(row.peak)
        else:
            continue
        offline = tuple(_details(row.details).get("offline_sensors", []))
        out.append(Trip(row.episode_id, row.asset_id, row.equipment_id, when,
                        when.tz_convert(SITE_TIMEZONE).date(), offline))
    return sorted(out, key=lambda t: (t.tripped_at, t.asset_id, -len(t.offline_sensors)))


def _utc(value: object) -> pd.Timestamp:
    """An aware UTC timestamp (naive values, as SQLite returns them, are taken as UTC)."""
    stamp = pd.Timestamp(value)
    return stamp.tz_localize("UTC") if stamp.tzinfo is None else stamp.tz_convert("UTC")


def _details(value: object) -> dict[str, Any]:
    """Episode details as a dict, whether the frame came from the generator or from a SQL read (JSON text)."""
    if isinstance(value, str):
        parsed = json.loads(value or "{}")
        return parsed if isinstance(parsed, dict) else {}
    return dict(value) if isinstance(value, dict) else {}


def trip_dates(fault_episodes: pd.DataFrame, asset_id: str | None = None, *, with_offline_sensor: bool = False) -> list[date]:
    """Distinct site-local days with a trip (optionally only trips that left a sensor offline)."""
    days = [t.local_date for t in trips(fault_episodes, asset_id) if t.offline_sensors or not with_offline_sensor]
    return sorted(set(days))
