"""Pure logic of the `fmsr` server: asset classes, tolerant name matching, LLM prompts and parsing.

No I/O: `tools.fmsr` reads the fmea / sensor_relevance tables and calls the LLM, then uses these.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

YES, NO, UNKNOWN = "Yes", "No", "Unknown"
SOURCE_KNOWLEDGE_BASE, SOURCE_LLM, SOURCE_NONE = "knowledge_base", "llm", "none"

_NUMBERED_LINE = re.compile(r"^\s*\d+[.)]\s*(.+?)\s*$")
_LABEL_PREFIX = re.compile(r"^\s*(answer|reason|temporal behaviou?r)\s*:\s*", re.IGNORECASE)


def asset_class_key(asset_name: str) -> str:
    """The asset class of a name: digits removed, trimmed, lower-cased ("Chiller 6" -> "chiller")."""
    return " ".join(re.sub(r"\d", "", asset_name or "").split()).lower()


def normalise_name(text: str) -> str:
    """Lower-case words only ("Condenser Water side fouling" == "condenser water-side  fouling")."""
    return " ".join(re.sub(r"[^0-9a-z]+", " ", (text or "").lower()).split())


def _unique(candidates: Iterable[str]) -> str | None:
    found = list(dict.fromkeys(candidates))
    return found[0] if len(found) == 1 else None


def match_failure_mode(query: str, known: Sequence[str]) -> str | None:
    """The known failure mode `query` names, or None when there is no single match.

    Tolerant on purpose: the curated names come both short ("Compressor Overheating") and in full
    ("Compressor Overheating: Failed due to Normal wear, overheating"). Tried in order: normalised
    equality, a whole-word prefix either way, containment either way, then all query words present.
    """
    wanted = normalise_name(query)
    if not wanted:
        return None
    by_norm = {name: normalise_name(name) for name in known}
    rules = (
        lambda norm: norm == wanted,
        lambda norm: norm.startswith(wanted + " ") or wanted.startswith(norm + " "),
        lambda norm: f" {wanted} " in f" {norm} " or f" {norm} " in f" {wanted} ",
        lambda norm: set(wanted.split()) <= set(norm.split()),
    )
    for rule in rules:
        hits = [name for name, norm in by_norm.items() if norm and rule(norm)]
        if hits:
            return _unique(hits)
    return None


def strip_asset_prefix(sensor: str, asset_name: str) -> str:
    """The sensor name without its asset prefix ("Chiller 9 Supply Temperature" -> "Supply Temperature").

    Removes the given asset name, or any "<class> <number>" prefix of the same class, so a sensor of a
    sibling chiller still finds its knowledge-base entry.
    """
    text = " ".join((sensor or "").split())
    asset = " ".join((asset_name or "").split())
    if asset and text.lower().startswith(asset.lower() + " "):
        return text[len(asset) + 1:]
    asset_class = asset_class_key(asset_name)
    if asset_class:
        pattern = rf"^{re.escape(asset_class)}\s*\d+\s+"
        return re.sub(pattern, "", text, count=1, flags=re.IGNORECASE)
    return text


def match_sensor(sensor: str, asset_name: str, known: Sequence[str]) -> str | None:
    """The knowledge-base sensor name (no prefix) `sensor` denotes, with or without the asset prefix."""
    bare = normalise_name(strip_asset_prefix(sensor, asset_name))
    return _unique(name for name in known if normalise_name(name) == bare)


def parse_numbered_list(text: str) -> list[str]:
    """The items of a numbered list ("1. X", "2) Y"); other lines are ignored, duplicates dropped."""
    items = [m.group(1).strip(" *") for m in map(_NUMBERED_LINE.match, text.splitlines()) if m]
    return list(dict.fromkeys(item for item in items if item))


@dataclass(frozen=True)
class Verdict:
    """Whether a sensor helps detect a failure mode, why, how it behaves over time, and who said so."""

    answer: str
    reason: str
    temporal_behavior: str
    source: str

    @property
    def is_relevant(self) -> bool:
        return self.answer == YES


def verdict_from_knowledge(relevant: bool, reason: str | None, temporal_behavior: str | None) -> Verdict:
    """A knowledge-base row as a verdict (empty texts read "Unknown")."""
    return Verdict(YES if relevant else NO, reason or UNKNOWN, temporal_behavior or UNKNOWN, SOURCE_KNOWLEDGE_BASE)


def unknown_verdict(asset_class: str) -> Verdict:
    """The verdict for a pair the knowledge base lacks when no LLM is configured."""
    return Verdict(
        UNKNOWN,
        f"The knowledge base has no entry for this failure mode and sensor (asset class '{asset_class}') "
        "and no LLM is configured to judge it.",
        UNKNOWN,
        SOURCE_NONE,
    )


def parse_relevancy_answer(text: str) -> Verdict:
    """Parse the LLM's three-line answer: Yes/No, the reason, and (for Yes) the temporal behaviour."""
    lines = [_LABEL_PREFIX.sub("", line).strip() for line in text.splitlines() if line.strip()]
    first = lines[0].lower() if lines else ""
    answer = YES if first.startswith("yes") else NO if first.startswith("no") else UNKNOWN
    reason = lines[1] if len(lines) > 1 else UNKNOWN
    temporal = lines[2] if answer == YES and len(lines) > 2 else UNKNOWN
    return Verdict(answer, reason, temporal, SOURCE_LLM)


def failure_modes_prompt(asset_name: str) -> str:
    """The LLM prompt for the failure modes of an asset outside the curated classes."""
    return (
        f"List the most common failure modes of the industrial asset '{asset_name}'. "
        "Answer with a numbered list only (1. ..., 2. ...), one failure mode per line, names only, "
        "no explanations."
    )


def relevancy_prompt(asset_name: str, failure_mode: str, sensor: str) -> str:
    """The LLM prompt judging one (failure mode, sensor) pair."""
    return (
        f"Asset: {asset_name}. If the failure '{failure_mode}' occurs, can the sensor '{sensor}' help "
        "monitor or detect it?\nAnswer in exactly three lines:\n"
        "line 1: Yes or No\nline 2: the reason in one sentence\n"
        "line 3: if Yes, how the sensor's readings change over time as the failure develops"
    )


def mapping_output(
    asset_name: str,
    failure_modes: Sequence[str],
    sensors: Sequence[str],
    verdicts: Mapping[tuple[str, str], Verdict],
) -> dict[str, Any]:
    """The contract output: metadata, fm2sensor / sensor2fm (relevant pairs only) and full_relevancy.

    Pairs are listed failure mode by failure mode, sensors in input order (duplicates once).
    """
    fm2sensor: dict[str, list[str]] = {}
    sensor2fm: dict[str, list[str]] = {}
    rows: list[dict[str, Any]] = []
    for fm in dict.fromkeys(failure_modes):
        for sensor in dict.fromkeys(sensors):
            verdict = verdicts[(fm, sensor)]
            if verdict.is_relevant:
                fm2sensor.setdefault(fm, []).append(sensor)
                sensor2fm.setdefault(sensor, []).append(fm)
            rows.append({
                "asset_name": asset_name,
                "failure_mode": fm,
                "sensor": sensor,
                "relevancy_answer": verdict.answer,
                "relevancy_reason": verdict.reason,
                "temporal_behavior": verdict.temporal_behavior,
                "source": verdict.source,
            })
    return {
        "metadata": {"asset_name": asset_name, "failure_modes": list(failure_modes), "sensors": list(sensors)},
        "fm2sensor": fm2sensor,
        "sensor2fm": sensor2fm,
        "full_relevancy": rows,
    }
