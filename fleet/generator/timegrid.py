"""The 15-minute sampling grid in UTC with its site-local view, and deterministic random streams."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date, timedelta

import numpy as np
import pandas as pd

from fleet.generator.config import SAMPLE_MINUTES, SITE_TIMEZONE


@dataclass(frozen=True)
class TimeGrid:
    """Grid timestamps (aware UTC) and the local-time features the physics needs, as arrays."""

    ts: pd.DatetimeIndex  # aware UTC
    local: pd.DatetimeIndex  # naive site-local wall time
    offset_min: np.ndarray  # int16, UTC offset of the site at each instant (-300 / -240)
    hour: np.ndarray  # local hour of day as float (14.25 = 14:15)
    day_of_year: np.ndarray  # 1..366, local
    weekday: np.ndarray  # 0 = Monday, local
    day_index: np.ndarray  # days since the first local day (int)

    @property
    def size(self) -> int:
        """Number of grid points."""
        return len(self.ts)


def build_grid(start: date, end: date) -> TimeGrid:
    """Grid from local midnight of `start` to the last 15-minute slot of local day `end`."""
    first = pd.Timestamp(start).tz_localize(SITE_TIMEZONE).tz_convert("UTC")
    after = pd.Timestamp(end + timedelta(days=1)).tz_localize(SITE_TIMEZONE).tz_convert("UTC")
    ts = pd.date_range(first, after, freq=f"{SAMPLE_MINUTES}min", inclusive="left", unit="us")
    local_aware = ts.tz_convert(SITE_TIMEZONE)
    local = local_aware.tz_localize(None)
    offset = ((local - ts.tz_localize(None)) // pd.Timedelta(minutes=1)).to_numpy().astype(np.int16)
    hour = (local.hour + local.minute / 60.0).to_numpy(dtype=float)
    day_index = ((local.normalize() - pd.Timestamp(start)) // pd.Timedelta(days=1)).to_numpy()
    return TimeGrid(
        ts=ts, local=local, offset_min=offset, hour=hour,
        day_of_year=local.dayofyear.to_numpy(), weekday=local.weekday.to_numpy(),
        day_index=day_index.astype(np.int64),
    )


def stream(seed: int, *keys: int | str) -> np.random.Generator:
    """An independent random stream for (seed, keys): the same keys always give the same numbers."""
    material = [seed & 0xFFFFFFFF, *(_key_int(k) for k in keys)]
    return np.random.default_rng(material)


def _key_int(key: int | str) -> int:
    if isinstance(key, int):
        return key & 0xFFFFFFFF
    # A stable string hash (Python's hash() is salted per process).
    return int.from_bytes(uuid.uuid5(uuid.NAMESPACE_OID, key).bytes[:4], "little")


def deterministic_uuid(rng: np.random.Generator) -> str:
    """A version-4-shaped UUID drawn from `rng` (so event ids repeat for the same seed)."""
    return str(uuid.UUID(bytes=rng.bytes(16), version=4))
