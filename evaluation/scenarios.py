"""Diagnosis dialogs from the fleet's fault schedule (table fault_episodes), one per episode, plus controls.

Each episode becomes: "<asset> is behaving oddly around <peak date>, look into it" / "why?" /
"what should we do?", with the injected failure mode as the expected answer of the "why?" turn.
When another episode of the same chiller is active on that date (a refrigerant loss under an
evaporator fouling, the trip that ended a compressor overheating), its failure mode is listed in
`also_active`: naming it is naming a real fault, and the scorer counts it (with a strict figure beside).
Control dialogs ask the same about a chiller and date at least `CLEAR_DAYS` away from any of its
episodes: the right answer names no fault. The output is a suite file `assetops eval` runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import yaml

SITE_TZ = ZoneInfo("America/New_York")
CLEAR_DAYS = 45  # a control date is this far from any episode of its chiller
REFERENCE_AFTER_DAYS = 14  # the dialog's "today": two weeks after the date asked about


@dataclass(frozen=True)
class Episode:
    """The parts of a fault episode a scenario needs."""

    episode_id: str
    asset_id: str
    fault_type: str
    failure_mode: str
    onset: datetime
    peak: datetime
    repair: datetime | None


def _local(moment: datetime) -> date:
    return moment.astimezone(SITE_TZ).date()


def also_active(episode: Episode, episodes: Sequence[Episode], day: date) -> list[str]:
    """Failure modes of the chiller's other episodes active on `day` (onset..repair, local dates)."""
    return list(dict.fromkeys(
        e.failure_mode for e in episodes
        if e.asset_id == episode.asset_id and e.episode_id != episode.episode_id and e.failure_mode != episode.failure_mode
        and _local(e.onset) <= day <= _local(e.repair or e.peak)))


def _dialog(dialog_id: str, asset: str, day: date, expected: str | None,
            concurrent: Sequence[str] = ()) -> dict[str, Any]:
    """One three-turn dialog about `asset` around `day`."""
    why: dict[str, Any] = {"text": "why?", "specialists": ["failure"]}
    if expected:
        why["mentions"] = [expected]
    extra = {"also_active": list(concurrent)} if concurrent else {}
    return {"id": dialog_id, "category": "diagnosis" if expected else "control",
            "reference_date": (day + timedelta(days=REFERENCE_AFTER_DAYS)).isoformat(),
            "expect_failure_mode": expected, **extra, "control": expected is None, "diagnosis_turn": 2,
            "turns": [{"text": f"{asset} is behaving oddly around {day:%B} {day.day}, {day.year}, look into it",
                       "mentions": [asset]},
                      why,
                      {"text": "what should we do?", "mentions": [asset]}]}


def spread(episodes: Sequence[Episode], limit: int | None) -> list[Episode]:
    """At most `limit` episodes, taking fault types in turn so a short suite still covers them all."""
    by_type: dict[str, list[Episode]] = {}
    for episode in sorted(episodes, key=lambda e: (e.fault_type, e.peak)):
        by_type.setdefault(episode.fault_type, []).append(episode)
    order: list[Episode] = []
    while any(by_type.values()):
        order += [queue.pop(0) for queue in by_type.values() if queue]
    return order[:limit] if limit is not None else order


def control_days(episodes: Sequence[Episode], coverage: dict[str, tuple[date, date]], count: int) -> list[tuple[str, date]]:
    """`count` (asset, date) pairs, mid-month, at least CLEAR_DAYS from every episode of that asset."""
    candidates: list[tuple[str, date]] = []
    for asset, (first, last) in sorted(coverage.items()):
        day = date(first.year, first.month, 15) + timedelta(days=120)  # leave room for a baseline
        while day + timedelta(days=REFERENCE_AFTER_DAYS) <= last:
            busy = [e for e in episodes if e.asset_id == asset and _local(e.onset) - timedelta(days=CLEAR_DAYS) <= day
                    <= _local(e.repair or e.peak) + timedelta(days=CLEAR_DAYS)]
            if not busy:
                candidates.append((asset, day))
            day = date(day.year + day.month // 12, day.month % 12 + 1, 15)
    if not candidates or count <= 0:
        return []
    step = max(1, len(candidates) // count)
    return candidates[::step][:count]


def scenario_suite(episodes: Sequence[Episode], coverage: dict[str, tuple[date, date]], failure_modes: list[str],
                   *, limit: int | None = None, controls: int = 2) -> dict[str, Any]:
    """The suite as a YAML-ready dict: one dialog per (selected) episode, then the controls."""
    chosen = spread(episodes, limit)
    dialogs = [_dialog(f"S{i:02d}", e.asset_id, _local(e.peak), e.failure_mode, also_active(e, episodes, _local(e.peak)))
               for i, e in enumerate(chosen, 1)]
    dialogs += [_dialog(f"C{i:02d}", asset, day, None)
                for i, (asset, day) in enumerate(control_days(episodes, coverage, controls), 1)]
    modes = list(dict.fromkeys([*failure_modes, *(e.failure_mode for e in episodes)]))
    return {"reference_date": max((d["reference_date"] for d in dialogs), default=date.today().isoformat()),
            "failure_modes": modes, "dialogs": dialogs}


async def load_schedule(settings: Any) -> tuple[list[Episode], dict[str, tuple[date, date]]]:
    """The fault episodes and each chiller's telemetry coverage (local dates) from the loaded fleet."""
    from sqlalchemy import func, select

    from assetops.db.engine import Database
    from assetops.db.tables import FaultEpisodeRow, TelemetryRow

    db = Database(settings)
    try:
        async with db.session() as session:
            rows = (await session.scalars(select(FaultEpisodeRow))).all()
            spans = (await session.execute(select(TelemetryRow.asset_id, func.min(TelemetryRow.ts),
                                                  func.max(TelemetryRow.ts)).group_by(TelemetryRow.asset_id))).all()
    finally:
        await db.close()
    episodes = [Episode(r.episode_id, r.asset_id, r.fault_type, r.failure_mode, r.onset, r.peak, r.repair)
                for r in rows]
    return episodes, {asset: (_local(first), _local(last)) for asset, first, last in spans if first and last}


def to_yaml(suite: dict[str, Any]) -> str:
    """The suite file's text, with a header saying where it came from."""
    header = ("# Generated by `assetops generate-scenarios` from the loaded fleet's fault schedule (fault_episodes):\n"
              "# one diagnosis dialog per episode (expected: the injected failure mode), plus fault-free controls.\n")
    return header + yaml.safe_dump(suite, sort_keys=False, allow_unicode=True, width=120)
