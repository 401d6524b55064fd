"""Hand-built artifacts for the answer tests: only the fields the answer reads."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from artifacts.model import Artifact

MARCH = datetime(2021, 3, 1, tzinfo=UTC)
JUNE = datetime(2021, 6, 1, tzinfo=UTC)


def art(kind: str, results: dict[str, Any], *, asset: str | None = "Chiller 6", producer: str = "timeseries",
        id: str | None = None, turn: int = 1, confidence: float | None = None, summary: str = "",
        equipment: list[str] | None = None, window: bool = True, start: datetime | None = None,
        end: datetime | None = None) -> Artifact:
    return Artifact(id=id or f"artifact_{kind[:4]}_{(asset or 'x').replace(' ', '')}", session_id="ses_1",
                    turn_index=turn, producer=producer, kind=kind,  # type: ignore[arg-type]
                    asset_ids=[asset] if asset else [], equipment_ids=equipment or [],
                    window_start=(start or MARCH) if window else None, window_end=(end or JUNE) if window else None,
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


def day(text: str) -> datetime:
    """A stored window bound: site-local midnight (UTC-4) of an ISO date, as the specialists write it."""
    return datetime.fromisoformat(text).replace(hour=4, tzinfo=UTC)


def window(asset: str, start: str, end: str, means: dict[str, tuple[float, str]], **kw: Any) -> Artifact:
    """A telemetry window with running means per bare sensor name ({"Chiller Efficiency": (0.47, "kW/ton")})."""
    stats = {f"{asset} {name}": {"running_mean": value, "mean": value / 2, "unit": unit, "count": 100}
             for name, (value, unit) in means.items()}
    return art("telemetry_window", {"stats": stats}, asset=asset, producer="data", start=day(start), end=day(end),
               id=kw.pop("id", f"artifact_dc_{asset[-1]}_{start}"), **kw)


def orders(asset: str, equipment: str, *, total: int, corrective: int, start: str, end: str, **kw: Any) -> Artifact:
    """A work-order summary of one equipment id over one window."""
    results = {"total": total, "corrective": corrective, "kind": kw.pop("listed", "all"),
               "recent": kw.pop("recent", [])}
    return art("work_order_summary", results, asset=asset, equipment=[equipment], producer="maintenance",
               start=day(start), end=day(end), id=kw.pop("id", f"artifact_mp_{equipment}_{start}"), **kw)


def alerts(asset: str, equipment: str, counts: dict[str, int], *, start: str, end: str, **kw: Any) -> Artifact:
    """An alert-rule activity artifact: rule id -> count (names: "Chiller - <id> name")."""
    names = kw.pop("names", {})
    rules = [{"rule_id": r, "rule_name": names.get(r, f"Chiller - {r}"), "count": n} for r, n in counts.items()]
    return art("alert_rules", {"rules": rules}, asset=asset, equipment=[equipment], producer="maintenance",
               start=day(start), end=day(end), id=kw.pop("id", f"artifact_mp_al_{equipment}_{start}"), **kw)


def running(asset: str, start: str, end: str, share: float) -> Artifact:
    """A telemetry window whose chiller ran for `share` of its samples."""
    found = window(asset, start, end, {"Chiller % Loaded": (50.0, "%")})
    found.results["running_share"] = share
    return found
