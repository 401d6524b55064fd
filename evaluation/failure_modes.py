"""The failure-mode names diagnosis answers are ranked by: the curated FMEA modes and the injected ones."""

from __future__ import annotations

from typing import Any


async def failure_mode_catalog(settings: Any) -> list[str]:
    """Curated failure modes (fmea rows `fmsr.get_failure_modes` serves) plus every fault episode's mode."""
    from sqlalchemy import select

    from assetops.db.engine import Database
    from assetops.db.tables import FaultEpisodeRow, FmeaRow

    db = Database(settings)
    try:
        async with db.session() as session:
            curated = (await session.scalars(select(FmeaRow.failure_mode).where(FmeaRow.curated_rank.is_not(None))
                                             .order_by(FmeaRow.curated_rank))).all()
            injected = (await session.scalars(select(FaultEpisodeRow.failure_mode).distinct())).all()
    finally:
        await db.close()
    return list(dict.fromkeys([*curated, *injected]))
