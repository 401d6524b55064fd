"""Offline language understanding: vocabulary-driven entities, periods, intents and references."""

from graph.understanding.model import Understanding, find_references, understand
from graph.understanding.vocabulary import Vocabulary, vocabulary

__all__ = ["Understanding", "Vocabulary", "find_references", "understand", "vocabulary"]
