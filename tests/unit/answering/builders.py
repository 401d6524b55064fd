"""Hand-built artifacts for the answer tests: only the fields the answer reads."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from artifacts.model import Artifact

MARCH = datetime(2021, 3, 1, tzinfo=UTC)
JUNE = datetime(2021, 6, 1, tzinfo=UTC)


def art(kind: str, results: dict[str, Any], *, asset: str | None = "Chiller 6", producer: str = "timeseries",
        id: str | None = None, turn: int = 1, confidence: float | None = None, summary: str = "",
        equipment: list[str] | None = None, window: bool = True) -> Artifact:
    return Artifact(id=id or f"artifact_{kind[:4]}_{(asset or 'x').replace(' ', '')}", session_id="ses_1",
                    turn_index=turn, producer=producer, kind=kind,  # type: ignore[arg-type]
                    asset_ids=[asset] if asset else [], equipment_ids=equipment or [],
                    window_start=MARCH if window else None, window_end=JUNE if window else None,
                    results=results, confidence=confidence, summary=summary)


def anomaly(asset: str, rate: float, **kw: Any) -> Artifact:
    return art("anomaly_detection", {"anomaly_rate": rate, "conditional_columns": ["x"], "sustained_shifts": []},
               asset=asset, **kw)


def diagnosis(asset: str, *modes: tuple[str, float, float], **kw: Any) -> Artifact:
    hyps = [{"failure_mode": m, "probability": (lo + hi) / 2, "confidence_range": [lo, hi],
             "confirm_by": "check the condenser approach"} for m, lo, hi in modes]
    return art("diagnose", {"hypotheses": hyps}, asset=asset, producer="failure",
               confidence=hyps[0]["probability"], **kw)


def work_orders(asset: str, per_year: dict[str, int], slope: float, **kw: Any) -> Artifact:
    return art("work_order_summary", {"total": 40, "corrective": sum(per_year.values()),
                                      "corrective_per_year": per_year, "corrective_trend_per_year": slope,
                                      "partial_year": None}, asset=asset, producer="maintenance", **kw)
