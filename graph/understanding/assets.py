"""Asset mentions: "Chiller 9", "chillers 3 and 4", "ch #6", "CWC04009", "all chillers", unknown ones."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from assetops.domain.catalog import FleetCatalog
from graph.understanding.off_topic import function_words
from graph.understanding.text import Text
from graph.understanding.vocabulary import Vocabulary

_NUMBER = re.compile(r"^#?(\d{1,3})$")
_EQUIPMENT_ID = re.compile(r"^cwc\d{4,6}$")
_CONNECTORS = frozenset({"and", "or", "/", "-", "no", "no.", "number", "#", "to"})


@dataclass
class AssetMentions:
    """What a message says about assets, before references to earlier turns are resolved."""

    assets: list[str] = field(default_factory=list)  # known chiller names, in order of mention
    unknown: list[str] = field(default_factory=list)  # "Chiller 99", "CWC09999"
    all_assets: bool = False  # "all chillers", "the fleet"
    bare_asset_word: bool = False  # "the chiller" with no number
    other_equipment: list[str] = field(default_factory=list)  # "AHU 2", "pump"
    unknown_site: str | None = None


def _add(items: list[str], value: str) -> None:
    if value not in items:
        items.append(value)


def _numbers_after(tokens: tuple[str, ...], start: int, vocab: Vocabulary) -> tuple[list[int], bool]:
    """Numbers listed after an asset word ("3 and 4", "#9", "3/4") and whether any were found."""
    numbers: list[int] = []
    index = start
    while index < len(tokens):
        token = tokens[index]
        number = _NUMBER.match(token)
        spelled = vocab.asset_number_words.get(token)
        following = tokens[index + 1] if index + 1 < len(tokens) else ""
        if (number or spelled) and numbers and following in vocab.quantity_words:
            break
        if number:
            numbers.append(int(number.group(1)))
        elif spelled is not None:
            numbers.append(spelled)
        elif "/" in token and all(_NUMBER.match(part) for part in token.split("/") if part):
            numbers.extend(int(part.lstrip("#")) for part in token.split("/") if part)
        elif token not in _CONNECTORS or (not numbers and token in ("and", "or", "to")):
            break
        index += 1
    return numbers, bool(numbers)


def _name_for(number: int, vocab: Vocabulary) -> str:
    return f"{vocab.asset_word.capitalize()} {number}"


def _scan_asset_words(text: Text, vocab: Vocabulary, mentions: AssetMentions, catalog: FleetCatalog) -> None:
    sites = {site.casefold() for site in catalog.sites}
    for index, token in enumerate(text.tokens):
        if token not in (vocab.asset_word, vocab.asset_plural_word):
            continue
        numbers, found = _numbers_after(text.tokens, index + 1, vocab)
        if not found:
            # ("which MAIN chiller": a site name between the question word and the chiller still asks for one)
            before = index - 1
            while before > 0 and text.tokens[before].casefold() in sites:
                before -= 1
            asked = before >= 0 and text.tokens[before] in vocab.asset_question_words
            mentions.bare_asset_word = mentions.bare_asset_word or (token == vocab.asset_word and not asked)
            continue
        for number in numbers:
            name = _name_for(number, vocab)
            _add(mentions.assets if catalog.asset_id_of(name) else mentions.unknown, name)


def _marked_number_start(tokens: tuple[str, ...], index: int, vocab: Vocabulary) -> int | None:
    """Where the chiller numbers of a bare-number mention start ("unit 6", "#6", "on the 9"), or None.

    "#6" and the marker words need no asset word; "the 9" counts only before a word that cannot
    make it a quantity ("the 9 over that stretch", not "the 3 worst").
    """
    token = tokens[index]
    following = tokens[index + 1] if index + 1 < len(tokens) else ""
    if token.startswith("#") and _NUMBER.match(token):
        return index
    if token in vocab.asset_number_markers and _NUMBER.match(following):
        return index + 1
    if token in _NUMBER_PREPOSITIONS and _NUMBER.match(following):
        after = tokens[index + 2] if index + 2 < len(tokens) else ""
        return index + 1 if not after or after in vocab.the_number_followers else None
    return None


# "on the 9", and without the article "the refrigerant temp on 4 has been sliding", "same for 6?": a
# preposition's bare number is a chiller when nothing after it makes it a quantity or a date ("on 6 June",
# "for 3 days" stay what they are: the word after must be one of `the_number_followers`).
_NUMBER_PREPOSITIONS = frozenset({"the", "on", "for"})


def _is_quantity_or_rank(tokens: tuple[str, ...], number_index: int, vocab: Vocabulary) -> bool:
    """"#1 priority", "no 2 chillers", "unit 3 months": the number counts or ranks something."""
    after = tokens[number_index + 1] if number_index + 1 < len(tokens) else ""
    return after in vocab.quantity_words or after in vocab.asset_rank_words or after in vocab.units \
        or after in (vocab.asset_word, vocab.asset_plural_word)


def _scan_bare_numbers(text: Text, vocab: Vocabulary, mentions: AssetMentions, catalog: FleetCatalog) -> None:
    """Chiller numbers without the asset word: "#6", "no. 6", "unit 6", "on the 9" (existing chillers only)."""
    tokens = text.tokens
    for index in range(len(tokens)):
        if index > 0 and tokens[index - 1] in (vocab.asset_word, vocab.asset_plural_word):
            continue  # "chiller #9" is the asset-word scan's
        start = _marked_number_start(tokens, index, vocab)
        if start is None or _is_quantity_or_rank(tokens, start, vocab):
            continue
        for number in _numbers_after(tokens, start, vocab)[0]:
            name = _name_for(number, vocab)
            if catalog.asset_id_of(name):  # "unit 99" is not clearly a chiller: no unknown-chiller refusal
                _add(mentions.assets, name)


_PLACE_HEADS = frozenset({"on", "for", "about", "against", "with"})
# Verbs that report what someone says or thinks: a clause follows, and a bare number opening it is its subject
_REPORTING_VERBS = frozenset({"say", "says", "said", "reckon", "reckons", "reckoned", "think", "thinks", "thought",
                              "report", "reports", "reported", "claim", "claims", "claimed", "suspect", "suspects",
                              "suspected", "believe", "believes", "figure", "figures", "noticed", "heard", "told",
                              "mentioned", "swear", "swears", "insist", "insists"})
_PARTICIPLE = re.compile(r"[a-z]{3,}ing")
_COMPARATIVE_QUANTITY = frozenset({"more", "less", "fewer", "over", "under", "above", "below"})
_SUBJECT_VERBS = frozenset({"is", "was", "has", "had", "been", "looks", "look", "doing", "running"})


# Adverbs that follow a verb directly ("tripped twice", "alarmed again overnight").
_VERB_ADVERBS = frozenset({"twice", "again", "overnight", "out", "off", "up", "down", "hard", "badly", "early", "late"})

# "were the PMs on 6 done on time?": a participle after the chiller (the regular ones end in -ed)
_IRREGULAR_PARTICIPLES = frozenset({"done", "seen", "made", "taken", "kept", "found", "shown", "held", "left", "brought",
                                    "gotten", "given", "written", "put", "run"})
_RELATIVE_PRONOUNS = frozenset({"that", "which"})  # "the ones on 6 that alarmed": a clause about the chiller

_LIST_CONNECTORS = frozenset({"and", "or", "vs", "versus"})  # "7, 10 and 14", "6 vs 9"


@lru_cache(maxsize=4)
def _sensor_heads(vocab: Vocabulary) -> frozenset[str]:
    """The first word of every sensor name the vocabulary knows ("supply", "kw/ton", "condenser")."""
    return frozenset(alias.split()[0] for alias in vocab.sensor_aliases)


def _plain_number(token: str) -> int | None:
    match = _NUMBER.match(token)
    return int(match.group(1)) if match and not token.startswith("#") else None


def _number_list(tokens: tuple[str, ...], start: int) -> tuple[list[int], int]:
    """The bare numbers listed from `start` on ("7 10 and 14" once commas are dropped) and the index after
    the last of them."""
    numbers: list[int] = []
    index = end = start
    while index < len(tokens):
        number = _plain_number(tokens[index])
        if number is not None:
            numbers.append(number)
            end = index + 1
        elif tokens[index] not in _LIST_CONNECTORS or not numbers:
            break
        index += 1
    return numbers, end


def _argument_numbers(tokens: tuple[str, ...], index: int, vocab: Vocabulary) -> list[int]:
    """Bare numbers at `index` that stand where a chiller is the argument or the subject of a clause.

    A list of two or more ("out of 7, 10 and 14 which one ..."), a number after a word that takes a chiller
    ("any alerts logged against 14?", "what about 4, same month"), or one opening a clause before a verb
    ("and 4 was fine in july, right?"). A following unit, count or month keeps it a quantity or a date.
    """
    before = tokens[index - 1] if index > 0 else ""
    if before in vocab.months or _plain_number(before) is not None or (
            before == "than" and index > 1 and tokens[index - 2] in _COMPARATIVE_QUANTITY):
        return []
    listed, end = _number_list(tokens, index)
    after = tokens[end] if end < len(tokens) else ""
    if after in vocab.quantity_words or after in vocab.units or after in vocab.months \
            or after in vocab.time_of_day_tokens or after in (vocab.asset_word, vocab.asset_plural_word):
        return []
    followed = not after or after in vocab.the_number_followers or after in vocab.number_subject_followers \
        or (before in _PLACE_HEADS and _PARTICIPLE.fullmatch(after) is not None) \
        or (before in _PLACE_HEADS and after in _RELATIVE_PRONOUNS) \
        or (before in _PLACE_HEADS and (re.fullmatch(r"[a-z]{3,}ed", after) is not None
                                        or after in _IRREGULAR_PARTICIPLES))
    # "on 9 flatlining", "the alarms on 6 that fired", "the strainers on 6 checked out"
    if len(listed) >= 2:  # "7, 10 and 14 which one ...", "4 and 6 supply temps", not "2 or 3 bullets"
        # ("what about 1, 2 and 7 - which of them ...": a dash or other mark ends the list)
        return listed if followed or after in function_words() or after in _sensor_heads(vocab) \
            or not after[:1].isalnum() else []
    if (before in vocab.number_argument_heads or before in _PLACE_HEADS) and before != "of" and followed:
        return listed
    if before in _OPENING_AUXILIARIES and _opens_clause(tokens, index - 1) and len(listed) == 1 \
            and (after in _STATE_AFTER_SUBJECT or (before in ("is", "was", "are", "were")
                                                   and re.fullmatch(r"[a-z]{3,}(?<!th)ing", after) is not None)):
        return listed  # "is 9 any better?", "was 4 ok in june?", "is 9 cycling more?": the subject of a yes/no question
    if before in _DO_AUXILIARIES and len(listed) == 1 and after.isalpha() \
            and not after.endswith("s") and after not in function_words():
        return listed  # "did 6 log any trips?", "does 9 run at night?": the subject before the verb (not "did 3
        # alarms fire?": a plural noun makes it a count)
    # ("tower guys say 6 is running hot", "old timers reckon 9 had evaporator trouble": a clause reported)
    opens_clause = index == 0 or before in ("?", "and", "but", "so") or before in _REPORTING_VERBS
    if opens_clause and (after in _SUBJECT_VERBS or after in vocab.number_subject_followers
                         or _past_tense_verb(tokens, end, vocab)):
        return listed
    return []


# A question opened by an auxiliary whose subject is a bare number, then a state ("is 9 any better?").
_DO_AUXILIARIES = frozenset({"did", "does", "do"})
_OPENING_AUXILIARIES = frozenset({"is", "was", "are", "were", "has", "had", "did", "does"})
_STATE_AFTER_SUBJECT = frozenset({"any", "ok", "okay", "fine", "better", "worse", "running", "still", "also", "doing",
                                  "looking", "healthy", "alright", "down", "up", "back", "behaving", "affected",
                                  "in", "showing", "acting", "even", "really", "actually", "tripping", "alarming", "at",
                                  "on", "off",
                                  # "why is 3 so much worse?", "is 9 that bad?", "is 6 the worst?", "is 4 way off?"
                                  "so", "that", "much", "way", "as", "the",
                                  # "is 9 a genuine problem?", "is 6 an issue?"
                                  "a", "an",
                                  # "was 3 less efficient than 4?", "is 9 cheaper to run?": a comparative state
                                  "less", "more", "higher", "lower", "cheaper", "hotter", "warmer", "colder",
                                  "cooler"})


def _opens_clause(tokens: tuple[str, ...], index: int) -> bool:
    return index == 0 or tokens[index - 1] in ("?", "and", "but", "so", "ok", "okay", "what", "why", "how", "-")


def _past_tense_verb(tokens: tuple[str, ...], index: int, vocab: Vocabulary) -> bool:
    """Whether tokens[index] is a past-tense verb: "threw", "tripped", not the participle of a count
    ("3 scheduled PMs", "2 related alarms": a plural noun follows)."""
    word = tokens[index] if index < len(tokens) else ""
    if word in vocab.past_tense_verbs:
        return True
    if not re.fullmatch(r"[a-z]{3,}ed", word):
        return False
    # a verb is followed by a determiner, preposition, adverb or nothing; a participle before a count by a noun
    following = tokens[index + 1] if index + 1 < len(tokens) else ""
    return (not following or not following[0].isalnum() or following in function_words()
            or following in vocab.the_number_followers or following in _VERB_ADVERBS)


def _scan_argument_numbers(text: Text, vocab: Vocabulary, mentions: AssetMentions, catalog: FleetCatalog) -> None:
    """Chillers named by their bare number where the sentence has a chiller's place for it (known ones only)."""
    tokens, index = text.tokens, 0
    while index < len(tokens):
        if _plain_number(tokens[index]) is None or (index > 0 and tokens[index - 1] in (
                vocab.asset_word, vocab.asset_plural_word)):
            index += 1
            continue
        numbers = _argument_numbers(tokens, index, vocab)
        names = [_name_for(number, vocab) for number in numbers]
        if names and all(catalog.asset_id_of(name) for name in names):
            for name in names:
                _add(mentions.assets, name)
        index = max(index + 1, _number_list(tokens, index)[1])


# "Between 3 and 4, which one ...": a pair of chiller numbers to choose from (not "between 2 and 5 days").
_BETWEEN_PAIR = re.compile(r"\bbetween #?(\d{1,3}) and #?(\d{1,3})\b(?! ?(?:days?|weeks?|months?|years?|hours?|h|"
                           r"min\w*|am|pm|%|percent|degrees?|deg\w*|kw\w*|tons?|gpm|psi|times|:|\d))")


def _scan_between_pair(text: Text, vocab: Vocabulary, mentions: AssetMentions, catalog: FleetCatalog) -> None:
    for match in _BETWEEN_PAIR.finditer(text.joined + " "):
        names = [_name_for(int(n), vocab) for n in match.groups()]
        if all(catalog.asset_id_of(n) for n in names):
            for name in names:
                _add(mentions.assets, name)


# "the 6's repairs", "get 6's condenser tubes cleaned": a number that owns something is a unit, whatever
# follows it (only chillers the catalog has: "the 80's" is a decade).
_POSSESSIVE_NUMBER = re.compile(r"(?<![\w.,])#?(\d{1,3})['\u2019]s\b|"
                                # "9s liquid refrig evap temp": the apostrophe left out, before a part of the machine
                                r"(?<![\w.,])#?(\d{1,3})s (?=(?i:liquid|refrig\w*|evap\w*|cond\w*|chw|cw|chilled|"
                                r"supply|return|power|kw\S*|load|tonnage|flow|efficiency|eff|setpoint|temp\w*|"
                                r"compressor|tubes?|sensors?|alarms?|alerts?|work ?orders?|wos?|amps?)\b)")


# "for 6, what were they mostly?", "the ones on 6, real problem or noise?": a preposition's number that ends
# its clause has nothing after it to count, so it names a chiller (as typed: the tokens lose the comma).
# ("what was wrong with 9, then?", "going back to 6 - is it struggling?": the chiller the clause turns to)
_CLAUSE_END_NUMBER = re.compile(r"\b(?i:on|for|the|like|with|(?:back|over|switch(?:ing)?|turn(?:ing)?|move on|moving on) to)"
                                r"\s+#?(\d{1,3})\s*(?:(?i:then|too|either|also|as well)\s*)?"
                                r"(?=[,;:?!]|\s[-\u2013\u2014]\s|$)")  # ("nothing for 12 then?": the clause still ends on it)


# "which was worse in august, 6 or 9?": the choice offered after a comma at the end of a question (as typed: the
# tokens lose the comma that keeps "august, 6" from being a day).
_OFFERED_CHOICE = re.compile(r"[,:\-\u2013]\s*#?(\d{1,3})\s+(?:or|vs\.?|versus)\s+#?(\d{1,3})\s*[?.!]*\s*$")


# "should we start budgeting to replace 6?", "is it time to retire 6 or keep fixing it": the number a verb done to a
# machine takes as its object, ending the clause (or before "or"/"and"): a chiller ("replace 6 bearings" goes on).
_VERB_OBJECT_NUMBER = re.compile(r"\b(?i:replac\w*|retir\w*|scrap\w*|decommission\w*|overhaul\w*|inspect\w*|"
                                 r"servic\w*|diagnos\w*|shut down|restart\w*|isolat\w*|swap out|mothball\w*)\s+"
                                 r"#?(\d{1,3})\s*(?=[,;:?!.]|$|\s+(?i:or|and|now|first|soon|next|yet)\b)")


def _scan_typed_numbers(text: Text, vocab: Vocabulary, mentions: AssetMentions, catalog: FleetCatalog) -> None:
    """Chiller numbers only the typed text shows: a possessive ("6's"), a number ending its clause and a choice
    of two offered at the end."""
    for pattern in (_POSSESSIVE_NUMBER, _CLAUSE_END_NUMBER, _OFFERED_CHOICE, _VERB_OBJECT_NUMBER):
        for match in pattern.finditer(text.source):
            names = [_name_for(int(number), vocab) for number in match.groups() if number is not None]
            if all(catalog.asset_id_of(name) for name in names):
                for name in names:
                    _add(mentions.assets, name)


def _scan_equipment_ids(text: Text, mentions: AssetMentions, catalog: FleetCatalog) -> None:
    for token in text.tokens:
        if _EQUIPMENT_ID.match(token):
            code = token.upper()
            known = catalog.asset_id_of(code)
            if known:
                _add(mentions.assets, known)
            else:
                _add(mentions.unknown, code)


# "those pump seal jobs", "the tower fan bearing": the equipment word names a part or a job of the chiller's records,
# not another machine to look at.
_PART_OR_JOB = frozenset({"seal", "seals", "job", "jobs", "repair", "repairs", "work", "order", "orders", "wo", "wos",
                          "bearing", "bearings", "motor", "motors", "impeller", "coupling", "strainer", "issue",
                          "issues", "problem", "problems", "failure", "failures", "ticket", "tickets", "leak", "leaks",
                          "replacement", "vibration", "alignment", "packing", "side"})


def _scan_other_equipment(text: Text, vocab: Vocabulary, mentions: AssetMentions) -> None:
    for match in text.find_longest(vocab.other_equipment):
        following = text.tokens[match.end] if match.end < len(text.tokens) else ""
        if following in _PART_OR_JOB:
            continue
        label = match.phrase.upper() if len(match.phrase) <= 4 else match.phrase
        _add(mentions.other_equipment, f"{label} {following.lstrip('#')}" if _NUMBER.match(following) else label)


# "site X" as typed. A determiner before "site" ("the site recently", "our site over the summer")
# makes it the common noun, never a name.
_SITE_WORD = re.compile(r"(?:\b((?i:the|our|this|that|whole|entire|my|your|each|every|a|per))\s+)?\b(?i:site)\s+"
                        r"([A-Za-z0-9][\w-]*)")


# "our Riverside plant", "the Eastgate facility": a capitalised word inside a sentence, before a word for a site (at
# the start of a sentence every word is capitalised, so none there is taken as a name)
_NAMED_PLANT = re.compile(r"(?<![.!?]\s)(?<!^)(?<=\s)([A-Z][a-z][A-Za-z0-9-]*|[A-Z]{2,}[0-9]*)\s+(?i:plant|facility|campus)\b")


def _written_as_name(word: str) -> bool:
    """A site name is written like one: a code in capitals ("NORTH", "B2"), a digit, or a capitalised
    word ("Ridgeview"); "recently", "over", "start" in lower case are words, not names."""
    return any(ch.isdigit() for ch in word) or (len(word) > 1 and (word.isupper() or word[0].isupper()))


def _scan_site(text: Text, vocab: Vocabulary, mentions: AssetMentions) -> None:
    """An unknown site is reported only where the message names one: "at site NORTH", not "at the
    site recently". Where only tokens are known (no typed source), nothing is taken as a name."""
    for match in _SITE_WORD.finditer(text.source):
        determiner, candidate = match.group(1), match.group(2)
        lowered = candidate.lower()
        if determiner or lowered in vocab.site_stop_words or lowered == vocab.site_name.lower() \
                or not _written_as_name(candidate):
            continue
        mentions.unknown_site = candidate.upper()
    for match in _NAMED_PLANT.finditer(text.source):
        candidate = match.group(1)
        lowered = candidate.lower()
        if lowered in vocab.site_stop_words or lowered == vocab.site_name.lower() \
                or any(lowered in alias.split() for alias in vocab.site_aliases):
            continue
        mentions.unknown_site = candidate.upper()


# "is 4 worse than 3 on kw/t?", "6 vs 9 last month": once a chiller is named, a bare number it is set against is
# another (only where nothing after it makes it a count: "more than 3 alerts" is a count).
_SET_AGAINST_NUMBER = re.compile(r"\b(?:(?<!more )(?<!less )(?<!fewer )(?<!greater )(?<!other )than|vs|versus|against|"
                                 r"compared (?:to|with)) #?(\d{1,3})"
                                 r"(?= ?(?:[?,.;!]|$| (?:on|in|for|at|over|during|last|this|then|now|too|either|and|"
                                 r"or|the|by|while|when|with)\b))")


def _scan_set_against(text: Text, vocab: Vocabulary, mentions: AssetMentions, catalog: FleetCatalog) -> None:
    if not mentions.assets:
        return
    for match in _SET_AGAINST_NUMBER.finditer(text.joined):
        name = _name_for(int(match.group(1)), vocab)
        if catalog.asset_id_of(name):
            _add(mentions.assets, name)


# "for 6 again: Q2 vs Q3?", "back to 6: how many alerts?", "on 9 - any trips?": a topic set at the head of the
# message, its bare number a chiller (the colon, comma or dash after it says so, as typed).
# "oops, meant 4", "no - i meant #6": a correction names the chiller meant by its bare number.
_MEANT_NUMBER = re.compile(r"\bmeant\s+(?:to say\s+)?(?:#|no\.?\s*|number\s+)?(\d{1,3})\b(?!\s*(?:%|st|nd|rd|th|days?|"
                           r"weeks?|months?|years?|am|pm)\b)", re.I)
_FRONTED_NUMBER = re.compile(r"^\s*(?:(?:ok|so|right|and)[,]?\s+)?(?:for|on|about|back to|as for|re|regarding|now)\s+"
                             r"#?(\d{1,3})\s*(?:again|too|now|then)?\s*[:,\-\u2013]", re.I)


def _scan_fronted_topic(text: Text, vocab: Vocabulary, mentions: AssetMentions, catalog: FleetCatalog) -> None:
    for found in (_FRONTED_NUMBER.match(text.source), _MEANT_NUMBER.search(text.source)):
        if found is not None:
            name = _name_for(int(found.group(1)), vocab)
            if catalog.asset_id_of(name):
                _add(mentions.assets, name)


def loose_chiller_number(text: Text, vocab: Vocabulary, catalog: FleetCatalog) -> str | None:
    """The one chiller a bare number of the message could be when no rule placed it ("heads up from the night shift
    about 9: ..."): not a quantity, a month's day or a count ("3 weeks", "june 9", "the 2 of them"), and the only such
    number. A fallback for a message that names no chiller, which the planner states as an assumption."""
    tokens, found = text.tokens, set()
    for index, token in enumerate(tokens):
        number = _plain_number(token)
        before = tokens[index - 1] if index else ""
        after = tokens[index + 1] if index + 1 < len(tokens) else ""
        if number is None or before in vocab.months or after in vocab.months or after in vocab.units \
                or after in vocab.quantity_words or after in vocab.time_of_day_tokens \
                or before in ("the", "of", "than", "top", "past", "last", "next"):
            continue
        if catalog.asset_id_of(_name_for(number, vocab)):
            found.add(_name_for(number, vocab))
    return found.pop() if len(found) == 1 else None


def find_assets(text: Text, vocab: Vocabulary, catalog: FleetCatalog) -> AssetMentions:
    """Every asset mention in `text`: known chillers (of `catalog`), unknown numbers/ids, "all", other
    equipment, site."""
    mentions = AssetMentions()
    _scan_asset_words(text, vocab, mentions, catalog)
    _scan_bare_numbers(text, vocab, mentions, catalog)
    _scan_typed_numbers(text, vocab, mentions, catalog)
    _scan_between_pair(text, vocab, mentions, catalog)
    _scan_argument_numbers(text, vocab, mentions, catalog)
    _scan_equipment_ids(text, mentions, catalog)
    _scan_fronted_topic(text, vocab, mentions, catalog)
    _scan_set_against(text, vocab, mentions, catalog)
    mentions.all_assets = bool(text.find_longest(vocab.all_asset_phrases))
    _scan_other_equipment(text, vocab, mentions)
    _scan_site(text, vocab, mentions)
    return mentions


def telemetry_assets(catalog: FleetCatalog) -> tuple[str, ...]:
    """The chillers that report telemetry (the others exist in the work-order data only)."""
    return catalog.telemetry_assets


def known_assets(catalog: FleetCatalog) -> tuple[str, ...]:
    """Every chiller of the site, telemetry ones first, then the work-order-only ones by number."""
    return catalog.asset_ids
