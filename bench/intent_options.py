"""Compare ways of reading what a message asks for, on hand-labelled utterances (issue 11).

`python -m bench intents`. Options: the phrase rules as they are, wordllama static embeddings
(nearest vocabulary phrase, or nearest sentence of the generated corpus), a character n-gram TF-IDF classifier over a corpus generated from the
vocabulary, and the rules with either as a fallback when the rules find nothing. Labels:
bench/intent_labels.yaml (written before any classifier ran on them). Prints one table, a threshold
sweep for the learnt options and a few confusions per option. It measures and prints; it asserts nothing.

The thresholds below were fixed before the run, from the similarity and probability scales on a few
made-up sentences; the sweep shows how much the choice matters, it is not a tuning on the labels.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from bench.intent_classifiers import (
    Classifier,
    Reading,
    embedding_classifier,
    exemplars,
    generated_corpus,
    load_wordllama,
    rules_classifier,
    tfidf_classifier,
    with_fallback,
)
from bench.intent_metrics import Scored, confusions, summarise, top1_match
from graph.understanding.vocabulary import vocabulary

LABELS = Path(__file__).with_name("intent_labels.yaml")
EMBEDDING_THRESHOLD = 0.30
TFIDF_THRESHOLD = 0.20
SWEEP = {"(b) wordllama NN": (0.2, 0.3, 0.4, 0.5), "(b') wordllama corpus": (0.2, 0.3, 0.4, 0.5),
         "(c) char TF-IDF LR": (0.1, 0.2, 0.3, 0.5)}


@dataclass(frozen=True)
class Utterance:
    """A labelled message; `context` when its request is only known from the dialog around it."""

    id: str
    text: str
    labels: frozenset[str]
    context: bool


@dataclass(frozen=True)
class Run:
    """One option's readings of every utterance, and its milliseconds per utterance."""

    name: str
    readings: list[Reading]
    ms_per_utterance: float


def load_utterances(path: Path = LABELS) -> list[Utterance]:
    """The labelled set."""
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))["utterances"]
    return [Utterance(u["id"], u["text"], frozenset(u["intents"]), bool(u.get("context"))) for u in raw]


def run(name: str, classifier: Classifier, utterances: Sequence[Utterance]) -> Run:
    """Read every utterance with `classifier`, timing the reads."""
    started = time.perf_counter()
    readings = [classifier(u.text) for u in utterances]
    return Run(name, readings, 1000 * (time.perf_counter() - started) / len(utterances))


def scored(utterances: Sequence[Utterance], readings: Sequence[Reading], keep: Sequence[bool]) -> list[Scored]:
    """The kept utterances with their readings, for the metric functions."""
    return [Scored(u.labels, r.intents) for u, r, k in zip(utterances, readings, keep, strict=True) if k]


def print_table(runs: Sequence[Run], utterances: Sequence[Utterance], rules_empty: Sequence[bool]) -> None:
    """One row per option: rates on all, on the self-contained ones, and where the rules find nothing."""
    every = [True] * len(utterances)
    alone = [not u.context for u in utterances]
    print(f"{len(utterances)} utterances, {sum(alone)} self-contained, {sum(rules_empty)} where the rules find nothing")
    unruled_alone = [e and a for e, a in zip(rules_empty, alone, strict=True)]
    print(f"  of which {sum(unruled_alone)} self-contained. 'alone' = self-contained only; 'rules∅' = where the "
          "rules find nothing")
    print(f"{'option':<22}{'exact':>7}{'top-1':>7}{'cover':>7}{'top-1 alone':>12}{'top-1 rules∅':>13}"
          f"{'rules∅ alone':>13}{'ms/utt':>8}")
    for r in runs:
        total = summarise(scored(utterances, r.readings, every))
        rates = [summarise(scored(utterances, r.readings, keep)).top1 for keep in (alone, rules_empty, unruled_alone)]
        print(f"{r.name:<22}{total.exact:>7.1%}{total.top1:>7.1%}{total.coverage:>7.1%}"
              f"{rates[0]:>12.1%}{rates[1]:>13.1%}{rates[2]:>13.1%}{r.ms_per_utterance:>8.2f}")


def print_by_source(runs: Sequence[Run], utterances: Sequence[Utterance]) -> None:
    """Top-1 per source set: the earlier sets' defects were fixed into the vocabulary, so the rules
    (and the options built from the same phrases) have partly seen them."""
    sources = sorted({u.id[0] for u in utterances})
    print("top-1 by source (D = DIALOGS.md, H/G = heldout 1/2, V = heldout3_dev):")
    print(f"{'option':<22}" + "".join(f"{s + ' (' + str(sum(u.id[0] == s for u in utterances)) + ')':>10}"
                                     for s in sources))
    for r in runs:
        cells = [summarise(scored(utterances, r.readings, [u.id[0] == s for u in utterances])).top1
                 for s in sources]
        print(f"{r.name:<22}" + "".join(f"{c:>10.1%}" for c in cells))


def print_sweep(name: str, readings: Sequence[Reading], utterances: Sequence[Utterance],
                thresholds: Sequence[float]) -> None:
    """Top-1 and coverage of a learnt option if its threshold were each of `thresholds`."""
    cells = []
    for threshold in thresholds:
        cut = [Reading(r.intents if r.confidence >= threshold else (), r.confidence) for r in readings]
        summary = summarise(scored(utterances, cut, [True] * len(utterances)))
        cells.append(f"≥{threshold:.2f}: top-1 {summary.top1:.1%} cover {summary.coverage:.1%}")
    print(f"  {name:<12}" + " | ".join(cells))


def print_confusions(r: Run, utterances: Sequence[Utterance]) -> None:
    """The most frequent top-1 misses of an option, each with one example message."""
    items = scored(utterances, r.readings, [True] * len(utterances))
    print(f"  {r.name}:")
    for expected, got, count in confusions(items):
        example = next(u.text for u, i in zip(utterances, items, strict=True)
                       if not top1_match(i) and "+".join(sorted(u.labels)) == expected
                       and (i.predicted[0] if i.predicted else "none") == got)
        print(f"    {expected} -> {got} x{count}  e.g. {example[:70]!r}")


def main() -> None:
    """Build every option, read the labelled set with each, print the figures."""
    vocab = vocabulary()
    utterances = load_utterances()
    rules = rules_classifier(vocab)
    started = time.perf_counter()
    tfidf = tfidf_classifier(vocab, TFIDF_THRESHOLD)
    print(f"setup: TF-IDF corpus + training {time.perf_counter() - started:.1f} s")
    runs = [run("(a) rules", rules, utterances), run("(c) char TF-IDF LR", tfidf, utterances),
            run("(d) rules + (c)", with_fallback(rules, tfidf), utterances)]
    try:
        started = time.perf_counter()
        model = load_wordllama()
        embeddings = embedding_classifier(exemplars(vocab), EMBEDDING_THRESHOLD, model)
        print(f"setup: wordllama load + phrases {time.perf_counter() - started:.1f} s")
        started = time.perf_counter()
        on_corpus = embedding_classifier(generated_corpus(vocab), EMBEDDING_THRESHOLD, model)
        print(f"setup: wordllama corpus embedding {time.perf_counter() - started:.1f} s")
        runs[1:1] = [run("(b) wordllama NN", embeddings, utterances),
                     run("(b') wordllama corpus", on_corpus, utterances)]
        runs += [run("(d) rules + (b)", with_fallback(rules, embeddings), utterances),
                 run("(d) rules + (b')", with_fallback(rules, on_corpus), utterances)]
    except ImportError:  # a dev dependency: without it the other options are still measured
        print("wordllama is not installed (pip install -e '.[dev]'): option (b) left out")
    rules_empty = [not r.intents for r in runs[0].readings]
    print_table(runs, utterances, rules_empty)
    print_by_source(runs, utterances)
    print("threshold sweep (all utterances):")
    for r in runs:
        if r.name in SWEEP:
            print_sweep(r.name.split()[0], r.readings, utterances, SWEEP[r.name])
    print("most frequent top-1 misses (expected -> predicted):")
    for r in runs:
        print_confusions(r, utterances)


if __name__ == "__main__":
    main()
