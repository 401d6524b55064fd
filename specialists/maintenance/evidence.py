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


def top_hypothesis(artifacts: list[Artifact], asset: str | None,
                   task: SpecialistTask) -> tuple[str | None, float | None, list[str]]:
    """(failure mode, confidence, supporting lines): an explicit task parameter wins, else the newest
    diagnosis artifact of the asset, else nothing."""
    explicit = task.params.get("failure_mode")
    if explicit:
        return str(explicit), task.params.get("confidence"), [f"failure mode given: {explicit}"]
    for art in reversed(_mine(artifacts, asset)):
        hyps = (art.results or {}).get("hypotheses")
        if art.producer == "failure" and isinstance(hyps, list) and hyps and isinstance(hyps[0], dict):
            top = next((h for h in hyps if h.get("failure_mode") and "no fault" not in str(h["failure_mode"]).lower()),
                       None)
            if top is None:
                continue
            support = [f"diagnosis {art.id}: {top['failure_mode']}", *list(top.get("evidence_for") or [])[:4]]
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
