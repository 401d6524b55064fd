"""Reading what other specialists found (pure): top hypothesis, sensor baselines, offline sensors.

Artifacts are the only channel between specialists, so these readers tolerate missing pieces: a
missing piece means "not known yet", never an exception.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pandas as pd

from artifacts.model import Artifact
from assetops.domain.turn import SpecialistTask
from specialists.common.frames import RUNNING_LOAD_PCT


def _mine(artifacts: list[Artifact], asset: str | None) -> list[Artifact]:
    return [a for a in artifacts if asset is None or not a.asset_ids or asset in a.asset_ids]


def hypothesis_confidence(hypothesis: dict[str, Any]) -> float | None:
    """The point confidence of a hypothesis dict, whichever field the producer used."""
    for key in ("probability", "confidence"):
        if isinstance(hypothesis.get(key), int | float):
            return float(hypothesis[key])
    span = hypothesis.get("confidence_range")
    if isinstance(span, list | tuple) and len(span) == 2:
        return (float(span[0]) + float(span[1])) / 2
    return None


def is_no_fault(failure_mode: object) -> bool:
    """The diagnosis' "no significant fault" hypothesis is not something to repair."""
    return "no fault" in str(failure_mode).lower() or "normal operation" in str(failure_mode).lower()


# A failure mode of the instrument, not the machine ("Temperature Sensor: Calibration drift").
_INSTRUMENT = re.compile(r"\b(?:sensor|transducer|transmitter|calibration)\b", re.IGNORECASE)


def is_instrument_fault(failure_mode: object) -> bool:
    """A fault of an instrument: the readings are off, the machine itself may be sound."""
    return bool(_INSTRUMENT.search(str(failure_mode)))


def top_hypothesis(artifacts: list[Artifact], asset: str | None,
                   task: SpecialistTask) -> tuple[str | None, float | None, list[str]]:
    """(failure mode, confidence, supporting lines) of the most likely *fault*: an explicit task
    parameter wins, else the newest diagnosis artifact of the asset, else nothing. When the diagnosis
    ranks "no fault" first, the best fault is still returned, with that caveat in the support lines."""
    explicit = task.params.get("failure_mode")
    if explicit and not is_no_fault(explicit):
        confidence, support = task.params.get("confidence"), [f"failure mode given: {explicit}"]
        for art in reversed(_mine(artifacts, asset)):  # the diagnosis that named it carries its confidence
            for hyp in (art.results or {}).get("hypotheses") or [] if art.producer == "failure" else []:
                if isinstance(hyp, dict) and str(hyp.get("failure_mode", "")).lower() == str(explicit).lower():
                    confidence = confidence if confidence is not None else hypothesis_confidence(hyp)
                    support = [f"diagnosis {art.id}: {explicit}", *list(hyp.get("evidence_for") or [])[:4]]
                    return str(explicit), confidence, support
        return str(explicit), confidence, support
    for art in reversed(_mine(artifacts, asset)):
        hyps = (art.results or {}).get("hypotheses")
        if art.producer == "failure" and isinstance(hyps, list) and hyps and isinstance(hyps[0], dict):
            top = next((h for h in hyps if h.get("failure_mode") and not is_no_fault(h["failure_mode"])), None)
            if top is None:
                continue
            support = [f"diagnosis {art.id}: {top['failure_mode']}", *list(top.get("evidence_for") or [])[:4]]
            if is_no_fault(hyps[0].get("failure_mode")):
                conf = hypothesis_confidence(hyps[0])
                support.insert(0, "the diagnosis ranks normal operation first"
                               + (f" ({conf:.0%})" if conf is not None else "") + ": treat this as an inspection order")
            return str(top["failure_mode"]), hypothesis_confidence(top), support
    return None, None, []


# Running = the chiller carries load (above RUNNING_LOAD_PCT, the threshold every specialist uses); bands from
# all samples would mix the off state (supply at room temperature, zero power) into the normal range and give
# limits no running chiller can reach.
MIN_RUNNING_SAMPLES = 96  # one day of running data at 15 minutes


def running_baselines(frame: pd.DataFrame, asset: str, sensors: list[str]) -> dict[str, dict[str, float]]:
    """Sensor -> {mean, std, n} over the running samples of a telemetry window (CSV columns are full
    sensor names). Set-point and load columns describe operation, not health, and are left out."""
    load = f"{asset} Chiller % Loaded"
    if load not in frame.columns:
        return {}
    running = frame[pd.to_numeric(frame[load], errors="coerce") > RUNNING_LOAD_PCT]
    skip = {load, f"{asset} Setpoint Temperature", f"{asset} Run Status", f"{asset} Schedule"}
    out: dict[str, dict[str, float]] = {}
    for column in frame.columns:
        if not column.startswith(f"{asset} ") or column in skip or (sensors and column not in sensors):
            continue
        values = pd.to_numeric(running[column], errors="coerce").dropna()
        if len(values) >= MIN_RUNNING_SAMPLES:
            out[column] = {"mean": float(values.mean()), "std": float(values.std()), "n": float(len(values))}
    return out


def telemetry_csv(artifacts: list[Artifact], asset: str | None, workdir: Path) -> Path | None:
    """The data file of the newest telemetry window of the asset, when it still exists in the work dir."""
    for art in reversed(_mine(artifacts, asset)):
        if art.producer == "data" and art.data_ref and str(art.data_ref).endswith(".csv"):
            path = Path(art.data_ref)
            path = path if path.is_absolute() else workdir / path
            if path.is_file():
                return path
    return None


def offline_sensors(artifacts: list[Artifact], asset: str | None) -> list[str]:
    """Sensors reported without data in the newest telemetry window of the asset."""
    for art in reversed(_mine(artifacts, asset)):
        missing = (art.results or {}).get("sensors_without_data")
        if art.producer == "data" and isinstance(missing, list):
            return [str(s) for s in missing]
    return []
