"""Failure modes (fuzzy, to the seven curated strings), alert rules (by id or by name) and work-order ids."""

from __future__ import annotations

import re
from collections.abc import Sequence

from graph.understanding.text import Text, edit_distance, phrase_tokens, stem
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
    found.extend(m for m in _modes_of_a_part(text, vocab) if m not in found)
    for match in text.find_longest(tuple(vocab.failure_mode_families)):
        family = vocab.failure_mode_families[match.phrase]
        if not set(family) & set(found):  # "is it fouled?": no side named, so every fouling mode
            found.extend(family)
    return list(dict.fromkeys(found))


# "the condenser-side ones", "its evaporator faults", "the compressor failure modes": the part a curated mode is named
# after, followed by a word standing for failure modes, names every mode of that part
_MODES_WORD = r"(?:ones|faults|failures|failure modes|modes)"


def _modes_of_a_part(text: Text, vocab: Vocabulary) -> list[str]:
    parts = {mode.split()[0].lower(): [m for m in vocab.failure_modes if m.split()[0] == mode.split()[0]]
             for mode in vocab.failure_modes}
    joined = text.joined.replace(" - ", "-")
    return [mode for part, modes in parts.items()
            if re.search(rf"\b{part}(?:[- ]side)? {_MODES_WORD}\b", joined) for mode in modes]


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


# Words of a rule name that say nothing about which rule it is.
_RULE_NAME_FILLER = frozenset({"chiller", "a", "an", "the", "in", "that", "is", "of", "through", "use", "for", "at",
                               "on", "and", "with", "to"})
_RULE_NAME_SCORE = 3  # a word only this rule's name has counts 2, a word several share 1


def _rule_name_words(rule_id: str, name: str) -> tuple[str, ...]:
    plain = name.lower().replace(rule_id.lower(), " ").removeprefix("chiller - ")
    return tuple(stem(w) for w in phrase_tokens(plain) if w.isalpha() and w not in _RULE_NAME_FILLER)


def find_rule_names(text: Text, rules: Sequence[tuple[str, str]], *, loose: bool) -> list[str]:
    """The alert rules a message names by their words, from the `rules` loaded ((id, name) pairs).

    `loose` (the message speaks of alerts): in any order and inflection, "those 'excessive power while off'
    alerts" is RUL0021 "Excessive Power use in chiller that is off". A word only one rule's name has weighs 2,
    a shared one 1; a rule is named from a score of 3 or with every word of its name, and only the best-scored.
    Otherwise only a name written out in order names a rule ("the load low ones" is RUL0017 "Load Low", "low
    load" is a reading)."""
    words = {rule_id: _rule_name_words(rule_id, name) for rule_id, name in rules}
    if not loose:
        stems = text.stems
        return [rule_id for rule_id, name in words.items() if name and any(
            stems[i:i + len(name)] == name for i in range(len(stems) - len(name) + 1))] or raised_rules(text, rules)
    sharing: dict[str, int] = {}
    for stems in words.values():
        for word in set(stems):
            sharing[word] = sharing.get(word, 0) + 1
    present = set(text.stems)
    scored: list[tuple[int, str]] = []
    for rule_id, stems in words.items():
        found = [w for w in set(stems) if w in present]
        score = sum(2 if sharing[w] == 1 else 1 for w in found)
        if found and (score >= _RULE_NAME_SCORE or len(found) == len(set(stems))):
            scored.append((score, rule_id))
    if not scored:
        return []
    best = max(score for score, _ in scored)
    return [rule_id for score, rule_id in sorted(scored, key=lambda p: p[1]) if score == best]


# "ch6 keeps flagging setpoint attainment", "it threw evaporator approach twice": a chiller raising a rule, which the
# words after the verb name (two of the name's words in its order; "the flow is flagging" raises nothing)
_RAISING = frozenset({"flag", "flags", "flagged", "flagging", "throw", "throws", "threw", "throwing", "thrown",
                      "raise", "raises", "raised", "raising", "fire", "fires", "fired", "firing"})
_DETERMINERS = frozenset({"a", "an", "the", "its", "that", "this", "those", "these", "on", "up"})


def raised_rules(text: Text, rules: Sequence[tuple[str, str]]) -> list[str]:
    """The alert rules a message says a chiller raised, by two words of the rule's name after the verb ("keeps
    flagging setpoint attainment": RUL0012). The verb says alerts are meant, whatever else the words name."""
    stems = text.stems
    return [rule_id for rule_id, name in rules
            if _raised_by_its_words(text.tokens, stems, _rule_name_words(rule_id, name))]


def _raised_by_its_words(tokens: Sequence[str], stems: Sequence[str], name: tuple[str, ...]) -> bool:
    for index, token in enumerate(tokens):
        if token not in _RAISING:
            continue
        after = index + 1
        while after < len(tokens) and tokens[after] in _DETERMINERS:
            after += 1
        pair = tuple(stems[after:after + 2])
        if len(pair) == 2 and any(name[i:i + 2] == pair for i in range(len(name) - 1)):
            return True
    return False


# "which failure codes is that rule tied to?", "what do those alerts usually point at?": the codes a rule maps to.
_ASKS_RULE_CODES = re.compile(r"\b(?:failure )?codes?\b.*\b(?:rules?|alerts?|alarms?|RUL\d+)\b|"
                             r"\b(?:rules?|alerts?|alarms?|RUL\d+)\b.*\b(?:failure )?codes?\b|"
                             r"\b(?:rules?|alerts?|alarms?)\b.*\b(?:point(?:s|ing)? (?:at|to)|tied to|linked to|"
                             r"map(?:s|ped)? to)\b.*\b(?:failures?|faults?|codes?)\b", re.I)


def asks_rule_codes(text: str) -> bool:
    """Whether the question asks which failure codes an alert rule points at."""
    return _ASKS_RULE_CODES.search(text) is not None
