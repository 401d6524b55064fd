"""The intent classifiers compared by bench/intent_options.py, each a `message -> Reading` function.

- rules: the planner's weighted phrase rules (graph/understanding/intents.py), as they are;
- embeddings: nearest example under wordllama's static embeddings (weights shipped in its wheel,
  loaded from the installed package only, never from the network); examples = the vocabulary's
  phrases of each intent, or the generated corpus below; confidence = the cosine similarity;
- tfidf: character n-gram TF-IDF + logistic regression trained on a corpus generated from the same
  phrases inserted into a few request templates; confidence = the predicted probability;
- fallback: the rules, and another classifier only when the rules find nothing.

Every classifier reads the normalised message (graph/understanding/text.py: abbreviations expanded,
typos fixed), as the rules do, so the comparison is about classification only. The learnt ones
return one intent (or none under their threshold); the rules may return several.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from graph.understanding.intents import classify, score_intents
from graph.understanding.text import Text
from graph.understanding.vocabulary import Vocabulary


@dataclass(frozen=True)
class Reading:
    """Intents found in a message, strongest first (empty: none), and how sure the classifier is."""

    intents: tuple[str, ...]
    confidence: float


Classifier = Callable[[str], Reading]

# Request templates the phrases are inserted into for the generated corpus ({} = the phrase).
TEMPLATES: tuple[str, ...] = (
    "{}", "{} ?", "can you {} for chiller 4", "chiller 9 {} last month", "{} on chiller 6 please",
    "ok, {} then", "what about {} for the site", "i need the {} on chiller 3 since june",
)


def exemplars(vocab: Vocabulary) -> list[tuple[str, str]]:
    """(intent, phrase) pairs from the vocabulary; "a + b" (both words somewhere) becomes "a b"."""
    return [(rule.name, phrase.replace(" + ", " ")) for rule in vocab.intents for phrase in rule.phrases]


def generated_corpus(vocab: Vocabulary) -> list[tuple[str, str]]:
    """(intent, text) pairs: every phrase inserted into every template, normalised like messages."""
    return [(intent, Text.of(template.format(phrase)).joined)
            for intent, phrase in exemplars(vocab) for template in TEMPLATES]


def rules_classifier(vocab: Vocabulary) -> Classifier:
    """The phrase rules as the planner runs them; confidence = the strongest score (0 when none)."""
    def read(message: str) -> Reading:
        scores = score_intents(Text.of(message), vocab)
        intents = tuple(classify(scores, vocab))
        return Reading(intents, float(scores[intents[0]]) if intents else 0.0)
    return read


def load_wordllama() -> object:
    """wordllama's bundled 256-d model, built from the files inside the installed package.

    `WordLlama.load()` in 0.4.0.post1 looks for the bundled tokenizer in `tokenizer/` while the wheel
    ships it in `tokenizers/`, and then downloads it; building the model from the package files keeps
    it offline. Raises ImportError when wordllama is not installed (it is a dev dependency).
    """
    import wordllama
    from safetensors import safe_open
    from wordllama import WordLlama
    from wordllama.inference import WordLlamaInference

    root = Path(wordllama.__file__).parent
    tokenizer = WordLlama.load_tokenizer(root / "tokenizers" / "l2_supercat_tokenizer_config.json")
    with safe_open(str(root / "weights" / "l2_supercat_256.safetensors"), framework="np", device="cpu") as f:
        weights = f.get_tensor("embedding.weight")
    return WordLlamaInference(weights, tokenizer)


def embedding_classifier(examples: Sequence[tuple[str, str]], threshold: float,
                         model: object | None = None) -> Classifier:
    """Nearest example (intent, text) by cosine similarity; below `threshold` the answer is none.

    The examples are the bare phrases (`exemplars`) or the generated corpus (`generated_corpus`): in
    the corpus every intent's phrases share the same asset and period words, so those words of a
    message no longer pull it towards the few phrases that contain them.
    """
    model = model or load_wordllama()
    names = [intent for intent, _ in examples]
    matrix = model.embed([Text.of(text).joined for _, text in examples], norm=True)  # type: ignore[attr-defined]

    def read(message: str) -> Reading:
        vector = model.embed([Text.of(message).joined], norm=True)[0]  # type: ignore[attr-defined]
        similarities = matrix @ vector
        best = int(np.argmax(similarities))
        score = float(similarities[best])
        return Reading((names[best],) if score >= threshold else (), score)
    return read


def tfidf_classifier(vocab: Vocabulary, threshold: float) -> Classifier:
    """Character 2-5-gram TF-IDF + logistic regression over the generated corpus; below `threshold`
    (the top class probability) the answer is none."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline

    labels, texts = zip(*generated_corpus(vocab), strict=True)
    pipeline = make_pipeline(TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), sublinear_tf=True),
                             LogisticRegression(C=10.0, max_iter=2000))
    pipeline.fit(texts, labels)
    classes = list(pipeline.classes_)

    def read(message: str) -> Reading:
        probabilities = pipeline.predict_proba([Text.of(message).joined])[0]
        best = int(np.argmax(probabilities))
        score = float(probabilities[best])
        return Reading((str(classes[best]),) if score >= threshold else (), score)
    return read


def with_fallback(primary: Classifier, fallback: Classifier) -> Classifier:
    """`primary`'s reading, or `fallback`'s when `primary` finds nothing."""
    def read(message: str) -> Reading:
        reading = primary(message)
        return reading if reading.intents else fallback(message)
    return read
