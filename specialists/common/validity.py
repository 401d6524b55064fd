"""Sensor drift or real process change? (pure)

A real change in a chiller temperature drags physically coupled signals with it: a warmer supply at the
same load means less cooling or more compressor work, so power, kW/ton, tonnage or the other loop
temperature move too, and process faults grow with load. A drifting sensor moves alone and by the same
amount at every load. The check compares the suspect's load-adjusted shift with its coupled signals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from specialists.common.derived import CHW_DELTA_T, KW_PER_TON
from specialists.common.evidence import MIN_SAMPLES, TEMPERATURE_SENSORS, Evidence, SignalShift

SUSPECT_Z = 2.0  # a sensor someone asks about: this much movement is worth judging
ISOLATED_Z = 2.5  # a sensor nobody named: stricter, so a quiet chiller does not grow "drifting" sensors
FOLLOW_Z = 2.0  # a coupled signal with |z| >= this followed the suspect
LOAD_INDEPENDENCE = 0.4  # |high-load shift - low-load shift| below this share of the shift: same at all loads

# Signals that must follow a real change of the suspect (same water loop, or the energy balance):
# a real supply rise at equal load lifts the return and the refrigerant temperature with it; a real
# return rise means either the supply or the load (tonnage) rose.
STRONGLY_COUPLED: dict[str, tuple[str, ...]] = {
    "Supply Temperature": ("Return Temperature", "Liquid Refrigerant Evaporator Temperature"),
    "Return Temperature": ("Supply Temperature", "Tonnage"),
    "Liquid Refrigerant Evaporator Temperature": ("Supply Temperature",),
    "Condenser Water Supply To Chiller Temperature": ("Condenser Water Return To Tower Temperature",),
    "Condenser Water Return To Tower Temperature": ("Condenser Water Supply To Chiller Temperature",),
}
# Signals that usually move with a real change but also with the season; reported, never decisive.
WEAKLY_COUPLED: tuple[str, ...] = ("Power Input", KW_PER_TON)
# A refrigerant temperature can genuinely move alone (fouling, charge loss); those grow with load, so
# only an offset that is nearly the same at every load (offset fraction >= this) reads as a sensor.
REFRIGERANT = "Liquid Refrigerant Evaporator Temperature"
SENSOR_OFFSET_FRACTION = 0.75
SENSOR_VARIANCE_RATIO = 1.5  # a pure offset leaves the load-adjusted spread as it was


@dataclass
class ValidityVerdict:
    """The verdict on one sensor with the numbers behind it."""

    sensor: str
    verdict: str  # sensor_drift | real_change | no_change | inconclusive | not_measured
    shift: float | None
    z: float | None
    coupled: dict[str, float] = field(default_factory=dict)  # coupled signal -> z
    followers: list[str] = field(default_factory=list)
    load_dependence: float | None = None
    reasons: list[str] = field(default_factory=list)

    def describe(self) -> str:
        """One line for people."""
        if self.shift is None:
            return f"{self.sensor}: not measured"
        # (the coupled signals are named: they are what "which readings should have stayed flat?" asks for)
        checked = f" ({', '.join(self.coupled)})" if self.coupled else ""
        return (
            f"{self.sensor} moved {self.shift:+.2f} degF at equal load (z {self.z:+.1f}) while "
            f"{len(self.followers)} of its coupled signals{checked} followed: {self.verdict.replace('_', ' ')}"
        )

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly view."""
        return {
            "sensor": self.sensor,
            "verdict": self.verdict,
            "shift": None if self.shift is None else round(self.shift, 3),
            "z": None if self.z is None else round(self.z, 2),
            "coupled_z": {k: round(v, 2) for k, v in self.coupled.items()},
            "followers": self.followers,
            "load_dependence": None if self.load_dependence is None else round(self.load_dependence, 3),
            "reasons": self.reasons,
        }


@dataclass
class IsolatedFinding:
    """A temperature that moved while nothing coupled to it did."""

    sensor: str
    shift: float
    z: float
    verdict: ValidityVerdict

    def describe(self) -> str:
        """One line for people."""
        return self.verdict.describe()


def _even_across_load(sensor: str, shift: SignalShift) -> bool:
    """Is the shift about the same at every load (as a sensor offset is)?

    The refrigerant temperature is special. Reading warmer at equal load (a narrower approach) is
    no known process fault, so only the coupled supply temperature decides. Reading colder is what
    charge loss and fouling do, so a sensor is blamed only for an offset that is equal across load
    and leaves the residual spread unchanged (a real, load-dependent change widens it).
    """
    fraction = shift.offset_fraction()
    if sensor == REFRIGERANT:
        if shift.shift > 0:
            return True
        steady = shift.variance_ratio is None or shift.variance_ratio < SENSOR_VARIANCE_RATIO
        return fraction is not None and fraction >= SENSOR_OFFSET_FRACTION and steady
    dependence = shift.load_dependence
    return dependence is None or abs(dependence) <= LOAD_INDEPENDENCE * max(abs(shift.shift), 0.5)


def sensor_validity(evidence: Evidence, sensor: str, *, min_z: float = SUSPECT_Z) -> ValidityVerdict:
    """Judge one sensor (short name): drift when it moved alone (its strongly coupled signals did not
    follow) and evenly across load; real change when they followed or the shift grows with load."""
    shift = evidence.shifts.get(sensor)
    if shift is None:
        return ValidityVerdict(
            sensor,
            "not_measured",
            None,
            None,
            reasons=[
                f"{sensor} could not be compared at equal load: it is not reported, or it has fewer than "
                f"{MIN_SAMPLES} running samples in the baseline or the recent part of the window"
            ],
        )
    verdict = ValidityVerdict(
        sensor, "inconclusive", shift.shift, shift.z, load_dependence=shift.load_dependence
    )
    strong = [s for s in STRONGLY_COUPLED.get(sensor, ()) if s in evidence.shifts]
    for other in (*strong, *WEAKLY_COUPLED):
        if other in evidence.shifts:
            verdict.coupled[other] = evidence.shifts[other].z
    # A coupled shift judged outside the baseline's load range is an extrapolation: it cannot vouch
    # for a real change (tonnage extrapolated from a narrow winter baseline, for instance).
    strong = [s for s in strong if evidence.shifts[s].matched] or strong
    verdict.followers = [
        name for name in strong if abs(verdict.coupled[name]) >= FOLLOW_Z and evidence.shifts[name].matched
    ]
    weak_movers = [name for name in WEAKLY_COUPLED if abs(verdict.coupled.get(name, 0.0)) >= FOLLOW_Z]
    even = _even_across_load(sensor, shift)
    if abs(shift.z) < min_z:
        verdict.verdict = "no_change"
        verdict.reasons.append(f"shift {shift.shift:+.2f} is within the normal spread (z {shift.z:+.1f})")
    elif not strong:
        verdict.reasons.append(
            "no physically coupled temperature measured; cannot tell drift from a real change"
        )
    elif not verdict.followers and even:
        verdict.verdict = "sensor_drift"
        verdict.reasons.append(
            f"{', '.join(strong)} did not follow and the offset is the same at high and low load"
        )
    else:
        verdict.verdict = "real_change"
        if verdict.followers:
            verdict.reasons.append(f"coupled signals followed: {', '.join(verdict.followers)}")
        if not even:
            verdict.reasons.append("the shift changes with load, as process faults do")
    if weak_movers:
        verdict.reasons.append(f"{', '.join(weak_movers)} also moved (season or load can do that too)")
    _delta_t_consistency(evidence, sensor, verdict)
    return verdict


def _delta_t_consistency(evidence: Evidence, sensor: str, verdict: ValidityVerdict) -> None:
    """Tonnage follows flow x delta-T: a delta-T change without a tonnage change means a sensor is off."""
    if sensor not in ("Supply Temperature", "Return Temperature"):
        return
    delta_t, tonnage = evidence.shifts.get(CHW_DELTA_T), evidence.shifts.get("Tonnage")
    if delta_t is None or tonnage is None or abs(delta_t.z) < FOLLOW_Z:
        return
    relative = delta_t.shift / max(abs(delta_t.baseline_level), 0.5)
    verdict.reasons.append(
        f"chilled-water delta-T moved {delta_t.shift:+.2f} degF ({relative:+.0%}) while tonnage moved "
        f"{tonnage.shift:+.1f} tons (z {tonnage.z:+.1f})"
        + ("; delta-T and tonnage disagree, pointing at the sensor" if abs(tonnage.z) < FOLLOW_Z else "")
    )


def isolated_temperature(evidence: Evidence) -> IsolatedFinding | None:
    """The temperature sensor with the largest shift among those judged 'sensor_drift', if any."""
    findings: list[IsolatedFinding] = []
    for sensor in TEMPERATURE_SENSORS:
        verdict = sensor_validity(evidence, sensor, min_z=ISOLATED_Z)
        if verdict.verdict == "sensor_drift" and verdict.shift is not None and verdict.z is not None:
            findings.append(IsolatedFinding(sensor, verdict.shift, abs(verdict.z), verdict))
    return max(findings, key=lambda f: f.z) if findings else None


def suspect_sensors(evidence: Evidence, *, min_z: float = ISOLATED_Z) -> list[ValidityVerdict]:
    """Temperature sensors that moved on their own (sensor drift verdicts), largest shift first."""
    verdicts = [sensor_validity(evidence, sensor, min_z=min_z) for sensor in TEMPERATURE_SENSORS]
    drifting = [v for v in verdicts if v.verdict == "sensor_drift" and v.z is not None]
    return sorted(drifting, key=lambda v: -abs(v.z or 0.0))
