"""Pure prioritisation: which asset needs attention first, from the evidence already gathered."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from artifacts.model import Artifact
from specialists.maintenance.evidence import hypothesis_confidence


@dataclass
class AssetPriority:
    """One asset's attention score (higher = sooner) and the reasons behind it."""

    asset_id: str
    score: float
    reasons: list[str] = field(default_factory=list)


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) else None


def prioritise(artifacts: list[Artifact], assets: list[str]) -> list[AssetPriority]:
    """Score each asset: anomaly rate, worst hypothesis confidence, efficiency trend and corrective load.

    Weights are deliberately simple and stated: anomaly share (x10 per 10 %), top hypothesis
    confidence (x5), kW/ton trend or forecast rise (x3), corrective work orders in the window (x0.5 each).
    """
    out = []
    for asset in assets:
        score, reasons = 0.0, []
        for art in (a for a in artifacts if asset in a.asset_ids):
            res = art.results or {}
            rate = _number(res.get("anomaly_rate"))
            if rate is not None and rate > 0:
                score += rate * 100
                reasons.append(f"{rate:.1%} of points anomalous ({art.id})")
            hyps = res.get("hypotheses") or []
            if hyps and isinstance(hyps[0], dict):
                conf = hypothesis_confidence(hyps[0]) or 0.0
                score += conf * 5
                reasons.append(f"most likely {hyps[0].get('failure_mode')} at ~{conf:.0%} ({art.id})")
            trend = _number(res.get("efficiency_trend_per_day"))
            if trend is not None and trend > 0:
                score += 3
                reasons.append(f"kW/ton rising {trend:+.4f}/day ({art.id})")
            corrective = _number(res.get("corrective"))
            if corrective:
                score += 0.5 * corrective
                reasons.append(f"{int(corrective)} corrective work orders ({art.id})")
        out.append(AssetPriority(asset, round(score, 2), reasons))
    return sorted(out, key=lambda p: (-p.score, p.asset_id))
