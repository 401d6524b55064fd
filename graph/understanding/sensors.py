"""Sensor mentions ("supply temp", "kw/ton", "approach", "the other sensors") and their full names per asset."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from assetops.domain.catalog import FleetCatalog
from graph.understanding.text import Text
from graph.understanding.vocabulary import Vocabulary, vocabulary


@dataclass
class SensorMentions:
    """Canonical sensor names (no asset prefix) a message names, plus "all" / "the other" flags."""

    canonical: list[str] = field(default_factory=list)
    all_sensors: bool = False
    other_sensors: bool = False


_MOVED_WORDS = frozenset({"through", "pushed", "push", "pushing", "pumped", "pump", "pumping", "moved", "moving",
                          "circulated", "circulating", "gpm", "volume", "delivered", "passed"})


# "while loaded", "when it's loaded", "under load", "at high load": the state the chiller is in, a condition on the
# samples read, not the % Loaded reading itself
_CONDITION_OPENERS = frozenset({"while", "when", "under", "at", "during"})
_CONDITION_FILLERS = frozenset({"it's", "it", "is", "was", "its", "full", "high", "low", "heavy", "light", "part",
                                "peak", "partial", "being", "fully", "properly", "actually"})


# A figure asked of the samples ("avg while loaded"): the load word conditions it ("it dropped off while it was
# loaded, did it trip?" states the load it stopped at, a reading of the event).
_STATISTIC_WORDS = frozenset({"avg", "average", "averaged", "averaging", "mean", "median", "typical", "typically"})


def _a_load_condition(text: Text, start: int) -> bool:
    before = [t for t in text.tokens[max(0, start - 3):start]]
    while before and before[-1] in _CONDITION_FILLERS:
        before.pop()
    return bool(before) and before[-1] in _CONDITION_OPENERS


def load_only_as_condition(text: Text) -> bool:
    """Every "load"/"loaded" in `text` is a condition ("while loaded", "under load"), none the reading itself."""
    places = [i for i, t in enumerate(text.tokens) if t in ("load", "loaded")]
    return bool(places) and all(_a_load_condition(text, i) for i in places) \
        and "Chiller % Loaded" not in find_sensors(text, vocabulary()).canonical


def find_sensors(text: Text, vocab: Vocabulary) -> SensorMentions:
    """Sensors named in `text`, longest alias first so "cooling load" is Tonnage, not % Loaded."""
    phrases = [*vocab.sensor_aliases, *vocab.sensor_groups, *vocab.all_sensor_phrases, *vocab.other_sensor_phrases]
    mentions = SensorMentions()
    matches = text.find_longest(phrases)
    # (a state signal, "just the schedule", is no reading a figure is asked of)
    others = any(vocab.sensor_aliases.get(m.phrase) not in (None, "Chiller % Loaded", "Schedule", "Run Status")
                 for m in matches)
    for match in matches:
        if vocab.sensor_aliases.get(match.phrase) == "Chiller % Loaded" and match.phrase in ("load", "loaded") \
                and _a_load_condition(text, match.start) and (others or _STATISTIC_WORDS & set(text.tokens)):
            continue  # "avg while loaded in aug vs june?": the samples while it ran, of the reading discussed
        if match.phrase in vocab.other_sensor_phrases:
            mentions.other_sensors = True
        elif match.phrase in vocab.all_sensor_phrases:
            mentions.all_sensors = True
        elif match.phrase in vocab.sensor_groups:
            group = vocab.sensor_groups[match.phrase]
            flows = [name for name in group if name.endswith("Flow")]
            # "which one pushed more condenser water through?": an amount of water moved is its flow
            moved = flows and _MOVED_WORDS & set(text.tokens[max(0, match.start - 3):match.end + 3])
            mentions.canonical.extend(flows if moved else group)
        else:
            mentions.canonical.append(vocab.sensor_aliases[match.phrase])
    if COST_OF_RUNNING.search(text.joined):  # "did it cost us less to run in summer 2020?": the power drawn
        mentions.canonical.append("Power Input")
    mentions.canonical = list(dict.fromkeys(mentions.canonical))
    return mentions


# What running a chiller costs is the energy it draws: "cost more to run", "cost us less to run", "costs to operate",
# "were they cheaper to run then?"
COST_OF_RUNNING = re.compile(r"\b(?:costs?|cheaper|costlier|pricier|expensive)\b(?: \w+){0,3}? to (?:run|operate)\b",
                             re.I)


def canonical_of(full_name: str) -> str:
    """"Chiller 9 Supply Temperature" -> "Supply Temperature" (names without a chiller prefix pass through)."""
    parts = full_name.split(" ", 2)
    if len(parts) == 3 and parts[0].lower() == "chiller" and parts[1].isdigit():
        return parts[2]
    return full_name


def sensor_for_asset(asset_id: str, canonical: str, vocab: Vocabulary, catalog: FleetCatalog) -> str | None:
    """The canonical sensor `asset_id` reports for `canonical` (Chiller 6's condenser swap), or None."""
    available = catalog.sensors_of(asset_id)
    if canonical in available:
        return canonical
    substitute = vocab.sensor_substitutes.get(canonical)
    return substitute if substitute in available else None


def expand(assets: list[str], canonical: list[str], vocab: Vocabulary, catalog: FleetCatalog) -> tuple[list[str], list[str]]:
    """Full sensor names for each telemetry asset, and notes for substitutions or missing sensors.

    Only assets with telemetry get sensor names; the notes say when a sensor was swapped for the
    asset's equivalent ("Chiller 6 reports Condenser Water Return To Tower Temperature instead").
    """
    full: list[str] = []
    notes: list[str] = []
    for asset in assets:
        if not catalog.has_telemetry(asset):
            continue
        for name in canonical:
            reported = sensor_for_asset(asset, name, vocab, catalog)
            if reported is None:
                notes.append(f"{asset} does not report {name}.")
                continue
            if reported != name:
                notes.append(f"{asset} reports {reported} instead of {name}; using it.")
            full.append(f"{asset} {reported}")
    return list(dict.fromkeys(full)), list(dict.fromkeys(notes))


def all_sensors(asset_id: str, catalog: FleetCatalog) -> list[str]:
    """Every canonical sensor `asset_id` reports (empty for chillers without telemetry)."""
    return catalog.sensors_of(asset_id) if catalog.has_telemetry(asset_id) else []
