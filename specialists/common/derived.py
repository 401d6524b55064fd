"""Physically meaningful signals derived from the raw chiller sensors (pure).

Approach temperatures and ratios reveal faults that raw sensors hide: a fouled evaporator keeps the
supply temperature at setpoint but needs a colder refrigerant to do it, so only the approach widens.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

EVAP_APPROACH = "Evaporator Approach"  # supply - liquid refrigerant evaporator temperature (degF)
CONDENSER_TEMP = "Condenser Water Temperature"  # the one condenser water temperature the chiller reports
CONDENSER_LIFT = "Condenser Lift"  # condenser water temperature - refrigerant evaporator temperature (degF)
CHW_DELTA_T = "Chilled Water Delta T"  # return - supply (degF)
SUPPLY_OFFSET = "Supply Minus Setpoint"  # supply - setpoint (degF)
KW_PER_TON = "kW per Ton"  # Chiller Efficiency, else Power Input / Tonnage
POWER_PER_LOAD = (
    "Power per % Load"  # kW per % loaded: rises when the compressor works harder for the same duty
)

# Chiller 6 reports the return-to-tower (leaving) temperature; the others the supply-to-chiller one.
CONDENSER_SOURCES: tuple[str, ...] = (
    "Condenser Water Return To Tower Temperature",
    "Condenser Water Supply To Chiller Temperature",
)
DERIVED_UNITS: dict[str, str] = {
    EVAP_APPROACH: "degF",
    CONDENSER_TEMP: "degF",
    CONDENSER_LIFT: "degF",
    CHW_DELTA_T: "degF",
    SUPPLY_OFFSET: "degF",
    KW_PER_TON: "kW/ton",
    POWER_PER_LOAD: "kW/%",
}


def _difference(frame: pd.DataFrame, left: str, right: str) -> pd.Series | None:
    if left in frame.columns and right in frame.columns:
        return frame[left] - frame[right]
    return None


def _ratio(numerator: pd.Series, denominator: pd.Series, floor: float) -> pd.Series:
    # Ratios explode when the chiller idles; leave those samples out instead of inventing values.
    return (numerator / denominator.where(denominator.abs() > floor)).replace([np.inf, -np.inf], np.nan)


def condenser_source(frame: pd.DataFrame) -> str | None:
    """Which condenser water temperature the frame carries (None when neither)."""
    return next((c for c in CONDENSER_SOURCES if c in frame.columns), None)


def add_derived_signals(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of `frame` (short sensor names) with every derived signal its sensors allow."""
    out = frame.copy()
    pairs = {
        EVAP_APPROACH: ("Supply Temperature", "Liquid Refrigerant Evaporator Temperature"),
        CHW_DELTA_T: ("Return Temperature", "Supply Temperature"),
        SUPPLY_OFFSET: ("Supply Temperature", "Setpoint Temperature"),
    }
    for name, (left, right) in pairs.items():
        series = _difference(frame, left, right)
        if series is not None:
            out[name] = series
    source = condenser_source(frame)
    if source is not None:
        out[CONDENSER_TEMP] = frame[source]
        lift = _difference(frame, source, "Liquid Refrigerant Evaporator Temperature")
        if lift is not None:
            out[CONDENSER_LIFT] = lift
    if "Chiller Efficiency" in frame.columns:
        out[KW_PER_TON] = frame["Chiller Efficiency"]
    elif "Power Input" in frame.columns and "Tonnage" in frame.columns:
        out[KW_PER_TON] = _ratio(frame["Power Input"], frame["Tonnage"], floor=5.0)
    if "Power Input" in frame.columns and "Chiller % Loaded" in frame.columns:
        out[POWER_PER_LOAD] = _ratio(frame["Power Input"], frame["Chiller % Loaded"], floor=5.0)
    return out
