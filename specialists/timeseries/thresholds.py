"""Alert threshold suggestions from a baseline (pure).

A threshold is proposed at k robust sigmas around the baseline median for several k; for each we count
how many alert episodes it would have raised over the analysed window, so a person can trade
sensitivity against noise. When the current firing count of the matching alert rule is known, the
expected reduction is reported against it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from specialists.common.derived import EVAP_APPROACH, SUPPLY_OFFSET, add_derived_signals
from specialists.common.frames import LOAD, running_mask
from specialists.common.trend import robust_sigma
from specialists.timeseries.anomaly import flagged_runs

K_LEVELS: tuple[float, ...] = (2.0, 3.0, 4.0)

# Alert rule name keyword -> (signal watched, side). Rule names come from the alert rule catalogue.
RULE_SIGNALS: dict[str, tuple[str, str]] = {
    "evaporator approach high": (EVAP_APPROACH, "upper"),
    "load low": (LOAD, "lower"),
    "setpoint attainment": (SUPPLY_OFFSET, "upper"),
}


@dataclass
class ThresholdLevel:
    """One candidate threshold and what it would have done over the window."""

    k: float
    threshold: float
    exceedance_samples: int
    alert_episodes: int
    reduction_vs_current: float | None = None  # 1 - episodes / current firing count


@dataclass
class ThresholdSuggestion:
    """Baseline range and candidate thresholds of one signal."""

    signal: str
    side: str  # upper | lower
    baseline_median: float
    baseline_sigma: float
    baseline_p01: float
    baseline_p99: float
    current_alerts: int | None
    levels: list[ThresholdLevel] = field(default_factory=list)
    recommended_k: float | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly view with rounded numbers."""
        return {
            "signal": self.signal,
            "side": self.side,
            "baseline_median": round(self.baseline_median, 4),
            "baseline_sigma": round(self.baseline_sigma, 4),
            "baseline_p01": round(self.baseline_p01, 4),
            "baseline_p99": round(self.baseline_p99, 4),
            "current_alerts": self.current_alerts,
            "recommended_k": self.recommended_k,
            "levels": [
                {
                    "k": lv.k,
                    "threshold": round(lv.threshold, 4),
                    "exceedance_samples": lv.exceedance_samples,
                    "alert_episodes": lv.alert_episodes,
                    "reduction_vs_current": None
                    if lv.reduction_vs_current is None
                    else round(lv.reduction_vs_current, 3),
                }
                for lv in self.levels
            ],
        }


def signal_for_rule(rule_name: str) -> tuple[str, str] | None:
    """The (signal, side) an alert rule watches, from its name; None when unknown."""
    lowered = rule_name.lower()
    return next((value for key, value in RULE_SIGNALS.items() if key in lowered), None)


def _episodes(exceeds: np.ndarray, gap_samples: int) -> int:
    return len(flagged_runs(exceeds, max_gap=gap_samples))


def suggest_threshold(
    series: pd.Series,
    *,
    side: str,
    baseline: pd.Series | None = None,
    current_alerts: int | None = None,
    k_levels: tuple[float, ...] = K_LEVELS,
    merge_gap_samples: int = 4,
) -> ThresholdSuggestion:
    """Candidate thresholds for one signal at k robust sigmas from the baseline median.

    `baseline` defaults to the series itself (a long history is its own best baseline). The
    recommended k is the smallest one that would cut the current firing count at least in half, or
    3 when no firing count is known.
    """
    reference = (baseline if baseline is not None else series).dropna()
    if reference.empty:
        raise ValueError(f"no baseline samples for '{series.name}'")
    median = float(reference.median())
    sigma = robust_sigma(reference, floor=1e-3)
    values = series.to_numpy(dtype=float)
    suggestion = ThresholdSuggestion(
        signal=str(series.name),
        side=side,
        baseline_median=median,
        baseline_sigma=sigma,
        baseline_p01=float(reference.quantile(0.01)),
        baseline_p99=float(reference.quantile(0.99)),
        current_alerts=current_alerts,
    )
    for k in k_levels:
        threshold = median + k * sigma if side == "upper" else median - k * sigma
        with np.errstate(invalid="ignore"):
            exceeds = values > threshold if side == "upper" else values < threshold
        exceeds = np.nan_to_num(exceeds, nan=0).astype(bool)
        episodes = _episodes(exceeds, merge_gap_samples)
        reduction = None if not current_alerts else 1.0 - episodes / current_alerts
        suggestion.levels.append(
            ThresholdLevel(
                k=k,
                threshold=threshold,
                exceedance_samples=int(exceeds.sum()),
                alert_episodes=episodes,
                reduction_vs_current=reduction,
            )
        )
    if current_alerts:
        halving = [
            lv.k
            for lv in suggestion.levels
            if lv.reduction_vs_current is not None and lv.reduction_vs_current >= 0.5
        ]
        suggestion.recommended_k = halving[0] if halving else k_levels[-1]
    else:
        suggestion.recommended_k = 3.0 if 3.0 in k_levels else k_levels[len(k_levels) // 2]
    return suggestion


def suggest_thresholds(
    frame: pd.DataFrame,
    targets: list[tuple[str, str]],
    *,
    current_alerts: dict[str, int] | None = None,
    baseline_fraction: float = 0.5,
) -> tuple[list[ThresholdSuggestion], list[str]]:
    """Suggestions for several (signal, side) targets of a short-name frame; also the signals lacking data.

    Levels are fitted on the first `baseline_fraction` of the running samples and evaluated over the
    whole window. Load-low thresholds use every sample (the rule is about the chiller idling).
    """
    enriched = add_derived_signals(frame)
    running = running_mask(frame)
    suggestions: list[ThresholdSuggestion] = []
    missing: list[str] = []
    for signal, side in targets:
        if signal not in enriched.columns or enriched[signal].notna().sum() < 8:
            missing.append(signal)
            continue
        series = enriched[signal] if signal == LOAD else enriched[signal].where(running)
        clean = series.dropna()
        baseline = clean.iloc[: max(int(len(clean) * baseline_fraction), 8)]
        suggestions.append(
            suggest_threshold(
                series, side=side, baseline=baseline, current_alerts=(current_alerts or {}).get(signal)
            )
        )
    return suggestions, missing
