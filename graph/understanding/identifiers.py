"""Failure modes (fuzzy, to the seven curated strings), alert rule ids and work-order ids."""

from __future__ import annotations

import re

from graph.understanding.text import Text, edit_distance, phrase_tokens
from graph.understanding.vocabulary import Vocabulary

_RULE_ID = re.compile(r"^rul(\d{1,5})$")
_RULE_NUMBER = re.compile(r"^#?(\d{1,4})$")
_WORK_ORDER_ID = re.compile(r"^wo(\d{3,})$")
# Words too common to identify a failure mode on their own when matching loosely.
_MIN_FUZZY_TOKEN = 5


def _loosely_present(word: str, tokens: tuple[str, ...]) -> bool:
    if len(word) < _MIN_FUZZY_TOKEN:
        return word in tokens
    return any(edit_distance(word, token, 1) <= 1 for token in tokens if abs(len(token) - len(word)) <= 1)


def find_failure_modes(text: Text, vocab: Vocabulary) -> list[str]:
    """Curated failure modes named in `text`: exact aliases first, then multi-word aliases with typos."""
    found = [vocab.failure_mode_aliases[m.phrase] for m in text.find_longest(tuple(vocab.failure_mode_aliases))]
    meaningful = tuple(token for token in text.tokens if token != "-")
    for alias, mode in vocab.failure_mode_aliases.items():
        words = phrase_tokens(alias)
        if mode in found or len(words) < 2:
            continue
        if all(_loosely_present(word, meaningful) for word in words if word != "-"):
            found.append(mode)
    for match in text.find_longest(tuple(vocab.failure_mode_families)):
        family = vocab.failure_mode_families[match.phrase]
        if not set(family) & set(found):  # "is it fouled?": no side named, so every fouling mode
            found.extend(family)
    return list(dict.fromkeys(found))


def find_rule_ids(text: Text) -> list[str]:
    """Alert rule ids: "RUL0018", "rul18", "rule 18" -> "RUL0018"."""
    found: list[str] = []
    tokens = text.tokens
    for index, token in enumerate(tokens):
        number = None
        direct = _RULE_ID.match(token)
        if direct:
            number = direct.group(1)
        elif token == "rule" and index + 1 < len(tokens):
            follow = _RULE_NUMBER.match(tokens[index + 1])
            number = follow.group(1) if follow else None
        if number is not None:
            found.append(f"RUL{int(number):04d}")
    return list(dict.fromkeys(found))


def find_work_order_ids(text: Text) -> list[str]:
    """Work-order ids such as "WO16228"."""
    return list(dict.fromkeys(f"WO{m.group(1)}" for t in text.tokens if (m := _WORK_ORDER_ID.match(t))))
