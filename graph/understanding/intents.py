"""Intent classification: weighted phrase rules from the vocabulary, several intents per message."""

from __future__ import annotations

from graph.understanding.text import Text, phrase_stems
from graph.understanding.vocabulary import Vocabulary


def score_intents(text: Text, vocab: Vocabulary, *, inflected: bool = True) -> dict[str, int]:
    """Each intent's score: the sum of the weights of its phrases found in `text`, in any inflection
    ("what's causing" meets "what is causing", "fires" meets "fire"; zero scores left out). Another
    inflection is weaker evidence than the phrase as written, so it weighs less than half (`inflected=False`:
    phrases as written only)."""
    scores: dict[str, int] = {}
    for rule in vocab.intents:
        # Phrases that are inflections of each other ("forecast", "forecasting") are one cue: the best counts.
        best: dict[str, int] = {}
        for phrase, weight in rule.phrases.items():
            if text.contains(phrase):
                found = weight
            elif inflected and text.contains_inflected(phrase):
                found = (weight - 1) // 2
            else:
                continue
            key = " + ".join(" ".join(phrase_stems(part.strip())) for part in phrase.split(" + "))
            best[key] = max(best.get(key, found), found)
        total = sum(best.values())
        if total:
            scores[rule.name] = total
    return scores


def classify(scores: dict[str, int], vocab: Vocabulary) -> list[str]:
    """Intents that reach their bar, strongest first, minus those a chosen intent overrides.

    Suppression lets a specific intent win over the generic one its words also trigger
    ("fine-tune a forecaster" is fine-tuning, not forecasting), when it scores at least as high.
    """
    rules = {rule.name: rule for rule in vocab.intents}
    passing = sorted((name for name, score in scores.items() if score >= rules[name].min_score),
                     key=lambda name: (-scores[name], name))
    suppressed = {victim for name in passing for victim in rules[name].suppresses
                  if scores.get(victim, 0) <= scores[name]}
    return [name for name in passing if name not in suppressed]
