"""Metrics for intent classifiers on labelled utterances (pure: predictions in, figures out).

An utterance's labels are a set of intent names, or {"none"} for a message that asks for nothing. A
prediction is a tuple of intents, strongest first; the empty tuple means "nothing recognised" and is
the right answer exactly for {"none"}.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

NONE = "none"


@dataclass(frozen=True)
class Scored:
    """One labelled utterance and what a classifier said about it."""

    labels: frozenset[str]
    predicted: tuple[str, ...]


@dataclass(frozen=True)
class Summary:
    """Rates over a set of scored utterances (each in [0, 1]; 0 for an empty set)."""

    count: int
    exact: float
    top1: float
    coverage: float


def exact_match(item: Scored) -> bool:
    """The predicted set is the labelled set (nothing predicted = {"none"})."""
    return frozenset(item.predicted or (NONE,)) == item.labels


def top1_match(item: Scored) -> bool:
    """The first predicted intent is one of the labels (nothing predicted counts as "none")."""
    first = item.predicted[0] if item.predicted else NONE
    return first in item.labels


def covered(item: Scored) -> bool:
    """The classifier predicted some intent."""
    return bool(item.predicted)


def _rate(flags: Sequence[bool]) -> float:
    return sum(flags) / len(flags) if flags else 0.0


def summarise(items: Sequence[Scored]) -> Summary:
    """Exact-set accuracy, top-1 accuracy and coverage over `items`."""
    return Summary(count=len(items), exact=_rate([exact_match(i) for i in items]),
                   top1=_rate([top1_match(i) for i in items]), coverage=_rate([covered(i) for i in items]))


def confusions(items: Sequence[Scored], limit: int = 4) -> list[tuple[str, str, int]]:
    """The most frequent (expected, predicted-first) pairs among top-1 misses, most frequent first."""
    pairs = Counter(("+".join(sorted(i.labels)), i.predicted[0] if i.predicted else NONE)
                    for i in items if not top1_match(i))
    return [(expected, got, n) for (expected, got), n in
            sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]]
