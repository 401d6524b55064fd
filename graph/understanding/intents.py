"""Intent classification: weighted phrase rules from the vocabulary, several intents per message."""

from __future__ import annotations

from graph.understanding.text import Text
from graph.understanding.vocabulary import Vocabulary


def score_intents(text: Text, vocab: Vocabulary) -> dict[str, int]:
    """Each intent's score: the sum of the weights of its phrases found in `text` (zero scores left out)."""
    scores: dict[str, int] = {}
    for rule in vocab.intents:
        total = sum(weight for phrase, weight in rule.phrases.items() if text.contains(phrase))
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
