"""Reading what other specialists found (pure): top hypothesis, sensor baselines, offline sensors.

Artifacts are the only channel between specialists, so these readers tolerate missing pieces: a
missing piece means "not known yet", never an exception.
"""

from __future__ import annotations

from typing import Any

from artifacts.model import Artifact
from graph.types import SpecialistTask


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


def top_hypothesis(artifacts: list[Artifact], asset: str | None,
                   task: SpecialistTask) -> tuple[str | None, float | None, list[str]]:
    """(failure mode, confidence, supporting lines) of the most likely *fault*: an explicit task
    parameter wins, else the newest diagnosis artifact of the asset, else nothing. When the diagnosis
    ranks "no fault" first, the best fault is still returned, with that caveat in the support lines."""
    explicit = task.params.get("failure_mode")
    if explicit and not is_no_fault(explicit):
        return str(explicit), task.params.get("confidence"), [f"failure mode given: {explicit}"]
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


def baselines(artifacts: list[Artifact], asset: str | None, sensors: list[str]) -> dict[str, dict[str, float]]:
    """Sensor -> {mean, std} from the newest telemetry statistics of the asset."""
    for art in reversed(_mine(artifacts, asset)):
        stats = (art.results or {}).get("stats")
        if art.producer != "data" or not isinstance(stats, dict):
            continue
        out = {}
        for sensor, values in stats.items():
            if sensors and sensor not in sensors:
                continue
            if isinstance(values, dict) and isinstance(values.get("mean"), int | float) \
                    and isinstance(values.get("std"), int | float):
                out[sensor] = {"mean": float(values["mean"]), "std": float(values["std"])}
        if out:
            return out
    return {}


def offline_sensors(artifacts: list[Artifact], asset: str | None) -> list[str]:
    """Sensors reported without data in the newest telemetry window of the asset."""
    for art in reversed(_mine(artifacts, asset)):
        missing = (art.results or {}).get("sensors_without_data")
        if art.producer == "data" and isinstance(missing, list):
            return [str(s) for s in missing]
    return []
