"""Behaviour by load band (pure): efficiency and approach temperatures at low vs high load.

Many chiller faults only show at high load (fouling, low refrigerant charge), so comparing the same
signal across load bands separates them from faults that shift everything (a drifting sensor).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from specialists.common.derived import CONDENSER_LIFT, EVAP_APPROACH, KW_PER_TON, add_derived_signals
from specialists.common.frames import LOAD, RUNNING_LOAD_PCT

DEFAULT_EDGES: tuple[float, ...] = (RUNNING_LOAD_PCT, 40.0, 70.0, 101.0)
BIN_SIGNALS: tuple[str, ...] = (
    KW_PER_TON,
    EVAP_APPROACH,
    CONDENSER_LIFT,
    "Power Input",
    "Tonnage",
    "Supply Temperature",
)


@dataclass
class LoadBin:
    """Mean signals within one load band."""

    label: str  # "10-40%"
    low: float
    high: float
    samples: int
    means: dict[str, float] = field(default_factory=dict)


@dataclass
class LoadBinReport:
    """All bands plus the high-minus-low difference per signal."""

    bins: list[LoadBin]
    high_minus_low: dict[str, float]
    missing_signals: list[str]

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly view with rounded numbers."""
        return {
            "bins": [
                {
                    "label": b.label,
                    "samples": b.samples,
                    "means": {k: round(v, 4) for k, v in b.means.items()},
                }
                for b in self.bins
            ],
            "high_minus_low": {k: round(v, 4) for k, v in self.high_minus_low.items()},
            "missing_signals": self.missing_signals,
        }


def load_bins(
    frame: pd.DataFrame, *, edges: tuple[float, ...] = DEFAULT_EDGES, signals: tuple[str, ...] = BIN_SIGNALS
) -> LoadBinReport:
    """Group running samples by Chiller % Loaded bands and average each signal per band.

    `frame` has short sensor names; derived signals (kW/ton, approaches) are added here.
    Raises ValueError when the frame has no load column, since bands cannot be formed then.
    """
    if LOAD not in frame.columns:
        raise ValueError(f"load bins need the '{LOAD}' sensor; the window has: {', '.join(frame.columns)}")
    enriched = add_derived_signals(frame)
    present = [s for s in signals if s in enriched.columns]
    missing = [s for s in signals if s not in enriched.columns]
    bins: list[LoadBin] = []
    for low, high in itertools.pairwise(edges):
        band = enriched[(enriched[LOAD] >= low) & (enriched[LOAD] < high)]
        means = {s: float(band[s].mean()) for s in present if band[s].notna().any()}
        bins.append(
            LoadBin(label=f"{low:g}-{min(high, 100):g}%", low=low, high=high, samples=len(band), means=means)
        )
    populated = [b for b in bins if b.samples > 0]
    high_minus_low: dict[str, float] = {}
    if len(populated) >= 2:
        lowest, highest = populated[0], populated[-1]
        for signal in present:
            if signal in lowest.means and signal in highest.means:
                high_minus_low[signal] = highest.means[signal] - lowest.means[signal]
    return LoadBinReport(bins=bins, high_minus_low=high_minus_low, missing_signals=missing)
