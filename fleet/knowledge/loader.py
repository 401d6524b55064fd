"""Load the curated knowledge files (failure codes, alert rules, FMEA, sensor relevance, fault types).

The YAML files beside this module are the single source of that knowledge: the generator turns them
into FleetData frames, and tools that serve knowledge offline can read them through these functions.
Every loader is cached: the files are read once per process.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

KNOWLEDGE_DIR = Path(__file__).resolve().parent


class KnowledgeFileError(ValueError):
    """A knowledge file is missing or malformed; the message names the file and the entry."""


def _read(name: str) -> dict[str, Any]:
    path = KNOWLEDGE_DIR / name
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise KnowledgeFileError(f"cannot read knowledge file {path}: {exc}") from exc
    if not isinstance(data, dict):
        raise KnowledgeFileError(f"knowledge file {path} must hold a mapping at the top level")
    return data


@dataclass(frozen=True)
class FailureCode:
    """One (primary, secondary) failure-code pair with its category."""

    category: str
    primary_code: str
    primary_code_description: str
    secondary_code: str
    secondary_code_description: str


@cache
def failure_codes() -> tuple[FailureCode, ...]:
    """Every failure-code pair of failure_codes.yaml, in file order."""
    rows: list[FailureCode] = []
    for category, primaries in _read("failure_codes.yaml")["categories"].items():
        for code, description, secondaries in primaries:
            for secondary, secondary_description in secondaries:
                if not secondary.startswith(code):
                    raise KnowledgeFileError(f"secondary code {secondary} does not extend primary {code}")
                rows.append(FailureCode(category, code, description, secondary, secondary_description))
    return tuple(rows)


@cache
def primary_codes() -> dict[str, tuple[str, str]]:
    """Primary code -> (category, description), in file order."""
    return {row.primary_code: (row.category, row.primary_code_description) for row in failure_codes()}


@cache
def secondary_codes() -> dict[str, FailureCode]:
    """Secondary code -> its full failure-code pair."""
    return {row.secondary_code: row for row in failure_codes()}


@dataclass(frozen=True)
class AlertRule:
    """An alert rule: its check (implemented by the generator), thresholds and failure codes."""

    rule_id: str
    rule_name: str
    check: str
    params: dict[str, float]
    rule_logic: str
    failure_codes: tuple[str, ...]


@cache
def alert_rules() -> tuple[AlertRule, ...]:
    """The alert rules of alert_rules.yaml, in file order; unknown failure codes are an error."""
    known = primary_codes()
    rules: list[AlertRule] = []
    for entry in _read("alert_rules.yaml")["rules"]:
        codes = tuple(entry["failure_codes"])
        unknown = [code for code in codes if code not in known]
        if unknown:
            raise KnowledgeFileError(f"alert rule {entry['rule_id']} maps to unknown codes {unknown}")
        rules.append(AlertRule(entry["rule_id"], entry["rule_name"], entry["check"],
                               dict(entry["params"]), entry["rule_logic"], codes))
    return tuple(rules)


@dataclass(frozen=True)
class AnomalyMapping:
    """A KPI anomaly direction (High/Low) and the failure-code pair it points at."""

    kpi_name: str
    anomaly_type: str
    code: FailureCode


@cache
def anomaly_mappings() -> tuple[AnomalyMapping, ...]:
    """The KPI-anomaly -> failure-code mappings of anomaly_mapping.yaml."""
    by_secondary = secondary_codes()
    out: list[AnomalyMapping] = []
    for kpi, direction, primary, secondary in _read("anomaly_mapping.yaml")["mappings"]:
        code = by_secondary.get(secondary)
        if code is None or code.primary_code != primary:
            raise KnowledgeFileError(f"anomaly mapping {kpi}/{direction}: unknown pair {primary}/{secondary}")
        out.append(AnomalyMapping(kpi, direction, code))
    return tuple(out)


@dataclass(frozen=True)
class FmeaEntry:
    """One FMEA row; `curated_rank` is set for the failure modes get_failure_modes serves."""

    asset_class: str
    failure_mode: str
    degradation_mechanism: str
    influencing_factors: str
    detection: str
    preventive_task: str
    primary_codes: tuple[str, ...]
    curated_rank: int | None


@cache
def fmea_entries() -> tuple[FmeaEntry, ...]:
    """All FMEA rows, curated ones first per asset class and in their served order."""
    out: list[FmeaEntry] = []
    for asset_class, groups in _read("fmea.yaml").items():
        curated = groups.get("curated") or []
        broader = groups.get("broader") or []
        for rank, entry in enumerate([*curated, *broader], start=1):
            out.append(FmeaEntry(
                asset_class=asset_class, failure_mode=entry["failure_mode"],
                degradation_mechanism=entry["degradation_mechanism"],
                influencing_factors=entry["influencing_factors"], detection=entry["detection"],
                preventive_task=entry["preventive_task"], primary_codes=tuple(entry["primary_codes"]),
                curated_rank=rank if rank <= len(curated) else None,
            ))
    return tuple(out)


def curated_failure_modes(asset_class: str) -> list[str]:
    """The curated failure modes of an asset class ("chiller", "ahu") in served order; [] if unknown."""
    wanted = asset_class.strip().lower()
    entries = [e for e in fmea_entries() if e.asset_class == wanted and e.curated_rank is not None]
    return [e.failure_mode for e in sorted(entries, key=lambda e: e.curated_rank or 0)]


@dataclass(frozen=True)
class SensorRelevance:
    """Whether a sensor helps detect a failure mode, why, and how it behaves over time."""

    asset_class: str
    failure_mode: str
    sensor: str
    relevant: bool
    reason: str
    temporal_behavior: str


@cache
def sensor_relevance() -> tuple[SensorRelevance, ...]:
    """Every (failure mode, sensor) verdict of sensor_relevance.yaml, in file order."""
    out: list[SensorRelevance] = []
    for asset_class, modes in _read("sensor_relevance.yaml").items():
        for mode, sensors in modes.items():
            for sensor, (relevant, reason, temporal) in sensors.items():
                out.append(SensorRelevance(asset_class, mode, sensor, bool(relevant), reason, temporal))
    return tuple(out)


@dataclass(frozen=True)
class WorkOrderTemplate:
    """A work order kind: codes, collection and (for preventive work) its schedule and effort."""

    primary_code: str
    secondary_code: str
    collection: str
    interval_months: int = 0
    first_month: int = 0
    duration_h: float = 4.0
    labor_h: float = 2.0


@dataclass(frozen=True)
class FaultTypeSpec:
    """A fault type the generator injects: failure mode, sensors, code family, corrective orders."""

    fault_type: str
    failure_mode: str
    affected_sensors: tuple[str, ...]
    family: tuple[str, ...]
    corrective: tuple[WorkOrderTemplate, ...]


@cache
def fault_types() -> dict[str, FaultTypeSpec]:
    """Fault type -> its spec, from fault_types.yaml."""
    out: dict[str, FaultTypeSpec] = {}
    for name, entry in _read("fault_types.yaml")["fault_types"].items():
        corrective = tuple(WorkOrderTemplate(p, s, c) for p, s, c in entry["corrective"])
        out[name] = FaultTypeSpec(name, entry["failure_mode"], tuple(entry["affected_sensors"]),
                                  tuple(entry["family"]), corrective)
    _check_codes([t.secondary_code for spec in out.values() for t in spec.corrective], "fault_types")
    return out


@cache
def background_corrective() -> tuple[WorkOrderTemplate, ...]:
    """Minor corrective work (no telemetry signature) raised at a low rate on every chiller."""
    data = _read("fault_types.yaml")["background_corrective"]
    templates = tuple(WorkOrderTemplate(p, s, c) for p, s, c in data)
    _check_codes([t.secondary_code for t in templates], "background_corrective")
    return templates


@cache
def preventive_schedules() -> tuple[WorkOrderTemplate, ...]:
    """Preventive work-order schedules (interval, first month, duration and labour hours)."""
    data = _read("fault_types.yaml")["preventive"]
    templates = tuple(WorkOrderTemplate(p, s, c, int(every), int(first), float(dur), float(lab))
                      for p, s, c, every, first, dur, lab in data)
    _check_codes([t.secondary_code for t in templates], "preventive")
    return templates


def _check_codes(codes: list[str], where: str) -> None:
    known = secondary_codes()
    unknown = [code for code in codes if code not in known]
    if unknown:
        raise KnowledgeFileError(f"{where} in fault_types.yaml uses unknown secondary codes {unknown}")
