"""Whether a request is about something else entirely ("help me write a birthday card for a coworker", "tell me a
joke"): it asks for something, and not one of its words belongs to the O&M domain.

The domain is every word the offline understanding knows (vocabulary.yaml: intents, sensors, failure modes,
periods, references; requests.yaml: how requests are put), so the test grows with the vocabulary instead of
keeping a list of topics to refuse. Function words (requests.yaml `function_words`, a closed class) carry no
topic. A message with any domain word, entity, period or reference is on topic; so is a statement or a short
acknowledgement ("hmm interesting"), which asks for nothing. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

import yaml

from graph.understanding.request import GRAMMAR_PATH, RequestReading, grammar
from graph.understanding.text import Text, stem
from graph.understanding.vocabulary import VOCABULARY_PATH

_WORD = re.compile(r"[a-z]+")
_MIN_CONTENT_LENGTH = 3  # "ty", "ok": too short to be a topic
_OUTWEIGHED = 3  # other words that outweigh a single domain word


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield str(key)
            yield from _strings(value)
    elif isinstance(node, list | tuple):
        for item in node:
            yield from _strings(item)


@lru_cache(maxsize=1)
def domain_stems() -> frozenset[str]:
    """The stems of every word in the vocabulary and the request grammar."""
    words: set[str] = set()
    for path in (VOCABULARY_PATH, GRAMMAR_PATH):
        for text in _strings(yaml.safe_load(path.read_text(encoding="utf-8"))):
            words.update(stem(w) for w in _WORD.findall(text.lower()))
    return frozenset(words)


@lru_cache(maxsize=1)
def function_words() -> frozenset[str]:
    """Words that carry no topic (pronouns, determiners, auxiliaries, prepositions, light verbs)."""
    raw = yaml.safe_load(GRAMMAR_PATH.read_text(encoding="utf-8"))
    return frozenset(raw["function_words"])


def topic_words(text: Text) -> tuple[list[str], list[str]]:
    """The message's content words: (those the domain knows, those it does not)."""
    known: list[str] = []
    unknown: list[str] = []
    for token in text.tokens:
        if not token.isalpha() or len(token) < _MIN_CONTENT_LENGTH or token in function_words():
            continue
        (known if stem(token) in domain_stems() else unknown).append(token)
    return known, unknown


def _asks(text: Text, reading: RequestReading) -> bool:
    """A question, or a command opening with a verb of request ("tell me a joke"; "blah blah" is noise)."""
    if reading.act == "question":
        return True
    g = grammar()
    opening = [t for t in text.tokens if t not in g.fillers][:1]
    return reading.act == "command" and bool(opening) and opening[0] in g.imperative_verbs


def is_off_topic(text: Text, reading: RequestReading, *, has_entities: bool) -> bool:
    """A question or command whose content words are outside the domain (all of them, or all but one against three
    or more), with no entity, period or reference of the domain (`has_entities`)."""
    if has_entities or not _asks(text, reading):
        return False
    known, unknown = topic_words(text)
    # one word the domain shares with everyday speech ("plan a birthday party for my team") does not make it ours
    return bool(unknown) and (not known or (len(known) == 1 and len(unknown) >= _OUTWEIGHED))
