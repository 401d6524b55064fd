"""Symptoms a message describes: a reading and the way it moved ("more kW and a warmer leaving temp",
"flow down, condenser return up"). Read from the sensor names the vocabulary knows and a direction word next
to each (before it within three words, or right after it). Pure: text in, symptoms out.
"""

from __future__ import annotations

from dataclasses import dataclass

from graph.understanding.text import Text
from graph.understanding.vocabulary import Vocabulary

# Direction words: what a reading does when it rises or falls, as engineers say it.
_UP = frozenset({"more", "higher", "high", "rising", "rises", "rose", "up", "increase", "increased", "increasing",
                 "climbing", "climbs", "warmer", "warm", "hotter", "hot", "above", "elevated", "spiking", "spike",
                 "spikes", "excessive", "extra", "wider", "widening", "worse", "bigger", "larger", "heavier"})
_DOWN = frozenset({"less", "lower", "low", "falling", "falls", "fell", "down", "decrease", "decreased", "decreasing",
                   "dropping", "dropped", "drops", "colder", "cold", "cooler", "below", "reduced", "weak", "weaker",
                   "narrower", "narrowing", "smaller", "starved", "lost", "losing", "sagging", "sagged", "sags",
                   "sinking", "sank", "slipping", "slipped", "slumping", "slumped"})
_NEAR = 3  # words before a sensor name a direction word may stand
_LINKING_VERBS = frozenset({"goes", "went", "gone", "going", "is", "was", "are", "were", "been", "being", "getting",
                            "got", "runs", "running", "ran", "reads", "reading", "looks", "looking", "seems", "stays",
                            "comes", "coming", "came", "way", "too", "very", "much", "really", "a", "bit"})
_CLAUSE_LINKS = frozenset({"and", "but", "or", "with", "while", "whereas", "plus", "yet"})


@dataclass(frozen=True)
class Symptom:
    """A reading (canonical sensor name) and the way it moved (+1 up, -1 down)."""

    sensor: str
    direction: int


def _direction(word: str) -> int:
    return 1 if word in _UP else -1 if word in _DOWN else 0


def described_symptoms(text: Text, vocab: Vocabulary) -> list[Symptom]:
    """Each named reading with a direction word beside it, in order of mention (one per reading)."""
    found: dict[str, int] = {}
    tokens = text.tokens
    for match in text.find_longest(list(vocab.sensor_aliases)):
        # "condenser return up" binds tighter than a word before it ("flow down and condenser return up")
        after = list(tokens[match.end:match.end + 2])
        if after and after[0] in _LINKING_VERBS:  # "the condenser return goes up", "flow is low"
            after = after[1:]
        said = _direction(after[0]) if after else 0
        for word in reversed(tokens[max(0, match.start - _NEAR):match.start]):
            if said or word in _CLAUSE_LINKS:
                break
            said = _direction(word)
        if said:
            found.setdefault(vocab.sensor_aliases[match.phrase], said)
    return [Symptom(sensor, direction) for sensor, direction in found.items()]
