"""Evidence for diagnosis (pure): how each physical signal moved between a baseline and a recent window.

Chillers follow the weather, so raw means across weeks would mistake a hot week for a fault. Every
signal is therefore compared like with like:
- chilled-water temperatures are taken relative to the setpoint (the setpoint is reset on cool days);
- power and kW/ton are corrected for lift with the usual rule of thumb (about 1.5 % more compressor
  power per degF of lift; lift proxy = condenser water temperature minus refrigerant temperature),
  so a hotter week does not read as a condenser fault;
- each signal is regressed on load in the baseline, and recent samples are judged by their residuals,
  using only recent samples inside the baseline's load range when there are enough of them.
Shifts are given in physical units and as effect sizes (shift over the baseline residual spread), and
separately for the lower and upper third of the recent load, because several faults grow with load and
a drifting sensor does not.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from specialists.common.derived import (
    CHW_DELTA_T,
    CONDENSER_LIFT,
    DERIVED_UNITS,
    EVAP_APPROACH,
    KW_PER_TON,
    SUPPLY_OFFSET,
    add_derived_signals,
)
from specialists.common.frames import LOAD, RUNNING_LOAD_PCT, running_mask
from specialists.common.trend import robust_sigma

MIN_SAMPLES = 24  # six hours of running data at 15 minutes
EVENT_LOOKBACK = pd.Timedelta(days=1)
# Compressor power at a given duty grows roughly in proportion to (lift + LIFT_OFFSET_F): about 1.5 % per
# degF near design lift, more at low lift (the rule of thumb). The offset also stands in for the
# condenser water temperature rise the lift proxy (condenser water - refrigerant temperature) misses.
LIFT_OFFSET_F = 20.0
SETPOINT = "Setpoint Temperature"
CHW_TEMPERATURES: tuple[str, ...] = (
    "Supply Temperature",
    "Return Temperature",
    "Liquid Refrigerant Evaporator Temperature",
)
LIFT_CORRECTED: tuple[str, ...] = (KW_PER_TON, "Power Input")
# Smallest spread we trust per signal (about the sensor resolution), so a very quiet baseline cannot
# turn a 0.1 degF wobble into a huge effect size.
SIGMA_FLOOR: dict[str, float] = {
    EVAP_APPROACH: 0.25,
    CONDENSER_LIFT: 0.3,
    CHW_DELTA_T: 0.25,
    SUPPLY_OFFSET: 0.2,
    "Supply Temperature": 0.2,
    "Return Temperature": 0.25,
    "Liquid Refrigerant Evaporator Temperature": 0.25,
    "Condenser Water Return To Tower Temperature": 0.3,
    "Condenser Water Supply To Chiller Temperature": 0.3,
    KW_PER_TON: 0.015,
    "Power Input": 3.0,
    "Tonnage": 5.0,
    "Condenser Water Flow": 20.0,
}
SIGNALS: tuple[str, ...] = (
    EVAP_APPROACH,
    CONDENSER_LIFT,
    CHW_DELTA_T,
    SUPPLY_OFFSET,
    KW_PER_TON,
    "Power Input",
    "Tonnage",
    "Condenser Water Flow",
    "Supply Temperature",
    "Return Temperature",
    "Liquid Refrigerant Evaporator Temperature",
    "Condenser Water Return To Tower Temperature",
    "Condenser Water Supply To Chiller Temperature",
)
TEMPERATURE_SENSORS: tuple[str, ...] = (
    "Supply Temperature",
    "Return Temperature",
    "Liquid Refrigerant Evaporator Temperature",
    "Condenser Water Supply To Chiller Temperature",
    "Condenser Water Return To Tower Temperature",
)


@dataclass
class SignalShift:
    """How one signal moved at equal load between the baseline and the recent window."""

    signal: str
    units: str
    shift: float  # recent minus baseline-at-same-load, in units
    z: float  # shift / baseline residual spread (effect size)
    high_load_shift: float | None  # the same, upper third of the recent load
    low_load_shift: float | None  # the same, lower third of the recent load
    high_load_pct: float | None  # mean load of that upper third
    low_load_pct: float | None
    variance_ratio: float | None  # recent residual spread / baseline residual spread
    baseline_level: float
    samples: int
    matched: bool = True  # recent samples lay inside the baseline's load range (no extrapolation)

    @property
    def load_dependence(self) -> float | None:
        """High-load shift minus low-load shift (None when either band lacks data)."""
        if self.high_load_shift is None or self.low_load_shift is None:
            return None
        return self.high_load_shift - self.low_load_shift

    def offset_fraction(self) -> float | None:
        """Where the shift sits between 'proportional to load' (0) and 'the same at every load' (1).

        With low/high the shifts and loads of the two bands: (low/high - Llow/Lhigh) / (1 - Llow/Lhigh).
        Heat-transfer faults scale with load (<= 0), charge loss leaves an offset at low load (between),
        a sensor offset is equal everywhere (~1). None when the bands are too close or the shift small.
        """
        if None in (self.high_load_shift, self.low_load_shift, self.high_load_pct, self.low_load_pct):
            return None
        assert self.high_load_shift is not None and self.low_load_shift is not None
        assert self.high_load_pct is not None and self.low_load_pct is not None
        load_ratio = self.low_load_pct / max(self.high_load_pct, 1e-6)
        if load_ratio > 0.8 or abs(self.high_load_shift) < 0.3:
            return None
        return (self.low_load_shift / self.high_load_shift - load_ratio) / (1.0 - load_ratio)


@dataclass
class Evidence:
    """Everything the scorer looks at for one asset and window."""

    asset_id: str
    baseline: tuple[str, str]
    recent: tuple[str, str]
    shifts: dict[str, SignalShift] = field(default_factory=dict)
    offline_sensors: list[str] = field(default_factory=list)  # stopped reporting before the window end
    trip_at: str | None = None  # time of an abrupt stop from running to off in the recent window
    anomaly_rates: dict[str, float] = field(default_factory=dict)  # sensor -> rate from anomaly artifacts
    relevance: dict[str, dict[str, bool]] = field(default_factory=dict)  # failure mode -> sensor -> relevant
    notes: list[str] = field(default_factory=list)

    def z(self, signal: str) -> float | None:
        """Effect size of a signal, None when it could not be measured."""
        shift = self.shifts.get(signal)
        return None if shift is None else shift.z

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly compact view (rounded)."""

        def rounded(value: Any) -> Any:
            return round(value, 4) if isinstance(value, float) else value

        return {
            "asset_id": self.asset_id,
            "baseline": list(self.baseline),
            "recent": list(self.recent),
            "shifts": {k: {kk: rounded(vv) for kk, vv in asdict(v).items()} for k, v in self.shifts.items()},
            "offline_sensors": self.offline_sensors,
            "trip_at": self.trip_at,
            "anomaly_rates": {k: round(v, 4) for k, v in self.anomaly_rates.items()},
            "notes": self.notes,
        }


def _fit_on_load(load: np.ndarray, values: np.ndarray, *, allow_curve: bool) -> np.ndarray:
    """Polynomial coefficients of values ~ load: a curve when the baseline spans a wide load range
    (part-load efficiency is not linear), a line for a narrower one, a constant when load barely varies.
    `allow_curve` is False when the recent samples lie outside the baseline range (no curved extrapolation)."""
    spread = float(np.ptp(load)) if load.size else 0.0
    degree = (
        2
        if allow_curve and spread >= 30.0 and load.size >= 50
        else 1
        if spread >= 5.0 and load.size >= 3
        else 0
    )
    if degree == 0:
        return np.array([float(np.median(values))])
    return np.polyfit(load, values, degree)


def _band(
    residuals: pd.Series, load: pd.Series, mask: pd.Series, reference: float
) -> tuple[float | None, float | None]:
    chosen = mask & residuals.notna()
    if int(chosen.sum()) < max(MIN_SAMPLES // 3, 4):
        return None, None
    return float(residuals[chosen].median()) - reference, float(load[chosen].mean())


EXTRAPOLATION_DISCOUNT = 0.5  # effect sizes judged outside the baseline's load range count half


def _matched(now: pd.DataFrame, base_load: np.ndarray) -> tuple[pd.DataFrame, bool]:
    """Recent rows inside the baseline's load range (+-5 points) when enough exist: like with like.
    The flag says whether that worked (False: the load line is extrapolated)."""
    if LOAD not in now.columns or base_load.size == 0:
        return now, True
    low, high = np.percentile(base_load, 2) - 5.0, np.percentile(base_load, 98) + 5.0
    inside = now[(now[LOAD] >= low) & (now[LOAD] <= high)]
    return (inside, True) if len(inside) >= MIN_SAMPLES else (now, False)


NARROW_LOAD_SPREAD = 15.0  # load points: a baseline narrower than this cannot tell the load slope


def _load_line(base: pd.DataFrame, now: pd.DataFrame, signal: str, matched: bool) -> tuple[np.ndarray, bool]:
    """The load curve residuals are taken against, and whether the comparison stays in range.

    Normally fitted on the baseline. A baseline at nearly one load (a winter lead machine) cannot
    tell the slope: then the recent window's line is used and the two are compared at the
    baseline's loads, an interpolation when those loads lie inside the recent range.
    """
    base_load, now_load = base[LOAD].to_numpy(float), now[LOAD].to_numpy(float)
    if matched or np.ptp(base_load) >= NARROW_LOAD_SPREAD or np.ptp(now_load) < NARROW_LOAD_SPREAD:
        return _fit_on_load(base_load, base[signal].to_numpy(float), allow_curve=matched), matched
    middle = float(np.median(base_load))
    inside = float(now_load.min()) <= middle <= float(now_load.max())  # a plain bool: it is stored as JSON
    return np.polyfit(now_load, now[signal].to_numpy(float), 1), inside


def signal_shift(signal: str, baseline: pd.DataFrame, recent: pd.DataFrame) -> SignalShift | None:
    """Load-adjusted shift of one signal (frames: running samples with LOAD and the signal)."""
    if signal not in baseline.columns or signal not in recent.columns:
        return None
    has_load = LOAD in baseline.columns and LOAD in recent.columns
    columns = [signal, LOAD] if has_load else [signal]
    base, now = baseline[columns].dropna(), recent[columns].dropna()
    if len(base) < MIN_SAMPLES or len(now) < MIN_SAMPLES:
        return None
    base_load = base[LOAD].to_numpy(float) if has_load else np.zeros(len(base))
    now, matched = _matched(now, base_load)
    now_load = now[LOAD] if has_load else pd.Series(0.0, index=now.index)
    if has_load:
        coefficients, matched = _load_line(base, now, signal, matched)
    else:
        coefficients = np.array([float(base[signal].median())])
    base_resid = base[signal] - np.polyval(coefficients, base_load)
    now_resid = now[signal] - np.polyval(coefficients, now_load.to_numpy(float))
    sigma = max(robust_sigma(base_resid), SIGMA_FLOOR.get(signal, 1e-3))
    reference = float(base_resid.median())
    shift = float(now_resid.median()) - reference
    low_cut, high_cut = (now_load.quantile(1 / 3), now_load.quantile(2 / 3)) if has_load else (0.0, 0.0)
    high_shift, high_pct = (
        _band(now_resid, now_load, now_load >= high_cut, reference) if has_load else (None, None)
    )
    low_shift, low_pct = (
        _band(now_resid, now_load, now_load <= low_cut, reference) if has_load else (None, None)
    )
    return SignalShift(
        signal=signal,
        units=DERIVED_UNITS.get(signal, ""),
        shift=shift,
        z=shift / sigma * (1.0 if matched else EXTRAPOLATION_DISCOUNT),
        matched=matched,
        high_load_shift=high_shift,
        low_load_shift=low_shift,
        high_load_pct=high_pct,
        low_load_pct=low_pct,
        variance_ratio=robust_sigma(now_resid) / max(robust_sigma(base_resid), 1e-6),
        baseline_level=float(base[signal].median()),
        samples=len(now),
    )


def comparable_signals(frame: pd.DataFrame, baseline_mask: np.ndarray) -> tuple[pd.DataFrame, list[str]]:
    """Derived signals, chilled-water temperatures relative to setpoint, lift-corrected power and kW/ton.

    Returns the frame and notes on what could not be normalised.
    """
    out = add_derived_signals(frame)
    notes: list[str] = []
    if SETPOINT in out.columns:
        for name in CHW_TEMPERATURES:
            if name in out.columns:
                out[name] = out[name] - out[SETPOINT]
    if CONDENSER_LIFT in out.columns and out.loc[baseline_mask, CONDENSER_LIFT].notna().any():
        reference = float(out.loc[baseline_mask, CONDENSER_LIFT].median())
        factor = (LIFT_OFFSET_F + out[CONDENSER_LIFT]) / (LIFT_OFFSET_F + reference)
        for name in LIFT_CORRECTED:
            if name in out.columns:
                out[name] = out[name] / factor.where(factor > 0.2)
    else:
        notes.append("no condenser/refrigerant temperature pair: power and kW/ton not corrected for lift")
    return out, notes


SPARSE_SENSORS: frozenset[str] = frozenset(
    {"Run Status", "Schedule"}
)  # report only on change: silence is normal


def offline_sensors(frame: pd.DataFrame, *, tail_hours: float = 2.0) -> list[str]:
    """Sensors that stopped reporting: no value in the last `tail_hours` of the frame while at least
    one other sensor still reports there, and values earlier on."""
    if frame.empty:
        return []
    tail = frame[frame.index >= frame.index[-1] - pd.Timedelta(hours=tail_hours)]
    reporting = tail.notna().any()
    if not reporting.any():
        return []
    return [
        c for c in frame.columns if c not in SPARSE_SENSORS and not reporting[c] and frame[c].notna().any()
    ]


def went_offline_at(frame: pd.DataFrame, sensor: str) -> pd.Timestamp | None:
    """The last time a sensor reported (None when it never did)."""
    valid = frame[sensor].dropna()
    return None if valid.empty else valid.index[-1]


def _dark_from(frame: pd.DataFrame, *, min_hours: float) -> list[pd.Timestamp]:
    """When a sensor stopped reporting, after reporting, for at least `min_hours` or until the frame ends."""
    starts: list[pd.Timestamp] = []
    times = frame.index.to_series()
    for column in frame.columns:
        if column in SPARSE_SENSORS or column == LOAD:
            continue
        missing = frame[column].isna()
        if not missing.any():
            continue
        # one id per stretch of missing samples: the count of reported samples before it (0: it never reported)
        reported_so_far = (~missing).cumsum()
        stretches = times[missing].groupby(reported_so_far[missing])
        for (stretch_id, began), last in zip(stretches.min().items(), stretches.max(), strict=True):
            until_end = last == times.iloc[-1]
            if stretch_id and (until_end or last - began >= pd.Timedelta(hours=min_hours)):
                starts.append(began)
    return starts


def trip_time(
    frame: pd.DataFrame,
    *,
    offline: list[str] | None = None,
    max_load_after: float = 5.0,
    min_dark_hours: float = 2.0,
) -> str | None:
    """When the chiller last tripped; None when it did not.

    A stop is near-zero load for at least an hour after a running sample. It is a trip when a sensor
    went dark within an hour of it: one of `offline` (dark at the frame's end) or one that stayed dark
    for `min_dark_hours`. Stops that kill no sensor are not trips, however high the load they fell
    from: over a long record the fleet stops from high load for hours every month (staging, planned
    shutdowns), while a trip takes sensors down with it (DATA_MODEL's fault catalogue), and the
    record's short dropouts last minutes, not hours.
    """
    if LOAD not in frame.columns or len(frame) < 8:
        return None
    load = frame[LOAD].fillna(0.0).to_numpy(float)
    off_next_hour = pd.Series(load <= max_load_after).rolling(4).sum().shift(-4).fillna(0).to_numpy()
    deaths = [t for t in (went_offline_at(frame, s) for s in offline or []) if t is not None]
    deaths += _dark_from(frame, min_hours=min_dark_hours)
    if not deaths:
        return None
    for position in range(len(load) - 2, 3, -1):
        if load[position] <= RUNNING_LOAD_PCT or off_next_hour[position] < 4:
            continue
        stop = frame.index[position + 1]
        if any(abs((stop - t).total_seconds()) <= 3600 for t in deaths):
            return str(stop)
    return None


def build_evidence(
    frame: pd.DataFrame,
    asset_id: str,
    *,
    baseline: tuple[pd.Timestamp, pd.Timestamp],
    recent: tuple[pd.Timestamp, pd.Timestamp],
) -> Evidence:
    """Evidence for one asset from a short-name telemetry frame and two windows [start, end).

    Level shifts use running samples only (an idle chiller says nothing about fouling); offline
    sensors and trips are read from every recent sample.
    """
    in_base = np.asarray((frame.index >= baseline[0]) & (frame.index < baseline[1]))
    in_recent = np.asarray((frame.index >= recent[0]) & (frame.index < recent[1]))
    running = running_mask(frame).to_numpy()
    comparable, notes = comparable_signals(frame, in_base & running)
    evidence = Evidence(
        asset_id=asset_id,
        baseline=(str(baseline[0]), str(baseline[1])),
        recent=(str(recent[0]), str(recent[1])),
        notes=notes,
    )
    base_frame, recent_frame = comparable[in_base & running], comparable[in_recent & running]
    for signal in SIGNALS:
        shift = signal_shift(signal, base_frame, recent_frame)
        if shift is not None:
            evidence.shifts[signal] = shift
    # Stops and dead sensors are events: look a day further back so a trip right at the start of
    # the recent window (a step fault's onset) is still seen with the running sample before it.
    recent_all = frame[(frame.index >= recent[0] - EVENT_LOOKBACK) & (frame.index < recent[1])]
    evidence.offline_sensors = offline_sensors(recent_all)
    evidence.trip_at = trip_time(recent_all, offline=evidence.offline_sensors)
    for name, part in (("baseline", base_frame), ("recent", recent_frame)):
        if len(part) < MIN_SAMPLES:
            evidence.notes.append(f"{name} window has only {len(part)} running samples; shifts not measured")
    return evidence
