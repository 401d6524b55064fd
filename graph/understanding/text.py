"""Text normalisation and phrase matching shared by every extractor.

A message becomes a list of lower-case tokens with abbreviations expanded ("ch9 temp" -> "chiller 9
temperature") and near-miss spellings of the asset word and of a few request words fixed ("chiler 9" ->
"chiller 9", "anomally" -> "anomaly"). Phrases from the vocabulary go through the same normalisation,
so "temp" in the data matches "temperature" in a message and the other way round.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

import yaml

from graph.understanding.vocabulary import Vocabulary, vocabulary

# Characters that carry meaning inside tokens: dates (2020-06-14, 6/14/2020), ids (RUL0018),
# units (kw/ton, %), numbering (#9), times (14:30). Everything else separates tokens.
_SEPARATORS = re.compile(r"[^a-z0-9/#%'\-:.?]+")
_TRAILING = ".,;:!'-"
_WORD_HYPHEN = re.compile(r"(?<=[a-z])-(?=[a-z0-9])|(?<=[0-9])-(?=[a-z])")
# A hyphenated compound of two words ("work-order", "set-point"), where neither is a calendar word that makes the hyphen
# a range ("mar-may", "mon-fri", "q1-q2")
_COMPOUND = re.compile(r"\b([a-z]{2,})-([a-z]{2,})\b")
_CALENDAR_WORDS = frozenset({"jan", "january", "feb", "february", "mar", "march", "apr", "april", "may", "jun", "june",
                             "jul", "july", "aug", "august", "sep", "sept", "september", "oct", "october", "nov",
                             "november", "dec", "december", "mon", "monday", "tue", "tues", "tuesday", "wed",
                             "wednesday", "thu", "thur", "thurs", "thursday", "fri", "friday", "sat", "saturday", "sun",
                             "sunday", "spring", "summer", "fall", "autumn", "winter", "mid", "early", "late", "end",
                             "start", "beginning", "through", "thru", "to", "till", "until"})
_PREFIXES = frozenset({"re", "pre", "post", "non", "co", "un", "sub", "semi", "multi", "anti", "self", "cross", "x"})


def _compound_words(match: re.Match[str]) -> str:
    left, right = match.group(1), match.group(2)
    if left in _CALENDAR_WORDS or right in _CALENDAR_WORDS or left in _PREFIXES:
        return match.group(0)
    return f"{left} {right}"


_GLUED_NUMBER = re.compile(r"^([a-z]+)[-#.]?(\d+)$")
_NUMBERISH = re.compile(r"^(#?\d+|no\.?|number|#)$")


def edit_distance(left: str, right: str, limit: int = 3) -> int:
    """Optimal-string-alignment distance (insert, delete, substitute, swap neighbours), capped at limit+1."""
    if abs(len(left) - len(right)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(right) + 1))
    for i, lch in enumerate(left, start=1):
        current = [i] + [0] * len(right)
        for j, rch in enumerate(right, start=1):
            cost = 0 if lch == rch else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and lch == right[j - 2] and left[i - 2] == rch:
                current[j] = min(current[j], previous2[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        previous2, previous = previous, current
    return previous[-1]


_N_BETWEEN_NUMBERS = re.compile(r"(?<=\d) n (?=#?\d)")


_COMPARED_WITH = re.compile(r"\b(compare|compared|comparing|vs|versus|stack up|stacks up|line up)\s+w/\s*")
# A year written with an apostrophe and two digits ("August '19", "back in '17"): never a day or a chiller.
_SHORT_YEAR = re.compile(r"(?<![\w'])'(\d\d)(?![\w'])")


def _full_year(match: re.Match[str]) -> str:
    short = int(match.group(1))
    return str(2000 + short if short < 70 else 1900 + short)


def _split_raw(message: str) -> list[str]:
    lowered = message.lower().replace("\u2019", "'").replace("&", " and ").replace("+", " and ")
    lowered = _N_BETWEEN_NUMBERS.sub(" and ", lowered)  # texted "4 n 9" is "4 and 9"
    lowered = _SHORT_YEAR.sub(_full_year, lowered)  # "August '19", "summer of '18": the year written short
    # "compare w/ aug last year": after a verb of comparing, "w/" is "with" (elsewhere it stays: "whats up w/ 6")
    lowered = _COMPARED_WITH.sub(r"\1 with ", lowered)
    lowered = lowered.replace("?", " ? ")
    # "water-side", "Mar-May": the hyphen between words becomes its own token (a range marker for
    # dates, ignorable elsewhere); hyphens inside numbers (2020-06-14) stay.
    lowered = _COMPOUND.sub(_compound_words, lowered)  # "work-order", "water-side": the words, without the hyphen
    lowered = _WORD_HYPHEN.sub(" - ", lowered)
    tokens = []
    for raw in _SEPARATORS.split(lowered):
        token = raw if raw in ("w/o", "w/os", "-") else raw.strip(_TRAILING)
        if token:
            tokens.append(token)
    return tokens


def _asset_word_for(token: str, next_token: str | None, vocab: Vocabulary) -> str | None:
    """The asset word a (possibly misspelt) token stands for, or None."""
    if token in (vocab.asset_word, vocab.asset_plural_word):
        return token
    if token in vocab.protected_words or not token.startswith(vocab.asset_word[0]) or len(token) < 5:
        return None
    before_number = next_token is not None and (bool(_NUMBERISH.match(next_token))
                                                 or next_token in vocab.asset_number_words)
    budget = vocab.max_typo_distance if before_number else 1
    return _nearest(token, (vocab.asset_word, vocab.asset_plural_word), budget)


_MIN_TYPO_WORD = 6  # shorter words are too close to other words to correct safely
_TWO_TYPOS_WORD = 7  # from this length on, two edits still leave the word recognisable ("anamoly")


def _corrected_request_word(token: str, vocab: Vocabulary) -> str | None:
    """The request word a misspelt token stands for ("anomally" -> "anomaly"), or the technical word
    ("aproach" -> "approach", "condensor" -> "condenser"), or None."""
    if len(token) < _MIN_TYPO_TOKEN or not token.isalpha() or token in vocab.typo_corrected_words:
        return None
    budget = 2 if len(token) >= _TWO_TYPOS_WORD else 1
    request = _nearest(token, [word for word in vocab.typo_corrected_words if word[0] == token[0]], budget) \
        if len(token) >= _MIN_TYPO_WORD else None
    if request is not None:
        return request
    technical, known = _lexicon(vocab)
    if len(token) < _MIN_TYPO_TOKEN or token in known:
        return None
    # one edit, and only one technical word that close: a near miss of two words is left alone
    # (a typo seldom changes the first letter: "heading" is not a misspelt "reading")
    close = [word for word in technical if word[0] == token[0] and abs(len(word) - len(token)) <= 1
             and edit_distance(token, word, 1) <= 1]
    if len(close) != 1:
        return None
    # ("raising" is "raise" inflected, never a misspelt "rising"; "correctives" is "corrective" itself)
    if stem(close[0]) != stem(token) and stem(token) in _known_stems(known):
        return None
    return close[0]


_MIN_TECHNICAL_TYPO = 6
_MIN_TYPO_TOKEN = 5  # "alrms" is a near miss of "alarms"; shorter tokens are too often other words
_STRONG_CUE = 3
_GRAMMAR_PATH = Path(__file__).with_name("requests.yaml")
# Keyed by the vocabulary's id, holding the vocabulary itself so that the id cannot be reused by another.
_LEXICONS: dict[int, tuple[Vocabulary, tuple[str, ...], frozenset[str]]] = {}


def _lexicon(vocab: Vocabulary) -> tuple[tuple[str, ...], frozenset[str]]:
    """(technical words a typo may stand for: the sensor and failure-mode names; every word the
    vocabulary knows, which is never corrected, so "leaking" does not become "leaving")."""
    cached = _LEXICONS.get(id(vocab))
    if cached is not None and cached[0] is vocab:
        return cached[1], cached[2]
    def words(phrases: object) -> set[str]:
        return {w for p in phrases for w in re.findall(r"[a-z]+", str(p).lower())}  # type: ignore[attr-defined]
    sensor_words = words(vocab.sensor_aliases) | words(vocab.sensor_groups) | words(vocab.failure_mode_aliases)
    # and the one-word request cues ("alarms", "forecast"): "alrms 2?" asks for alarms
    cues = {p for rule in vocab.intents for p, weight in rule.phrases.items()
            if weight >= _STRONG_CUE and p.isalpha() and len(p) >= _MIN_TECHNICAL_TYPO}
    # ("anything over the summmer?": a month or season misspelt is still the period)
    periods = words(vocab.months) | words(vocab.seasons)
    technical = {w for w in sensor_words | periods if len(w) >= _MIN_TECHNICAL_TYPO} | cues | set(vocab.everyday_words)
    grammar = yaml.safe_load(_GRAMMAR_PATH.read_text(encoding="utf-8"))  # the request grammar's words
    known = sensor_words | words(vocab.abbreviations.values()) \
        | {w for value in grammar.values() if isinstance(value, list) for w in words(value)} \
        | {w for rule in vocab.intents for w in words(rule.phrases)} | words(vocab.other_equipment) \
        | words(vocab.protected_words) | words(vocab.everyday_words) | periods | {f"{w}s" for w in periods} \
        | words(vocab.event_words) | words(vocab.trip_words) \
        | {w for phrases in vocab.references.values() for w in words(phrases)}
    _LEXICONS[id(vocab)] = (vocab, tuple(sorted(technical)), frozenset(known))
    return tuple(sorted(technical)), frozenset(known)


@lru_cache(maxsize=4)
def _known_stems(known: frozenset[str]) -> frozenset[str]:
    """The stems of the words the vocabulary knows: an inflection of a known word is no typo."""
    return frozenset(stem(word) for word in known)


def _nearest(token: str, words: Sequence[str], budget: int) -> str | None:
    """The word of `words` closest to `token` when at most `budget` edits away, else None."""
    distance, word = min(((edit_distance(token, word, budget), word) for word in words), default=(budget + 1, ""))
    return word if distance <= budget else None


# Phrasal verbs whose first word is a request cue on its own: "anything we should rule out?" excludes a
# cause, it does not ask for alert rules.
_PHRASAL_VERBS = {("rule", "out"): "exclude", ("rules", "out"): "excludes", ("ruled", "out"): "excluded",
                  ("ruling", "out"): "excluding"}


# A separable phrasal verb with its object in between ("sum it all up", "write this up", "put it together",
# "rule it out") reads as the joined verb followed by the object, so "sum up" is found whatever the object.
_OBJECT_WORDS = frozenset({"it", "this", "that", "them", "these", "those", "all", "everything", "things", "stuff",
                           "both"})
_PARTICLES = frozenset({"up", "together", "over", "out"})
_WEEKDAY_NAMES = frozenset({"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"})
_NOT_VERBS = frozenset({"is", "was", "are", "were", "be", "been", "what", "what's", "whats", "it's", "that's",
                        "how", "why", "where", "when", "who", "which", "of", "for", "with", "and", "or", "to"})


def _join_separated_particles(tokens: list[str]) -> list[str]:
    out = list(tokens)
    for index in range(len(out) - 2):
        for size in (1, 2):
            particle = index + size + 1
            if particle >= len(out) or out[particle] not in _PARTICLES or out[index] in _NOT_VERBS \
                    or not out[index].isalpha():
                continue
            if all(t in _OBJECT_WORDS for t in out[index + 1:particle]):
                out[index + 1:particle + 1] = [out[particle], *out[index + 1:particle]]
                break
    return out


# Question words a misspelling at the head of a question stands for ("wich rule ...?", "whcih one"): only there,
# where "with" or "wish" cannot stand, and only one edit away.
_QUESTION_WORDS = ("which", "where", "what", "when", "whose")
_EVERYDAY_W_WORDS = frozenset({"with", "wish", "was", "way", "war", "wet", "wear", "what's", "who", "why", "we"})


def _question_word(tokens: list[str], vocab: Vocabulary) -> list[str]:
    first = tokens[0] if tokens else ""
    if not first.startswith("w") or not first.isalpha() or len(first) < 3 or first in _QUESTION_WORDS:
        return tokens
    close = [w for w in _QUESTION_WORDS if abs(len(w) - len(first)) <= 1 and edit_distance(first, w, 1) <= 1]
    known = _lexicon(vocab)[1] | _EVERYDAY_W_WORDS
    return [close[0], *tokens[1:]] if len(close) == 1 and first not in known else tokens


# An opinion asked for inside a question ("what do you think is causing it", "which one would you say is worse",
# "why do you reckon it tripped") asks the question itself: the clause is dropped after the question word, so
# "what is causing it" is read whatever the politeness around it.
_WH_WORDS = frozenset({"what", "which", "why", "how", "who", "where", "when"})
_OPINION_AUXILIARIES = frozenset({"do", "would", "did", "does", "will"})
_YOU = frozenset({"you", "u", "ya", "ye", "y'all"})
_OPINION_VERBS = frozenset({"think", "reckon", "suppose", "guess", "figure", "say", "believe", "make"})


def _drop_opinion_clause(tokens: list[str]) -> list[str]:
    out = list(tokens)
    index = 0
    while index < len(out):
        if out[index] in _WH_WORDS:
            start = index + 1
            # "what one/chiller do you think ..." keeps its noun: the clause may follow it
            if start < len(out) and out[start] not in _OPINION_AUXILIARIES | _YOU and start + 1 < len(out) \
                    and out[start + 1] in _OPINION_AUXILIARIES | _YOU:
                start += 1
            end = start + (start < len(out) and out[start] in _OPINION_AUXILIARIES)
            if end < len(out) and out[end] in _YOU and end + 1 < len(out) and out[end + 1] in _OPINION_VERBS \
                    and end + 2 < len(out) and out[end + 2][:1].isalnum() and out[end + 2] != "of" and (end > start or out[end + 1] != "make"):
                del out[start:end + 2]
        index += 1
    return out


_AUXILIARIES = frozenset({"is", "was", "are", "were", "did", "does", "do", "has", "have", "had", "would", "could",
                          "should", "is'nt", "isnt", "wasnt", "didnt", "doesnt"})
_OPENERS_AFTER_AND = frozenset({"how", "what", "which", "when", "where", "who", "why", "the", "its", "his", "their",
                                *_AUXILIARIES})


# Words that point at something said before: "y that one" asks why of it.
_POINTING_WORDS = ("that", "this", "those", "these", "it", "them", "they", "the")


_DAY_ORDINAL_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
                      "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
                      "eighteenth", "nineteenth", "twentieth")
_DAY_TENS = {"twenty": 20, "thirty": 30}
_DAY_OF_TENS = {"twentieth": 20, "thirtieth": 30}
# Words before "May first" that make "may" the month ("since May first"), not the verb ("it may first need ...")
_BEFORE_A_DATE = frozenset({"since", "from", "on", "until", "till", "before", "after", "by", "to", "through", "thru",
                            "and", "between", "around", "about", "of"})


def _spelled_day(tokens: list[str], index: int) -> tuple[int, int] | None:
    """(day, tokens used) of a day ordinal written in words at `index` ("fifteenth", "twenty first"), else None."""
    token = tokens[index]
    if token in _DAY_OF_TENS:
        return _DAY_OF_TENS[token], 1
    if token in _DAY_TENS and index + 1 < len(tokens) and tokens[index + 1] in _DAY_ORDINAL_WORDS[:9]:
        day = _DAY_TENS[token] + _DAY_ORDINAL_WORDS.index(tokens[index + 1]) + 1
        return (day, 2) if day <= 31 else None
    if token in _DAY_ORDINAL_WORDS:
        return _DAY_ORDINAL_WORDS.index(token) + 1, 1
    return None


def _numeral_ordinal(day: int) -> str:
    suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def _spelled_day_ordinals(tokens: list[str], vocab: Vocabulary) -> list[str]:
    """A day written in words next to its month ("the first of May", "June twenty-first") is the numeral ordinal the
    date patterns read ("the 1st of may"); elsewhere "first" stays a word ("the first week", "first of all")."""
    out: list[str] = []
    index = 0
    while index < len(tokens):
        found = _spelled_day(tokens, index)
        if found is not None:
            day, used = found
            after = tokens[index + used:index + used + 2]
            month_word = after[1] if after[:1] == ["of"] and len(after) == 2 else after[0] if after else ""
            month_after = month_word in vocab.months
            before = out[-1] if out else ""
            month_before = before in vocab.months and (before not in vocab.ambiguous_months
                                                       or out[-2:-1] in ([w] for w in _BEFORE_A_DATE))
            if month_after or month_before:
                out.append(_numeral_ordinal(day))
                index += used
                continue
        out.append(tokens[index])
        index += 1
    return out


def _expand(tokens: list[str], vocab: Vocabulary) -> list[str]:
    tokens = _question_word(_join_separated_particles(_spelled_day_ordinals(tokens, vocab)), vocab)
    out: list[str] = []
    skip = False
    for index, token in enumerate(tokens):
        if skip:
            skip = False
            continue
        phrasal = _PHRASAL_VERBS.get((token, tokens[index + 1] if index + 1 < len(tokens) else ""))
        if phrasal is not None:
            out.append(phrasal)
            skip = True
            continue
        previous = out[-1] if out else ""
        if token in vocab.time_of_day_tokens and previous[:1].isdigit():
            out.append(token)
            continue
        if token.endswith("'s") and len(token) > 2 and token[:-2] not in _WEEKDAY_NAMES:  # "ch9's" is "ch9", then
            token = token[:-2]  # "chiller 9" ("thursday's meeting" keeps its mark: an occasion, not a day to read)
        glued = _GLUED_NUMBER.match(token)
        if glued and (vocab.abbreviations.get(glued.group(1)) == vocab.asset_word
                      or _asset_word_for(glued.group(1), glued.group(2), vocab)):
            out.extend([vocab.asset_word, glued.group(2)])
            continue
        following = tokens[index + 1] if index + 1 < len(tokens) else ""
        if token == "y" and (following in ("?", "tho", "though") or (not out and following in (*_AUXILIARIES,
                                                                                            *_POINTING_WORDS))):
            out.append("why")  # "y?", "y was may worse", "y that one" are texting for "why" ("y" alone may be a yes)
            continue
        if token == "r" and not out and following:
            out.append("are")  # "r the others ok" is texting for "are the others ok"
            continue
        if token == "n" and not out and following in _OPENERS_AFTER_AND:
            out.append("and")  # "n how many alerts on it?" is texting for "and how many"
            continue
        if token in vocab.abbreviations:
            out.extend(vocab.abbreviations[token].split())
            continue
        if token.endswith("'s") and len(token) > 2 and token[:-2] not in _WEEKDAY_NAMES:
            token = token[:-2]
        next_token = tokens[index + 1] if index + 1 < len(tokens) else None
        out.append(_asset_word_for(token, next_token, vocab) or _corrected_request_word(token, vocab)
                   or token.strip("'"))
    return _drop_opinion_clause([token for token in out if token])


def normalise(message: str, vocab: Vocabulary | None = None) -> list[str]:
    """Lower-case tokens of `message` with abbreviations expanded and asset-word typos corrected."""
    if vocab is None:
        return list(_normalised(message))
    return _expand(_split_raw(message), vocab)


@lru_cache(maxsize=1024)
def _normalised(message: str) -> tuple[str, ...]:
    """`normalise` with the project vocabulary, cached: planning and answering read one message many times."""
    return tuple(_expand(_split_raw(message), vocabulary()))


@lru_cache(maxsize=8192)
def stem(token: str) -> str:
    """A crude English stem, enough to meet a phrase in another inflection: "causing", "caused",
    "causes" and "cause" share "caus"; "fires"/"firing"/"fire" share "fir"; "explains" is "explain"."""
    word = token
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif len(word) > 4 and word.endswith(("ed", "es")):
        word = word[:-2]
    elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
        word = word[:-1]  # "running" -> "run", "stopped" -> "stop"
    return word


@lru_cache(maxsize=4096)
def phrase_stems(phrase: str) -> tuple[str, ...]:
    """The stems of a vocabulary phrase's normalised tokens."""
    return tuple(stem(t) for t in phrase_tokens(phrase))


@lru_cache(maxsize=4096)
def phrase_tokens(phrase: str) -> tuple[str, ...]:
    """A vocabulary phrase normalised the same way as messages (cached: phrases repeat every turn)."""
    return tuple(normalise(phrase))


@dataclass(frozen=True)
class Match:
    """A phrase found at token positions [start, end)."""

    start: int
    end: int
    phrase: str


@dataclass(frozen=True)
class Text:
    """A normalised message with phrase look-ups on token boundaries."""

    tokens: tuple[str, ...]
    # The message as typed: how a word is written (a code in capitals, a capitalised name) tells a
    # name from an ordinary word, which the lower-case tokens cannot.
    source: str = ""

    @classmethod
    def of(cls, message: str) -> Text:
        """Normalise `message` into a `Text`."""
        return cls(tuple(normalise(message)), message)

    @property
    def joined(self) -> str:
        """The tokens joined by single spaces (what regular expressions run on)."""
        return " ".join(self.tokens)

    @cached_property
    def vocabulary_of_message(self) -> frozenset[str]:
        """The distinct tokens (a quick "cannot match" test before scanning)."""
        return frozenset(self.tokens)

    def positions(self, phrase: str) -> list[int]:
        """Token indexes where `phrase` starts."""
        wanted = phrase_tokens(phrase)
        size = len(wanted)
        if not size or wanted[0] not in self.vocabulary_of_message:
            return []
        first = wanted[0]
        return [i for i, token in enumerate(self.tokens)
                if token == first and self.tokens[i:i + size] == wanted]

    @cached_property
    def stems(self) -> tuple[str, ...]:
        """The tokens' stems (`stem`), position for position."""
        return tuple(stem(t) for t in self.tokens)

    def contains_inflected(self, phrase: str) -> bool:
        """Like `contains`, on stems: the phrase in any inflection ("what is causing" meets "what caused")."""
        if " + " in phrase:
            return all(self.contains_inflected(part.strip()) for part in phrase.split(" + "))
        wanted = phrase_stems(phrase)
        size = len(wanted)
        stems = self.stems
        return bool(size) and any(stems[i:i + size] == wanted for i in range(len(stems) - size + 1))

    def contains(self, phrase: str) -> bool:
        """True when `phrase` occurs; "a + b" means every part occurs somewhere."""
        if " + " in phrase:
            return all(self.contains(part.strip()) for part in phrase.split(" + "))
        return bool(self.positions(phrase))

    def find_longest(self, phrases: list[str] | tuple[str, ...]) -> list[Match]:
        """Non-overlapping occurrences of `phrases`, longer phrases winning, in text order."""
        ranked = sorted(set(phrases), key=lambda p: (-len(phrase_tokens(p)), p))
        taken: set[int] = set()
        found: list[Match] = []
        for phrase in ranked:
            size = len(phrase_tokens(phrase))
            for start in self.positions(phrase):
                span = set(range(start, start + size))
                if span & taken:
                    continue
                taken |= span
                found.append(Match(start, start + size, phrase))
        return sorted(found, key=lambda m: m.start)
