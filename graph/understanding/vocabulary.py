"""Loads vocabulary.yaml once into a typed, read-only `Vocabulary` (the only file the planner reads)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

VOCABULARY_PATH = Path(__file__).with_name("vocabulary.yaml")


@dataclass(frozen=True)
class IntentRule:
    """How one intent is recognised: weighted phrases ("a + b" = all parts), a bar, what it overrides."""

    name: str
    phrases: dict[str, int]
    min_score: int
    suppresses: tuple[str, ...]


@dataclass(frozen=True, eq=False)  # hashed by identity: compiled patterns are cached per vocabulary
class Vocabulary:
    """Every word the offline understanding knows, grouped by what it resolves to."""

    site_name: str
    site_aliases: tuple[str, ...]
    site_stop_words: frozenset[str]
    abbreviations: dict[str, str]
    typo_corrected_words: tuple[str, ...]
    everyday_words: tuple[str, ...]  # typo targets besides the request words, so a near miss of both is kept  # request words whose near misses are corrected ("anomally")
    time_of_day_tokens: frozenset[str]
    asset_word: str
    asset_plural_word: str
    protected_words: frozenset[str]
    quantity_words: frozenset[str]
    asset_number_words: dict[str, int]
    asset_question_words: frozenset[str]
    asset_number_markers: frozenset[str]  # "unit 6", "no. 6", "#6": a number that is a chiller's
    asset_rank_words: frozenset[str]  # "#1 priority": a marked number that is a rank
    the_number_followers: frozenset[str]  # "on the 9 over ...": words after "the N" that make N a chiller
    number_argument_heads: frozenset[str]  # "against 14", "what about 4": words that take a chiller
    number_subject_followers: frozenset[str]  # "7 most likely to need": words after a subject chiller number
    past_tense_verbs: frozenset[str]  # "9 threw ...": irregular past tenses (regular ones end in -ed)
    max_typo_distance: int
    all_asset_phrases: tuple[str, ...]
    other_equipment: tuple[str, ...]
    sensor_aliases: dict[str, str]  # alias phrase -> canonical sensor
    sensor_groups: dict[str, tuple[str, ...]]
    sensor_substitutes: dict[str, str]
    sensor_context: dict[str, tuple[str, ...]]
    sensor_companions: dict[str, tuple[str, ...]]
    all_sensor_phrases: tuple[str, ...]
    other_sensor_phrases: tuple[str, ...]
    failure_mode_aliases: dict[str, str]  # alias phrase -> curated failure mode
    failure_mode_families: dict[str, tuple[str, ...]]  # "fouled" -> the fouling modes, when no side is named
    failure_modes: tuple[str, ...]
    rule_sensors: dict[str, tuple[str, ...]]
    default_rule_sensors: tuple[str, ...]
    months: dict[str, int]
    ambiguous_months: frozenset[str]
    seasons: dict[str, tuple[int, int]]
    numbers: dict[str, int]
    units: dict[str, str]
    past_words: tuple[str, ...]
    future_words: tuple[str, ...]
    event_words: tuple[str, ...]
    trip_words: tuple[str, ...]
    month_context_before: frozenset[str]
    month_context_after: frozenset[str]
    range_words: frozenset[str]
    references: dict[str, tuple[str, ...]]
    intents: tuple[IntentRule, ...]
    work_order_intents: frozenset[str]
    work_order_kinds: dict[str, tuple[str, ...]]
    work_order_breakdowns: tuple[str, ...]  # "by failure code": a split of a listing, not a kind of order
    severity_words: tuple[str, ...]
    assetless_intents: frozenset[str]
    follow_up_next: dict[str, str]  # last intent -> the natural next request of a bare follow-up
    follow_up_cues: frozenset[str]
    telemetry_words: tuple[str, ...]  # keep a follow-up of a work-order question on telemetry
    recent_words: tuple[str, ...]
    named_jobs: tuple[str, ...]
    pick_objects: dict[str, tuple[str, ...]]  # listing intent -> the nouns "which X" picks among in it  # a work order for these needs no diagnosis first
    defaults: dict[str, Any]


def _invert(groups: dict[str, list[str]]) -> dict[str, str]:
    """{canonical: [alias, ...]} -> {alias: canonical}; the canonical name is an alias of itself."""
    out: dict[str, str] = {}
    for canonical, aliases in groups.items():
        out[canonical.lower()] = canonical
        for alias in aliases:
            out[alias.lower()] = canonical
    return out


def _intent_rules(raw: dict[str, dict[str, Any]]) -> tuple[IntentRule, ...]:
    return tuple(
        IntentRule(
            name=name,
            phrases={str(k).lower(): int(v) for k, v in spec["phrases"].items()},
            min_score=int(spec["min_score"]),
            suppresses=tuple(spec.get("suppresses", ())),
        )
        for name, spec in raw.items()
    )


def build_vocabulary(raw: dict[str, Any]) -> Vocabulary:
    """Turn the parsed YAML document into a `Vocabulary` (separate from the file read so tests can vary it)."""
    site, assets, sensors, periods = raw["site"], raw["assets"], raw["sensors"], raw["periods"]
    return Vocabulary(
        site_name=site["name"],
        site_aliases=tuple(site["aliases"]),
        site_stop_words=frozenset(site["stop_words"]),
        abbreviations={k.lower(): v for k, v in raw["abbreviations"].items()},
        typo_corrected_words=tuple(raw["typo_corrected_words"]),
        everyday_words=tuple(raw["everyday_words"]),
        time_of_day_tokens=frozenset(raw["time_of_day_tokens"]),
        asset_word=assets["kind_word"],
        asset_plural_word=assets["plural_word"],
        protected_words=frozenset(assets["protected_words"]),
        quantity_words=frozenset(assets["quantity_words"]),
        asset_number_words={str(k): int(v) for k, v in assets["number_words"].items()},
        asset_question_words=frozenset(assets["question_words"]),
        asset_number_markers=frozenset(assets["number_markers"]),
        asset_rank_words=frozenset(assets["rank_words"]),
        the_number_followers=frozenset(assets["the_number_followers"]),
        number_argument_heads=frozenset(assets["argument_heads"]),
        number_subject_followers=frozenset(assets["subject_followers"]),
        past_tense_verbs=frozenset(assets["past_tense_verbs"]),
        max_typo_distance=int(assets["max_typo_distance"]),
        all_asset_phrases=tuple(assets["all_phrases"]),
        other_equipment=tuple(assets["other_equipment"]),
        sensor_aliases=_invert(sensors["aliases"]),
        sensor_groups={k: tuple(v) for k, v in sensors["groups"].items()},
        sensor_substitutes=dict(sensors["substitutes"]),
        sensor_context={k: tuple(v) for k, v in sensors["context"].items()},
        sensor_companions={k: tuple(v) for k, v in sensors["companions"].items()},
        all_sensor_phrases=tuple(sensors["all_phrases"]),
        other_sensor_phrases=tuple(sensors["other_phrases"]),
        failure_mode_aliases=_invert(raw["failure_modes"]),
        failure_mode_families={word: tuple(modes) for modes, words in
                               ((f["modes"], f["words"]) for f in raw["failure_mode_families"]) for word in words},
        failure_modes=tuple(raw["failure_modes"]),
        rule_sensors={k: tuple(v) for k, v in raw["rule_sensors"].items()},
        default_rule_sensors=tuple(raw["default_rule_sensors"]),
        months=dict(periods["months"]),
        ambiguous_months=frozenset(periods["ambiguous_months"]),
        seasons={k: (int(v[0]), int(v[1])) for k, v in periods["seasons"].items()},
        numbers={str(k): int(v) for k, v in periods["numbers"].items()},
        units=dict(periods["units"]),
        past_words=tuple(periods["past_words"]),
        future_words=tuple(periods["future_words"]),
        event_words=tuple(periods["event_words"]),
        trip_words=tuple(periods["trip_words"]),
        month_context_before=frozenset(periods["month_context_before"]),
        month_context_after=frozenset(periods["month_context_after"]),
        range_words=frozenset(periods["range_words"]),
        references={k: _with_numeral_ordinals(v) for k, v in raw["references"].items()},
        intents=_intent_rules(raw["intents"]),
        work_order_intents=frozenset(raw["work_order_intents"]),
        work_order_kinds={k: tuple(v) for k, v in raw["work_order_kinds"].items()},
        work_order_breakdowns=tuple(raw["work_order_breakdowns"]),
        severity_words=tuple(raw["severity_words"]),
        assetless_intents=frozenset(raw["assetless_intents"]),
        follow_up_next=dict(raw["follow_ups"]["next_step"]),
        follow_up_cues=frozenset(raw["follow_ups"]["cues"]),
        telemetry_words=tuple(raw["follow_ups"]["telemetry_words"]),
        recent_words=tuple(raw["recent_words"]),
        named_jobs=tuple(raw["named_jobs"]),
        pick_objects={k: tuple(v) for k, v in raw["pick_objects"].items()},
        defaults=dict(raw["defaults"]),
    )


@lru_cache(maxsize=1)
def vocabulary() -> Vocabulary:
    """The project vocabulary, read from vocabulary.yaml on first use and cached."""
    with VOCABULARY_PATH.open(encoding="utf-8") as handle:
        return build_vocabulary(yaml.safe_load(handle))


# Ordinals written as numerals ("2nd place", "the 1st one") read as the words the phrases are written in.
_NUMERAL_ORDINALS = {"first": "1st", "second": "2nd", "third": "3rd"}


def _with_numeral_ordinals(phrases: list[str]) -> tuple[str, ...]:
    """The phrases, each ordinal word also spelled as a numeral ("second place" and "2nd place")."""
    spelled = []
    for phrase in phrases:
        spelled.append(phrase)
        words = phrase.split()
        numeral = [_NUMERAL_ORDINALS.get(word, word) for word in words]
        if numeral != words:
            spelled.append(" ".join(numeral))
    return tuple(spelled)
