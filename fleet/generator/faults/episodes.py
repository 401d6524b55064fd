"""The fault episode: ground truth of one injected fault, and the severity units per fault type."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from assetops.domain.catalog import DEFAULT_SITE_TIMEZONE
from fleet.knowledge import fault_types
from fleet.model import EQUIPMENT_IDS, sensors_of

# What `severity` means for each fault type (also written into the episode details).
SEVERITY_UNITS: dict[str, str] = {
    "condenser_fouling": "extra condenser approach at full load, degF",
    "evaporator_fouling": "extra evaporator approach at full load, degF",
    "condenser_flow": "fraction of design condenser water flow lost",
    "refrigerant_loss": "drop of the evaporating temperature at 40% load, degF (larger at high load)",
    "compressor_overheating": "fractional extra power input at the same load at peak",
    "trip": "1 = abrupt stop",
    "sensor_drift": "drift rate of the sensor reading, degF per 30 days",
}
FAULT_CODES: dict[str, str] = {
    "condenser_fouling": "CF", "evaporator_fouling": "EF", "condenser_flow": "CW",
    "refrigerant_loss": "RL", "compressor_overheating": "CO", "trip": "TR", "sensor_drift": "SD",
}


@dataclass(frozen=True)
class FaultEpisode:
    """One injected fault. Times are aware UTC; the effect ramps from onset to peak and ends at repair.

    details: "shape" ("ramp" or "step"), for trips "offline_sensors" and "restart" (ISO UTC time the
    chiller runs again), for sensor drift "sensor".
    """

    asset_id: str
    fault_type: str
    onset: pd.Timestamp
    peak: pd.Timestamp
    repair: pd.Timestamp | None
    severity: float
    details: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.fault_type not in FAULT_CODES:
            raise ValueError(f"unknown fault type {self.fault_type!r}; use one of {sorted(FAULT_CODES)}")
        if self.onset.tzinfo is None:
            raise ValueError(f"episode onset {self.onset} is naive; give an aware (UTC) time")
        if self.peak < self.onset or (self.repair is not None and self.repair < self.peak):
            raise ValueError(f"episode times out of order: onset {self.onset}, peak {self.peak}, repair {self.repair}")

    @property
    def episode_id(self) -> str:
        """Stable id: equipment, local onset day and fault code, e.g. EP-CWC04009-20160510-EF."""
        day = self.onset.tz_convert(DEFAULT_SITE_TIMEZONE).strftime("%Y%m%d")
        return f"EP-{EQUIPMENT_IDS[self.asset_id]}-{day}-{FAULT_CODES[self.fault_type]}"

    @property
    def failure_mode(self) -> str:
        """The failure-mode name this fault stands for (fault_types.yaml)."""
        return fault_types()[self.fault_type].failure_mode

    @property
    def affected_sensors(self) -> list[str]:
        """Sensors (without asset prefix) whose readings carry the signature."""
        if self.fault_type == "sensor_drift":
            return [str(self.details.get("sensor", "Supply Temperature"))]
        reported = set(sensors_of(self.asset_id))  # Chiller 6 alone reports the return-to-tower temperature
        sensors = [s for s in fault_types()[self.fault_type].affected_sensors if s in reported]
        return sensors + [s for s in self.details.get("offline_sensors", []) if s not in sensors]

    @property
    def end(self) -> pd.Timestamp:
        """When the episode stops affecting anything (repair, or far future if never repaired)."""
        return self.repair if self.repair is not None else pd.Timestamp.max.tz_localize("UTC")

    def overlaps(self, start: pd.Timestamp, stop: pd.Timestamp) -> bool:
        """Does the episode overlap [start, stop)?"""
        return self.onset < stop and self.end > start


def local_time(text: str) -> pd.Timestamp:
    """A site-local wall time ("2016-05-10 08:00") as an aware UTC timestamp."""
    return pd.Timestamp(text).tz_localize(DEFAULT_SITE_TIMEZONE).tz_convert("UTC")


def episodes_frame(episodes: list[FaultEpisode]) -> pd.DataFrame:
    """The fault_episodes table rows, ordered by onset."""
    rows = [{
        "episode_id": e.episode_id, "asset_id": e.asset_id, "equipment_id": EQUIPMENT_IDS[e.asset_id],
        "fault_type": e.fault_type, "failure_mode": e.failure_mode,
        "onset": e.onset.to_pydatetime(), "peak": e.peak.to_pydatetime(),
        "repair": e.repair.to_pydatetime() if e.repair is not None else None,
        "severity": float(e.severity), "affected_sensors": e.affected_sensors,
        "details": {**e.details, "severity_unit": SEVERITY_UNITS[e.fault_type]},
    } for e in sorted(episodes, key=lambda e: (e.onset, e.asset_id))]
    columns = ["episode_id", "asset_id", "equipment_id", "fault_type", "failure_mode", "onset", "peak",
               "repair", "severity", "affected_sensors", "details"]
    frame = pd.DataFrame(rows, columns=columns)
    for column in ("onset", "peak", "repair"):
        frame[column] = pd.to_datetime(frame[column], utc=True)
    return frame
