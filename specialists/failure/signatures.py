"""Expected telemetry signatures of the chiller failure modes (pure data).

Each failure mode lists how the load-adjusted signals should move (+1 up, -1 down, 0 stay normal) and
how much that expectation counts. The table follows the fault signatures of DATA_MODEL.md and the
sensor-relevance knowledge base (fleet/knowledge/sensor_relevance.yaml): e.g. condenser fouling raises
power and kW/ton at equal load with normal condenser flow; evaporator fouling widens the evaporator
approach mostly at high load; a drifting temperature sensor moves alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from specialists.common.derived import (
    CHW_DELTA_T,
    EVAP_APPROACH,
    KW_PER_TON,
    SUPPLY_OFFSET,
)

COMPRESSOR_OVERHEATING = "Compressor Overheating: Failed due to Normal wear, overheating"
HX_FANS = "Heat Exchangers: Fans: Degraded motor or worn bearing due to Normal use"
EVAPORATOR_FOULING = "Evaporator Water side fouling"
CONDENSER_FOULING = "Condenser Water side fouling"
CONDENSER_FLOW = "Condenser Improper water side flow rate"
PURGE = "Purge Unit Excessive purge"
CONTROL_VALVE = "Refrigerant Operated Control Valve Failed spring"
SENSOR_DRIFT = "Temperature Sensor: Calibration drift"
TRIP = "Control Panel: Electrical failure (safety trip)"
NO_FAULT = "No fault: normal operation"

CONDENSER_RETURN = "Condenser Water Return To Tower Temperature"
CONDENSER_SUPPLY = "Condenser Water Supply To Chiller Temperature"
REFRIGERANT = "Liquid Refrigerant Evaporator Temperature"
FLOW = "Condenser Water Flow"
POWER = "Power Input"
RETURN = "Return Temperature"

# Pseudo-signals computed by the scorer from the evidence rather than measured shifts.
LOAD_DEPENDENT_APPROACH = "evaporator approach widening proportional to load"
APPROACH_OFFSET_AT_LOW_LOAD = "evaporator approach widened at low load too"
TRIP_SEEN = "abrupt stop (trip) in the window"
OFFLINE_SEEN = "sensor(s) went offline"
ISOLATED_TEMPERATURE = "one temperature moved alone"
HUNTING = "refrigerant temperature oscillation (variance up)"


@dataclass(frozen=True)
class Expectation:
    """One expected behaviour of a signal under a failure mode."""

    signal: str
    direction: int  # +1 up, -1 down, 0 stays normal
    weight: float


@dataclass(frozen=True)
class Signature:
    """A failure mode's expected behaviours, its prior offset, and the measurement that confirms it."""

    failure_mode: str
    expectations: tuple[Expectation, ...]
    prior: float  # log-odds offset: common, well-instrumented faults 0; rare or weakly observable < 0
    confirm_by: str


def _e(signal: str, direction: int, weight: float) -> Expectation:
    return Expectation(signal, direction, weight)


SIGNATURES: tuple[Signature, ...] = (
    Signature(
        CONDENSER_FOULING,
        (
            _e(POWER, +1, 1.0),
            _e(KW_PER_TON, +1, 1.0),
            _e(CONDENSER_RETURN, +1, 0.4),
            _e(FLOW, 0, 1.0),
            _e(EVAP_APPROACH, 0, 0.8),
            _e(SUPPLY_OFFSET, 0, 0.8),
            _e(REFRIGERANT, 0, 0.3),
            _e(TRIP_SEEN, 0, 0.4),
            _e(ISOLATED_TEMPERATURE, 0, 0.8),
        ),
        0.0,
        "condenser refrigerant pressure / condensing temperature vs leaving condenser water (condenser approach), "
        "or an eddy-current/tube inspection",
    ),
    Signature(
        EVAPORATOR_FOULING,
        (
            _e(EVAP_APPROACH, +1, 1.4),
            _e(LOAD_DEPENDENT_APPROACH, +1, 1.0),
            _e(REFRIGERANT, -1, 0.6),
            _e(POWER, +1, 0.3),
            _e(KW_PER_TON, +1, 0.3),
            _e(SUPPLY_OFFSET, 0, 0.3),
            _e(FLOW, 0, 0.4),
            _e(CHW_DELTA_T, 0, 0.4),
            _e(TRIP_SEEN, 0, 0.4),
            _e(ISOLATED_TEMPERATURE, 0, 0.8),
        ),
        0.0,
        "evaporator approach at matched high load after a chilled-water tube inspection, or evaporator "
        "water-side pressure drop",
    ),
    Signature(
        PURGE,
        (
            _e(REFRIGERANT, -1, 1.0),
            _e(EVAP_APPROACH, +1, 1.0),
            _e(APPROACH_OFFSET_AT_LOW_LOAD, +1, 1.0),
            _e(SUPPLY_OFFSET, +1, 0.3),
            _e(FLOW, 0, 0.4),
            _e(CHW_DELTA_T, 0, 0.3),
            _e(TRIP_SEEN, 0, 0.4),
            _e(ISOLATED_TEMPERATURE, 0, 0.8),
        ),
        0.0,
        "refrigerant charge / leak test and purge-unit run-time counter",
    ),
    Signature(
        CONDENSER_FLOW,
        (
            _e(FLOW, -1, 2.0),
            _e(CONDENSER_RETURN, +1, 0.4),
            _e(POWER, +1, 0.5),
            _e(KW_PER_TON, +1, 0.5),
            _e(EVAP_APPROACH, 0, 0.5),
            _e(TRIP_SEEN, 0, 0.4),
            _e(ISOLATED_TEMPERATURE, 0, 0.8),
        ),
        0.0,
        "condenser water flow with a portable ultrasonic meter, strainer differential pressure, pump and "
        "valve positions",
    ),
    Signature(
        COMPRESSOR_OVERHEATING,
        (
            _e(POWER, +1, 1.2),
            _e(KW_PER_TON, +1, 1.0),
            _e(SUPPLY_OFFSET, +1, 1.2),
            _e(REFRIGERANT, +1, 0.6),
            _e(TRIP_SEEN, +1, 0.5),
            _e(EVAP_APPROACH, 0, 0.5),
            _e(FLOW, 0, 0.5),
            _e(RETURN, +1, 0.6),
            _e(ISOLATED_TEMPERATURE, 0, 0.8),
        ),
        0.0,
        "compressor discharge temperature, motor winding temperature and oil analysis",
    ),
    Signature(
        TRIP,
        (
            _e(TRIP_SEEN, +1, 1.6),
            _e(OFFLINE_SEEN, +1, 1.8),
            _e(POWER, 0, 0.6),
            _e(KW_PER_TON, 0, 0.4),
            _e(SUPPLY_OFFSET, 0, 0.4),
            _e(EVAP_APPROACH, 0, 0.4),
        ),
        -0.3,
        "the control panel's trip log / alarm history and the safety-circuit status at the stop",
    ),
    Signature(
        SENSOR_DRIFT,
        (
            _e(ISOLATED_TEMPERATURE, +1, 2.4),
            _e(POWER, 0, 0.6),
            _e(KW_PER_TON, 0, 0.6),
            _e("Tonnage", 0, 0.3),
            _e(TRIP_SEEN, 0, 0.4),
        ),
        0.0,
        "a calibrated reference probe next to the suspect temperature sensor",
    ),
    Signature(
        HX_FANS,
        (
            _e(CONDENSER_SUPPLY, +1, 0.8),
            _e(CONDENSER_RETURN, +1, 0.4),
            _e(POWER, +1, 0.6),
            _e(KW_PER_TON, +1, 0.6),
            _e(FLOW, 0, 0.5),
            _e(EVAP_APPROACH, 0, 0.5),
            _e(SUPPLY_OFFSET, 0, 0.4),
        ),
        -1.0,
        "cooling-tower fan motor current and bearing vibration; tower approach to wet-bulb",
    ),
    Signature(
        CONTROL_VALVE,
        (
            _e(HUNTING, +1, 1.5),
            _e(FLOW, 0, 0.4),
        ),
        -0.8,
        "refrigerant feed valve stroke test and refrigerant pressure trend at 1-minute resolution",
    ),
)
SIGNATURE_BY_MODE: dict[str, Signature] = {s.failure_mode: s for s in SIGNATURES}

# A fault family name as users and other tools write it -> the failure mode here.
ALIASES: dict[str, str] = {
    "condenser_fouling": CONDENSER_FOULING,
    "evaporator_fouling": EVAPORATOR_FOULING,
    "condenser_flow": CONDENSER_FLOW,
    "refrigerant_loss": PURGE,
    "compressor_overheating": COMPRESSOR_OVERHEATING,
    "trip": TRIP,
    "sensor_drift": SENSOR_DRIFT,
}
