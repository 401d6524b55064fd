"""Which sensors explain which (pure): the conditional columns of load-conditioned anomaly detection.

A slow fault (fouling, a drifting sensor) changes the *relation* between a signal and what drives it
long before the signal leaves its usual range, so run_integrated_tsad judges a target against a model
of its drivers when given conditional columns. Power, efficiency, tonnage and the condenser side
follow the load; the chilled-water temperatures follow the setpoint as well.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

LOAD_DRIVERS: tuple[str, ...] = ("Chiller % Loaded", "Tonnage")
SETPOINT = "Setpoint Temperature"
SETPOINT_FOLLOWERS: frozenset[str] = frozenset(
    {"Supply Temperature", "Return Temperature", "Liquid Refrigerant Evaporator Temperature"}
)
# Set by people or by the schedule, not driven by the process: nothing explains them.
UNDRIVEN: frozenset[str] = frozenset({SETPOINT, "Run Status", "Schedule"})


def conditional_drivers(targets: Iterable[str], available: Iterable[str]) -> list[str]:
    """Short names of the driver columns for these short-name targets, limited to `available`
    (sensors the dataset has values for); empty when no target is process-driven.

    The tool takes one driver list per call and never uses a target as its own driver, so the
    union of the targets' drivers is returned: load for every process signal, plus the setpoint
    when a chilled-water temperature is among the targets.
    """
    wanted = [t for t in targets if t not in UNDRIVEN]
    if not wanted:
        return []
    drivers = list(LOAD_DRIVERS)
    if SETPOINT_FOLLOWERS & set(wanted):
        drivers.append(SETPOINT)
    present = set(available)
    return [d for d in drivers if d in present]


DEFAULT_CALIBRATION = 0.2  # the tool's default n_calibration
CALIBRATION_SHARES = (0.2, 0.3, 0.4, 0.5)
# The driver model learns from running rows of the calibration part (the first share of the window,
# in time order) and wants a few dozen after its warm-up; a day of running is a safe margin.
CALIBRATION_RUNNING_ROWS = 96


def calibration_share(running: Sequence[bool], needed: int = CALIBRATION_RUNNING_ROWS) -> float | None:
    """The smallest calibration share whose rows hold `needed` running samples, or None when even
    half the window does not (a window that starts idle: use the forecaster, not the driver model)."""
    total = len(running)
    for share in CALIBRATION_SHARES:
        if sum(bool(r) for r in running[: math.ceil(share * total)]) >= needed:
            return share
    return None
