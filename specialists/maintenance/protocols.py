"""Pure checklists and protocols: safe restart after a trip, post-repair validation, monitoring."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from specialists.common.frames import RUNNING_LOAD_PCT

# Validation: the repair is accepted when each watched sensor's 7-day mean returns within
# ACCEPT_SIGMA baseline standard deviations of its pre-fault baseline mean, at comparable load.
VALIDATION_DAYS = 7
ACCEPT_SIGMA = 1.0
ALERT_SIGMA = 3.0


@dataclass
class Protocol:
    """A titled, ordered list of steps plus machine-readable acceptance criteria."""

    title: str
    steps: list[str]
    criteria: list[dict[str, Any]] = field(default_factory=list)

    def as_results(self) -> dict[str, Any]:
        return {"title": self.title, "steps": self.steps, "criteria": self.criteria}


def restart_checklist(asset_id: str, offline_sensors: list[str], suspected: str | None) -> Protocol:
    """Steps to restart a chiller safely after a trip."""
    steps = [
        f"Do not reset {asset_id} remotely: read and record the trip code and alarm history at the panel first.",
        "Verify chilled-water and condenser-water pumps run and flow switches prove flow before any start.",
        "Check oil level/temperature and oil heater (compressor must have been heated per manufacturer time).",
        "Check refrigerant pressures at standstill for equalisation; look for leaks at joints if low.",
        "Check motor insulation/starter and phase voltages if the trip was electrical (overcurrent, ground fault).",
    ]
    if offline_sensors:
        steps.append("Restore the offline sensors before restart (" + ", ".join(offline_sensors) + "): check wiring, "
                     "transmitter power and BMS points; a chiller must not run with blind safety-relevant inputs.")
    if suspected:
        steps.append(f"Rule out the suspected cause before restart: {suspected}.")
    steps += [
        "Start at minimum load with an operator present; watch supply temperature, power, amps and approach for "
        "the first 30 minutes.",
        "Raise load in steps of 20-25 % only when readings are stable; stop on any repeat of the trip symptoms.",
    ]
    return Protocol(f"Safe restart of {asset_id} after a trip", steps)


def validation_protocol(asset_id: str, baselines: dict[str, dict[str, float]]) -> Protocol:
    """Post-repair validation: which sensors, how long, and the thresholds that accept the repair."""
    criteria = []
    for sensor, stats in sorted(baselines.items()):
        mean, std = stats.get("mean"), stats.get("std")
        if mean is None or std is None:
            continue
        criteria.append({"sensor": sensor, "baseline_mean": round(mean, 3), "baseline_std": round(std, 3),
                         "accept_low": round(mean - ACCEPT_SIGMA * std, 3),
                         "accept_high": round(mean + ACCEPT_SIGMA * std, 3), "days": VALIDATION_DAYS})
    steps = [
        f"Run {asset_id} for {VALIDATION_DAYS} days after the repair in normal duty (not test mode).",
        "Compare each watched sensor's daily mean at comparable load (same Chiller % Loaded band) with its baseline.",
        f"Accept the repair when every watched sensor stays within +/-{ACCEPT_SIGMA:g} baseline sigma; "
        "reopen the work order if any stays outside for 2 consecutive days.",
        "Re-run anomaly detection on the validation window; expect no anomaly run longer than 2 hours.",
        "Record the new baseline and close the corrective work order with the measured values.",
    ]
    return Protocol(f"Post-repair validation of {asset_id}", steps, criteria)


def monitoring_config(asset_id: str, baselines: dict[str, dict[str, float]]) -> Protocol:
    """Alert configuration from baselines: k-sigma bands with a persistence delay against noise."""
    criteria = []
    for sensor, stats in sorted(baselines.items()):
        mean, std = stats.get("mean"), stats.get("std")
        if mean is None or std is None:
            continue
        criteria.append({"sensor": sensor, "low": round(mean - ALERT_SIGMA * std, 3),
                         "high": round(mean + ALERT_SIGMA * std, 3), "persist_minutes": 60, "sigma": ALERT_SIGMA})
    steps = [
        f"Alert when a watched sensor of {asset_id} leaves its +/-{ALERT_SIGMA:g} sigma band for 60 minutes "
        f"while the chiller runs (Chiller % Loaded > {RUNNING_LOAD_PCT:g} %).",
        "Suppress alerts during start-up (first 30 minutes) and when the chiller is off.",
        "Review the bands quarterly against fresh baselines (seasonal load changes move them).",
    ]
    return Protocol(f"Monitoring configuration for {asset_id}", steps, criteria)
