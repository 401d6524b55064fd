"""The telemetry coverage of the loaded data, and the check that a session's reference date fits it.

A reference date anchors relative periods ("past month"), so one before the first sample or long
after the last leaves every relative question with no data. The bounds come from the loaded
telemetry (min/max timestamp), cached for a minute, never from constants.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from assetops.db.engine import Database
from assetops.db.tables import TelemetryRow

# "past year" asked a year after the last sample still overlaps the data; later than that, nothing does.
GRACE_AFTER_LAST = timedelta(days=366)
_TTL_S = 60.0


@dataclass(frozen=True)
class Coverage:
    """First and last day with telemetry (None when no telemetry is loaded)."""

    first: date | None
    last: date | None

    def problem(self, reference_date: date) -> str | None:
        """Why `reference_date` cannot anchor questions on this data, or None when it can."""
        if self.first is None or self.last is None:
            return None  # nothing loaded yet: nothing to compare with
        latest = self.last + GRACE_AFTER_LAST
        if self.first < reference_date <= latest:
            return None
        return (f"reference_date {reference_date.isoformat()} is outside the telemetry coverage "
                f"{self.first.isoformat()} to {self.last.isoformat()}: relative periods such as \"past month\" "
                f"would find no data. Use a date after {self.first.isoformat()} and no later than "
                f"{latest.isoformat()}.")


class CoverageCache:
    """The coverage of one database, read at most once a minute."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._value: Coverage | None = None
        self._read_at = 0.0

    async def get(self) -> Coverage:
        """The current coverage (one min/max query when the cached value is older than a minute)."""
        if self._value is None or time.monotonic() - self._read_at > _TTL_S:
            async with self.db.session() as session:
                first = await _local_day(session, func.min(TelemetryRow.ts))
                last = await _local_day(session, func.max(TelemetryRow.ts))
            self._value = Coverage(first, last)
            self._read_at = time.monotonic()
        return self._value


async def _local_day(session: AsyncSession, extreme: Any) -> date | None:
    """The site-local day of the first/last sample (`ts` is UTC; its row keeps the site's offset)."""
    row = (await session.execute(select(TelemetryRow.ts, TelemetryRow.utc_offset_min)
                                 .where(TelemetryRow.ts == select(extreme).scalar_subquery()).limit(1))).first()
    if row is None:
        return None
    moment: datetime = row[0]
    return (moment + timedelta(minutes=int(row[1] or 0))).date()
