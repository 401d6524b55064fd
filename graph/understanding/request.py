"""How a message is put: its speech act, the shape of answer it needs, whether it commands a write,
and whether it is about the whole site.

This is the topic-independent half of understanding. The intent classifier says *what* a message is
about (work orders, anomalies, a diagnosis); this module says *how* it asks: "are breakdowns getting
more frequent?" needs "yes" or "no" first, "which one worries you?" needs a pick, "would it be worth
planning an inspection?" needs a recommendation and must not draft anything. The rules read the
opening words of the asking clause (auxiliaries, wh-words, modals), a closed class of function words,
so they hold for sentences nobody wrote down. Pure: the grammar data is read once from requests.yaml.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

import yaml

from assetops.domain.turn import QuestionShape
from graph.understanding.fleet_subset import telemetry_subset
from graph.understanding.text import Text

GRAMMAR_PATH = Path(__file__).with_name("requests.yaml")
SpeechAct = Literal["question", "command", "confirm", "decline", "statement", "acknowledge"]
# Sentence ends, and the colon or dash that sets a lead-in apart ("Going back to that one: was it ...?").
_SENTENCE_END = re.compile(
    r"(?<=[?!.;:])\s+|\n+|\s+[-\u2013\u2014]+\s+(?=(?:what|which|who|when|where|why|how|is|are|was|were|do|does|"
    r"did|can|could|should|would|will|has|have|any)\b)", re.IGNORECASE)
_MAX_CONFIRM_TOKENS = 8  # "yes please, go ahead and draft it" is a confirmation; a paragraph is not


@dataclass(frozen=True)
class Grammar:
    """The closed word classes the request rules use (requests.yaml)."""

    fillers: frozenset[str]
    yes_no_openers: tuple[str, ...]
    yes_no_tails: tuple[str, ...]
    confirm_requests: tuple[str, ...]
    state_words: frozenset[str]
    acknowledgements: frozenset[str]
    polite_openers: tuple[str, ...]
    wh_words: frozenset[str]
    which_openers: tuple[str, ...]
    which_anywhere: tuple[str, ...]
    how_to_openers: tuple[str, ...]
    verdict_phrases: tuple[str, ...]
    summary_verbs: tuple[str, ...]
    recommend_openers: tuple[str, ...]
    recommend_anywhere: tuple[str, ...]
    write_verbs: frozenset[str]
    write_objects: tuple[str, ...]
    write_commands: tuple[str, ...]
    imperative_verbs: frozenset[str]
    confirm_words: frozenset[str]
    confirm_starts: tuple[str, ...]
    decline_starts: tuple[str, ...]
    fleet_words: tuple[str, ...]
    plural_back_references: tuple[str, ...]
    others_phrases: tuple[str, ...]
    others_followers_ok: tuple[str, ...]
    context_openers: tuple[str, ...]
    alternative_exclusions: tuple[str, ...]
    symptom_words: tuple[str, ...]
    comparative_words: tuple[str, ...]


@lru_cache(maxsize=1)
def grammar() -> Grammar:
    """The request grammar, read from requests.yaml on first use."""
    raw = yaml.safe_load(GRAMMAR_PATH.read_text(encoding="utf-8"))
    return Grammar(
        fillers=frozenset(raw["fillers"]), yes_no_openers=tuple(raw["yes_no_openers"]),
        yes_no_tails=tuple(raw["yes_no_tails"]), confirm_requests=tuple(raw["confirm_requests"]), state_words=frozenset(raw["state_words"]),
        acknowledgements=frozenset(raw["acknowledgements"]),
        polite_openers=tuple(raw["polite_openers"]),
        wh_words=frozenset(raw["wh_words"]), which_openers=tuple(raw["which_openers"]),
        which_anywhere=tuple(raw["which_anywhere"]), how_to_openers=tuple(raw["how_to_openers"]),
        verdict_phrases=tuple(raw["verdict_phrases"]), summary_verbs=tuple(raw["summary_verbs"]), recommend_openers=tuple(raw["recommend_openers"]),
        recommend_anywhere=tuple(raw["recommend_anywhere"]), write_verbs=frozenset(raw["write_verbs"]),
        write_objects=tuple(raw["write_objects"]), write_commands=tuple(raw["write_commands"]),
        imperative_verbs=frozenset(raw["imperative_verbs"]) | frozenset(raw["write_verbs"]),
        confirm_words=frozenset(raw["confirm_words"]), confirm_starts=tuple(raw["confirm_starts"]),
        decline_starts=tuple(raw["decline_starts"]), fleet_words=tuple(raw["fleet_words"]),
        plural_back_references=tuple(raw["plural_back_references"]), others_phrases=tuple(raw["others_phrases"]),
        others_followers_ok=tuple(raw["others_followers_ok"]), context_openers=tuple(raw["context_openers"]),
        alternative_exclusions=tuple(raw["alternative_exclusions"]),
        symptom_words=tuple(raw["symptom_words"]), comparative_words=tuple(raw["comparative_words"]),
    )


@dataclass(frozen=True)
class RequestReading:
    """How one message asks (nothing about what it asks for)."""

    act: SpeechAct
    shape: QuestionShape
    writes: bool  # the user commands a write (a drafted work order): only then may one be made
    fleet: bool  # the message speaks of the site's chillers as a set ("which units worry you?")
    others: bool  # "the others", "the rest": the site's chillers except those just discussed
    symptom: bool  # the message states something is off ("can't hold setpoint", "flow is down")
    comparative: bool  # the message compares ("was it better than...?")
    preview: bool  # "what would the work order say?": the record shown, not written
    asks_cause: bool  # "what's pushing its power up?", "what explains the difference?": a cause is asked
    asks_change: bool  # "is it getting worse?", "still sliding?": whether something keeps changing over time
    clause: str  # the asking clause the shape was read from (normalised), for tests and notes


def _clauses(message: str) -> list[str]:
    parts = [p.strip() for p in _SENTENCE_END.split(message) if p and p.strip()]
    return parts or [message.strip()]


def asking_clause(message: str) -> str:
    """The clause that carries the request: the last question, else the last clause with an imperative
    or wh-word, else the last clause ("We're closing Q3. How did Chiller 4 run in August?" -> the second)."""
    clauses = _clauses(message)
    questions = [c for c in clauses if c.rstrip().endswith("?")]
    chosen = questions[-1] if questions else clauses[-1]
    # ("if the crew can only get to one condenser this month, whose should it be?": the condition sets the scene)
    condition = _LEADING_CONDITION.match(chosen)
    return chosen[condition.end():] if condition is not None else chosen


# "there was a WO on it early august, did that sort the flow out?": a statement, then the yes/no asked of it
_LEADING_STATEMENT = re.compile(r"^\s*(?!(?:what|which|who|whose|when|where|why|how|is|are|was|were|do|does|did|has|have|had|"
                                r"can|could|should|would|will)\b)[^,?]{3,160},\s*"
                                r"(?=(?:did|does|do|is|are|was|were|has|have|had|can|could|should|would|will)\s+"
                                r"(?:that|it|this|they|those|these|we|the|#?\d+|chiller|ch)\b)", re.IGNORECASE)
_LEADING_CONDITION = re.compile(r"^\s*(?:(?:so|ok|okay|and|but)[,]?\s+)?(?:if|when|while|once|given|assuming|supposing|"
                                r"since)\b[^,?]{3,160},\s*"
                                r"(?=(?:which|whose|who|what|where|when|how|should|would|could|can|is|are|was|were|do|"
                                r"does|did|will|shall)\b)", re.IGNORECASE)


_ASKS_SOMETHING = re.compile(r"\b(?:please|pls|plz|need|want|can you|could you|would you|let me know|i'd like)\b")


def states_then_asks(message: str, g: Grammar | None = None) -> bool:
    """The message states things and then asks one question ("Chiller 6 has been running hot since spring. Was its
    condenser return higher than in June 2019?"): every clause but the last question is a statement, none a
    question, an instruction ("draft a WO for it.") or a request ("I need ...")."""
    g = g or grammar()
    clauses = _clauses(message)
    if len(clauses) < 2 or not clauses[-1].rstrip().endswith("?"):
        return False
    return _all_statements(clauses[:-1], g)


def _all_statements(clauses: list[str], g: Grammar) -> bool:
    """Every clause states something: none a question, an instruction ("draft a WO for it."), a request ("I need
    ...") or a topic head ("chiller 4 alerts:")."""
    for clause in clauses:
        opening = _opening(Text.of(clause).tokens, g.fillers)
        if clause.rstrip().endswith("?") or not opening or opening[0] in g.imperative_verbs \
                or _ASKS_SOMETHING.search(Text.of(clause).joined) or _TOPIC_HEAD.fullmatch(clause.strip()):
            return False
    return True


def scene_before_question(message: str, g: Grammar | None = None) -> str | None:
    """The message without the statements that open it, when a question follows them ("handover from nights. which
    chiller was off its normal last month? look at power and kw/ton" -> from "which" on); None when it opens with no
    statement or asks no question after one. The statements set the occasion; what is asked is the rest."""
    g = g or grammar()
    clauses = _clauses(message)
    first_question = next((i for i, c in enumerate(clauses) if c.rstrip().endswith("?")), None)
    if not first_question or not _all_statements(clauses[:first_question], g):
        return None
    return " ".join(clauses[first_question:])


# "chiller 4 alerts: Q1 vs Q4 last year?": a few words and a colon name the topic the question is about; they
# state nothing
_TOPIC_HEAD = re.compile(r"(?:[\w#/'-]+\s+){0,3}[\w#/'-]+\s*:")


# "..., not sure if it's the chiller, anyway what was the supply temp on 9 in june?": the turn to the question.
_TURN_TO_QUESTION = re.compile(r"(?:^|[,;:]\s*|\s-\s*)(?:anyway|anyhow|so|but|ok|okay|alright|right|regardless)[,]?\s+"
                               r"(?=(?:what|what's|whats|which|how|why|when|where|who|is|are|was|were|do|does|did|can|"
                               r"could|should|would|has|have)\b)", re.IGNORECASE)


def asked_question(message: str) -> str:
    """The question itself: the asking clause from its last turn to a question ("anyway what was ...?"), so the
    periods of the rambling before it stay context."""
    clause = asking_clause(message)
    turns = list(_TURN_TO_QUESTION.finditer(clause))
    return clause[turns[-1].end():] if turns and turns[-1].end() < len(clause) else clause


# Where a message asks a second question: after a question mark, or at ", and" / "; also" before a wh-word or an
# auxiliary ("What's behind it, and is there anything we should rule out?").
_SECOND_QUESTION = re.compile(
    r"(?<=\?)\s+(?=\S)|[,;]\s*(?:and|but|also|plus|then)\s+(?=(?:what|what's|whats|which|how|why|when|where|who|is|"
    r"are|was|were|do|does|did|can|could|should|would|will|has|have|any)\b)|"
    # "how many alerts it raised, and its average load": a statistic asked beside the question
    r"[,;]\s*(?:and|plus|also)\s+(?=(?:(?:its|their|the|his|her)\s+)?(?:avg|average|mean|median|peak|max|maximum|"
    r"min|minimum|typical)\b)", re.IGNORECASE)


def question_parts(message: str) -> list[str]:
    """The questions a message asks, in order ("what caused it, and how do we know it's fixed?" -> two);
    one part when it asks one. Statements before the first question stay with it as its context."""
    # ("ran hot in aug? y/n" asks one question: the tag after its mark belongs to it)
    parts = [p.strip() for p in _SECOND_QUESTION.split(_tag_joined(message).strip()) if p and p.strip()]
    return parts if len(parts) > 1 else [message]


def request_sentences(message: str, g: Grammar | None = None) -> str:
    """The message without its context sentences ("We're closing Q3 2020. How did Chiller 4 run in
    August?" -> the question): where the request's intents and period are read. The whole message when
    every sentence is context or there is only one."""
    g = g or grammar()
    clauses = _clauses(message)
    if len(clauses) < 2:
        return message
    kept = [c for c in clauses if not _is_context(c, g)]
    return " ".join(kept) if kept and len(kept) < len(clauses) else message


def _is_context(clause: str, g: Grammar) -> bool:
    """A sentence that sets the scene rather than asks: it opens with a subject pronoun or a lead-in ("we're
    closing Q3", "for the May report:"), or it is a statement opening with a gerund, the user's activity
    with its subject left out ("Doing the Q2 wrap-up for the energy report.")."""
    tokens = Text.of(clause).tokens
    opening = _opening(tokens, g.fillers)
    if _starts(opening, g.context_openers):
        # ("I haven't got a unit in mind, so please look across the whole site ...": a scene, then a request)
        asked = _PLEASE_DO.search(" ".join(tokens))
        return asked is None or not set(asked.group(1).split()) & g.imperative_verbs
    return (bool(opening) and _GERUND.fullmatch(opening[0]) is not None and opening[0] not in g.imperative_verbs
            and not clause.rstrip().endswith("?"))


# "..., so please look across the site": a request made inside a sentence that opened as a statement
_PLEASE_DO = re.compile(r"\b(?:please|pls|plz) ((?:\w+ ){0,1}\w+)")
_GERUND = re.compile(r"(?:[a-z]{3,}|do|go|be|us)(?<!th)ing")  # "doing", "prepping"; not "bring" or "something"


# A topic set before the question ("for 9, is that all one rule?", "on chiller 6 did it trip?"): the question
# that follows decides the shape.
_FRONTED_TOPIC = re.compile(r"^(?:as for|for|on|about|regarding|re) (?:chiller \d+|#?\d{1,3}|cwc\d+|that one|this one|"
                            r"the (?:other|first|second|worst|top) one) (?=\S)|"
                            # "of the ones with data, which ...": the set a pick is made from, before the question
                            r"^(?:of|out of|among|amongst|between) (?:\S+ ){1,5}?(?=(?:which|who|what)\b)|"
                            # "over the same months last year, was it also the noisiest?": the period, then the question
                            # ("across all of them, which had the most corrective WOs?": the scope, then the pick)
                            r"^(?:over|during|across|throughout|within|site-wide|plant-wide) "
                            r"(?:(?!(?:how|what|which|why|when|where|who)\b)\S+ ){1,5}?"
                            r"(?=(?:was|is|were|are|did|does|has|had|which|who)\b)|"
                            # "looking at september now, is the flow back ...?", "going by those counts, is it ...?":
                            # a participle setting the angle, then the question
                            r"^(?:looking|going|judging|based|using|taking|comparing|given|now that) "
                            r"(?:(?!(?:how|what|which|why|when|where|who)\b)\S+ ){1,6}?"
                            r"(?=(?:was|is|were|are|did|does|do|has|have|had|which|who|what|how)\b)")


def _opening(tokens: tuple[str, ...], fillers: frozenset[str]) -> tuple[str, ...]:
    start = 0
    while start < len(tokens) and tokens[start] in fillers:
        start += 1
    topic = _FRONTED_TOPIC.match(" ".join(tokens[start:]))
    if topic is not None:
        start += len(topic.group(0).split())
        while start < len(tokens) and tokens[start] in fillers:
            start += 1
    return tokens[start:]


def _starts(tokens: tuple[str, ...], phrases: tuple[str, ...]) -> bool:
    joined = " ".join(tokens)
    return any(joined == p or joined.startswith(p + " ") for p in phrases)


def _has(text: Text, phrases: tuple[str, ...]) -> bool:
    return any(text.contains(p) for p in phrases)


def held_up_for_checking(clause: str) -> bool:
    """Whether the asking clause ends in a question tag that puts a claim up for checking ("..., right?", "agree?",
    "wasnt it?"): the grammar's own `yes_no_tails`."""
    said = f" {Text.of(clause).joined}"
    return any(said.endswith(f" {tail}") for tail in grammar().yes_no_tails)


# "what should the crew check first?", "what do we need to inspect?": asking for steps is a procedure.
_WHAT_STEPS = re.compile(r"^(?:what|where) (?:should|do|does|must|would|shall|needs? to|has to) (?:\S+ ){0,4}?"
                         r"(?:check|inspect|look at|look for|verify|test|examine|measure|bring|replace|start with)\b")


# "where do I start?", "where should we look first?": asking where to begin is asking for a pick.
_WHERE_TO_BEGIN = re.compile(r"\bwhere (?:do|should|would|can|shall|to) (?:(?:i|we|you|they|the \w+) )?(?:\w+ )?"
                             r"(?:start|begin|look|go first|head first|go to first|focus)\b")
def asks_where_to_begin(text: str) -> bool:
    """"Where do I even begin?", "where should the crew go first?": a pick of what to deal with first."""
    return bool(_WHERE_TO_BEGIN.search(text))


# A quantifier over the site's chillers ("one of our chillers", "any unit", "every chiller", "none of the units").
_QUANTIFIED_ASSETS = re.compile(r"\b(?:one|any|none|some|all|each|every|either|neither|which)\s+"
                                r"(?:of\s+(?:our|the)\s+)?(?:chillers?|units?|machines?)\b")
# A degree pointing at another case ("was it this bad", "as high as", "that often"): a comparison.
# "up or down vs 2019?", "better or worse than last summer?": a choice between two directions of change.
_DIRECTION = r"(?:up|down|higher|lower|more|less|fewer|better|worse|increas\w*|decreas\w*|ris\w*|fall\w*|improv\w*)"
DIRECTION_CHOICE = re.compile(rf"\b({_DIRECTION})\s+or\s+({_DIRECTION})\b", re.I)
# The end of a ranking a pick or a reference asks for: "which ran more efficiently?" (good), "the worse one" (bad).
_GOOD_END = re.compile(r"\b(?:better|best|(?:more|most) efficient\w*|healthier|healthiest|stronger|strongest|"
                       r"(?:more|most) (?:cooling|tons?|tonnage) per (?:kw|kilowatt))\b")
_BAD_END = re.compile(r"\b(?:worse|worst|(?:less|least) efficient\w*|inefficient|weaker|weakest|unhealthier)\b")


def ranking_end(text: str) -> str | None:
    """"good" or "bad": which end of a ranking the normalised `text` asks for (None: neither or both)."""
    good, bad = bool(_GOOD_END.search(text)), bool(_BAD_END.search(text))
    return "good" if good and not bad else "bad" if bad and not good else None


# "which one puts out more tons?" then "the smaller one": a pick by size, not by merit
_HIGH_END = re.compile(r"\b(?:more|most|bigger|biggest|larger|largest|higher|highest|greater|greatest|heavier|"
                       r"heaviest|busier|busiest)\b")
_LOW_END = re.compile(r"\b(?:less|least|fewer|fewest|smaller|smallest|lower|lowest|lighter|lightest|quieter|"
                      r"quietest)\b")


def pick_end(text: str) -> str | None:
    """Which end of a ranking the normalised `text` picks: "good" or "bad" (`ranking_end`), else by size, "high"
    or "low" (None: neither or both)."""
    merit = ranking_end(text)
    if merit is not None:
        return merit
    high, low = bool(_HIGH_END.search(text)), bool(_LOW_END.search(text))
    return "high" if high and not low else "low" if low and not high else None


# Tuning an alarm ("is it worth loosening the cycling alarm?", "should we raise the load low limit?"): a verb that moves
# a limit and the alarm or limit it moves ("raise" and "lower" only of a limit: "did it raise any alarms?" counts them).
ALARM_TUNING = re.compile(
    r"\b(?:tighten\w*|loosen\w*|relax\w*|widen\w*|narrow\w*|re-?tun\w*|adjust\w*|desensiti[sz]\w*|silenc\w*|"
    r"suppress\w*|mut(?:e|ing))\b(?: [\w-]+){0,4}? (?:thresholds?|limits?|alarms?|alerts?|rules?|setpoints?|bands?)\b|"
    r"\b(?:raise|raising|lower|lowering|bump\w*|chang\w*|mov(?:e|ing)|tun(?:e|ing)|shift\w*)\b(?: [\w-]+){0,4}? "
    r"(?:thresholds?|limits?|setpoints?|trip points?|bands?)\b|"
    # "should i just silence those?" after alerts were listed: only alarms are silenced
    r"\b(?:silenc\w*|suppress\w*|mut(?:e|ing)|snooz\w*|shelv\w*) (?:all )?(?:those|these|them|it)\b")
# "how many a year?", "how often a month does it fire?": a count asked per calendar unit (the unit is the group).
COUNT_A_PERIOD = r"\bhow (?:many|often)\b(?: [\w-]+){0,3}? an? (month|quarter|year)\b"
# "in each of those two years", "for each of the three months": the span split into the units it is made of.
EACH_OF_THE_PERIODS = r"\beach of (?:the |those |these )?(?:(?:two|three|four|five|six|\d+) )?(month|quarter|year)s\b"
# A month as written, short or long ("sept", "June"); "may" only as itself (not "maybe"). For patterns over text.
MONTH_WORD = r"(?:(?:jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec)[a-z]*|may)"
# "of those three Augusts, which one ...", "which of the two months": a pick among the periods the dialog set side by
# side (answered on their figures, not by a ranking of chillers)
PERIODS_PICKED_AMONG = re.compile(rf"\b(?:those|these|the|both|all) (?:two|three|four|five|2|3|4|5) (?:months|weeks|years|"
                                  rf"quarters|seasons|summers|winters|periods|windows|{MONTH_WORD}s)\b", re.I)
# "off its normal", "not its usual self", "unusual for it": a chiller judged against its own past, not the site
OFF_ITS_NORMAL = re.compile(r"\boff (?:its|their) (?:normal|usual|baseline)\b|\b(?:not|unlike) (?:its|their) usual\b|"
                            r"\bunusual for (?:it|them)\b|\bout of character\b", re.I)
# "which summer was worse?", "which of the two months", "which quarter": a pick among periods, not among chillers
PERIOD_PICKED = re.compile(r"\bwhich (?:of (?:the|those|these|both) )?(?:two |\d )?(?:months?|periods?|weeks?|years?|"
                           r"quarters?|seasons?|summers?|winters?|springs?|autumns?|windows?|stretch(?:es)?|spans?)\b",
                           re.I)
# "which of the two went up more?", "whose flow dropped the most?": a pick on how far a reading moved (the planner and
# the answer read it alike)
MOVED_MORE = re.compile(r"\b(?:went|gone|go|goes|moved|rose|risen|climbed|jumped|increased|grew|dropped|fell|fallen|"
                        r"decreased|changed|shifted|slipped)(?: up| down)? (?:the )?(?:more|most|less|least|further|"
                        r"furthest)\b", re.I)
# "is that up on May?", "down on last year": set against a period, the way a figure is said to have moved.
UP_OR_DOWN_ON = re.compile(rf"(?<!follow )\b(?:up|down) on (?=(?:last|the|that|this|same|previous|{MONTH_WORD}|q[1-4]|"
                           r"(?:19|20)\d\d|a year)\b)(?!the \d)")
_DEGREE_COMPARISON = re.compile(r"\b(?:this|that|as|so)\s+(?:bad|good|high|low|poor|much|many|few|often|hot|"
                                r"efficient|inefficient|frequent|noisy|busy)\b")


# "worse y/n", "any better?", "was it worse?": a comparative alone, of what the dialog just set side by side.
# ("so it's worse now, y/n": the same, said as a claim to confirm)
BARE_COMPARATIVE = re.compile(r"^(?:so |and |ok )?(?:is it |was it |it is |it's |it was |it |is that |was that |that is |"
                              r"that's |that was )?(?:any |even |actually |really )?(?:worse|better|higher|lower)"
                              r"(?: now| then| overall| though| this time)?\b"
                              r"(?:\s*,?\s*(?:y/n|yes or no|then|right|or not))?\s*\??\s*$", re.IGNORECASE)
# "was it the same unit last year?", "same chiller on top in 2019?": the last pick asked again over another period.
SAME_ONE = re.compile(r"\b(?:the )?same (?:one|unit|chiller|machine|equipment|asset)\b|"
                      # "was 6 also on top a year earlier?", "still the worst in May?": the pick made again
                      r"\b(?:also|still)\b(?: \w+)?? (?:on top|at the top|top|first|number one|the (?:top|highest|"
                      r"worst|best|biggest|busiest|leader|lowest))\b|\b(?:on top|top|first) again\b")
# "and last year? same ranking or diff", "is the picture the same in june?": whether the last answer's result holds
# for another period, which is that answer again over it
SAME_RESULT = re.compile(r"\bsame (?:ranking|rankings|order|standings|pecking order|picture|pattern|story|leaders?|"
                         r"top (?:one|two|three|few|\d+)|result|results|outcome)\b|"
                         r"\b(?:ranking|order|standings|picture|pattern|story|result|outcome) (?:the )?same\b")
# "Don't file anything yet - just tell me ...": a negative imperative, not a yes/no question.
_NEGATIVE_IMPERATIVE = ("don't", "do not", "dont", "never")
# "what would the work order say?", "show me what the draft would look like": a record shown, not written.
_PREVIEW = re.compile(r"\b(?:work orders?|ticket|draft|order|request)\b(?: \S+){0,3} (?:would|will|might|should) "
                      r"(?:say|look like|contain|include|read|cover|list|show)\b")


# "what" as the subject of a verb acting on the thing discussed asks what causes it ("what's pushing its
# power up?", "what is dragging it down", "what explains the gap", "what's behind it", "why that one?" but not
# "why not wait?"); "what's going on"
# and "what is happening" ask what is, not why.
_CAUSE_QUESTION = re.compile(r"^(?:so |and |then |but |ok |okay )*why\b(?! (?:not|should|would|bother)\b)|"
                             r"^(?:so |and |then |ok |okay )*(?:what|which) (?:(?:is|was|could be|might be|else is|"
                             r"do you think is) )?(?!going\b|happening\b|happened\b|up\b)(?:\w+ing|explains?|"
                             r"drives?|drove|made|makes|pushed|pushes|caused|triggered|started|behind|"
                             # "so what tripped it?", "what knocked it out?": the event's cause, as its subject
                             r"tripped|killed|knocked|stopped|shut)\b"
                             r"(?! (?:on|at|for|with|to)\b)|"
                             # "what failure mode is behind those?", "which fault was causing it": the actual cause
                             r"^(?:so |and |then |ok |okay )*(?:what|which) (?:failure modes?|faults?|problems?|"
                             r"issues?|causes?|components?|parts?) (?:is|are|was|were) (?:behind|causing|driving|"
                             r"responsible)\b|"
                             # "what would push kW/ton up like that?", "what could make the approach widen?": a modal
                             # and a verb of causing in its base form
                             r"^(?:so |and |then |ok |okay )*what (?:else )?(?:would|could|might|can|may|does|did|will)"
                             r" (?:\w+ )?(?:cause|push|drive|make|send|explain|trigger|bring|lead to|result in|knock|"
                             r"pull|drag|throw|set off|kick off)\b|"
                             # "what's the likely mechanical reason it's slipping?": the cause asked for by its noun
                             r"^(?:so |and |then |ok |okay )*what(?:s| is| was| would be| could be| might be)? "
                             r"(?:the |a )?(?:\w+ ){0,2}(?:reasons?|causes?|culprits?|explanations?)\b"
                             r"(?! (?:codes?|data|fields?|columns?)\b)|"
                             # "what does frequent cycling usually point to?": what a symptom is a sign of
                             r"\bwhat (?:does|do|would|could|might|can) .{0,60}?\b(?:point(?:s|ing)? to|be a sign of|"
                             r"be a symptom of|(?:usually|typically|normally) (?:mean|indicate))\b|"
                             # "is there a fault behind the drop in its efficiency?": whether a cause lies behind it
                             r"^(?:so |and |then |ok |okay )*(?:is|was|are|were) there (?:a |any |some )?(?:real |actual )?"
                             r"(?:fault|problem|issue|failure|defect|cause)s? (?:behind|causing|driving|underneath)\b|"
                             # "is that just the warmer weather, or is something actually off with it?": a fault, or not
                             r"\bor (?:is |was |are )?(?:there )?(?:something|anything) (?:actually |really |else )?"
                             r"(?:off|wrong|going on|amiss|failing)\b|"
                             # "..., any idea why?", "do you know why it dropped?": an embedded or closing "why"
                             r"\b(?:idea|know|tell|explain|guess|clue|theory|theories|thoughts?|sense)(?: (?:on|as to))? "
                             r"why\b(?! (?:not|should|would|bother)\b)|\bwhy\s*\?*$|"
                             # "any idea what might be causing this?": an embedded "what is causing"
                             r"\b(?:idea|know|tell|guess|clue|theory|theories|thoughts?|sense)(?: (?:on|as to))? what "
                             r"(?:(?:else )?(?:is|was|could be|might be|would be|may be) )?(?:causing|behind|driving|"
                             r"triggering)\b")


# "That climb last week - what was it?": asking what a symptom was is asking what caused it.
# ("what was it pulling in kw?" asks a figure: the pronoun is the subject of another verb, not the thing asked about)
_WHAT_WAS_IT = re.compile(r"\bwhat (?:was|is|were|are) (?:it|that|this|those|these)\b(?!\s+[a-z]+ing\b)")


# "so flow was dropping": a move in the past, put up about what the dialog just set side by side
# A reading on the move, in the progressive ("dropping", "creeping up")
_MOVING = (r"(?:dropping|falling|rising|climbing|creeping(?: up| down)?|sliding|sinking|slipping|widening|narrowing|"
           r"declining|increasing|decreasing|going (?:up|down)|getting (?:worse|better))")
PAST_MOVE = re.compile(r"\b(?:was|were) (?:\w+ ){0,3}?" + _MOVING + r"\b")


# "more power than they should", "hotter than expected": measured against what is normal for it, not another chiller
THAN_EXPECTED = re.compile(r"\bthan (?:it|they|we|i|you|one)? ?(?:should|ought|would expect|expected|expect|normal|usual|"
                           r"design|spec)\b")


# Change over time: a verb of becoming with a comparative ("getting worse", "grown better"), a progressive of
# degrading or recovering ("worsening", "improving"), or a continuing move ("still sliding", "keeps climbing").
_CHANGE_OVER_TIME = re.compile(
    r"\b(?:get|gets|getting|gotten|got|growing|grown|becoming|become|going|turning) (?:any |much |even )?(?:worse|better)\b|"
    r"\b(?:worsening|deteriorating|improving|recovering|progressing|escalating|going downhill)\b|"
    r"\b(?:still|keeps?|keeping|continu\w+ to|continu\w+) (?:on )?(?:getting |going )?(?:climbing|rising|growing|falling|"
    r"dropping|sliding|widening|drifting|creeping|sinking|slipping|worse|up|down)\b|"
    r"\btrending (?:up|down|worse|better)\b|"
    # "so its trending the wrong way?", "heading in the right direction?": a way of going that is good or bad
    r"\b(?:trending|heading|headed|going|moving|tracking) (?:in )?(?:the )?(?:wrong|right|bad|good) (?:way|direction)\b|"
    # "has its evap temp been dropping this summer?", "is the approach widening?": a move in progress
    r"\b(?:been|is|are) (?:\w+ ){0,6}?" + _MOVING + r"\b|"
    # with the auxiliary left out: "chw supply temp creeping up too?", "approach widening again?"
    r"\b(?:creeping|drifting|trending|climbing|rising|falling|dropping|sliding|sinking|slipping|declining|widening|"
    r"narrowing) (?:up|down|higher|lower|too|again|as well|also|lately|still|\?)", re.IGNORECASE)


# "those two quarters", "both periods", "across the two years": the last two periods of the dialog.
_BOTH_PERIODS = re.compile(r"\b(?:(?:those|these|the|both)(?: two| 2)?|(?:the )?same (?:two|2)) (?:periods|quarters|months|years|weeks|windows|"
                           r"seasons|summers|winters|stretches|spans|ranges|"
                           # a month named twice: "those two junes", "both mays"
                           r"(?:januar|februar|jul)(?:ys|ies)|(?:march|august)(?:e?s)|(?:april|may|june|september|"
                           r"october|november|december)s)\b|\bboth (?:of )?(?:those|these|them|periods)\b")


# The last request again on something else: "same comparison for chiller 3", "do the same for 6", "same again".
# ("is that the same thing chiller 9 had?" is a likeness, not a repeat: a repeat says what it is done for)
_REPEAT = re.compile(r"\b(?:same (?:\w+ )?(?:comparison|thing|check|breakdown|numbers|exercise|analysis)(?: again)? (?:for|on|with)|"
                     r"same again|do the same|ditto)\b|"
                     # "same for the return", "and the same with 9": a message that opens with it
                     r"^(?:and |ok |so )?(?:the )?same (?:for|with|on)\b")


def asks_repeat(text: str) -> bool:
    """Whether the normalised text asks for the last request again (on what it names)."""
    return bool(_REPEAT.search(text))


# Two things set against each other without a comparative: "any difference", "a change between", "compare".
_DIFFERENCE = re.compile(r"\b(?:differ\w*|chang\w*|compar\w*|vs|versus|shift\w*|jump\w*|same)\b")


def asks_difference(text: str) -> bool:
    """Whether the normalised text asks how two things differ ("was there a change in alarms between ...?")."""
    return bool(_DIFFERENCE.search(text))


# "Real problem or noise?", "a genuine fault or just nuisance?": whether a fault of the machine is behind what was
# seen (an instrument's own drift is asked by "real or the sensor?", a sensor-validity question).
_REAL_OR_NOISE = re.compile(r"\b(?:real|genuine|actual)\b.*\b(?:noise|nuisance|spurious|false|bogus)\b|"
                            # "something to worry about or just noise?", "serious, or nothing?": a concern or not
                            r"\b(?:worry\w*|worried|concern\w*|serious|alarming|bad|actionable|real)\b.*\bor\b"
                            r"(?: \w+){0,3}? "
                            r"(?:noise|nuisance|spurious|nothing|harmless|a false alarm)\b|"
                            # "do those point at an actual problem with the machine?": a fault behind the alarms, or not
                            r"\b(?:point|points|pointing) (?:at|to) (?:an? )?(?:actual|real|genuine) (?:problem|fault|issue)\b|"
                            r"\b(?:actual|real|genuine) (?:problem|fault|issue) with the (?:machine|chiller|unit|equipment)\b",
                            re.IGNORECASE)


# An alternative whose other side is the instrument ("... or is the sensor off?", "or just a bad probe?"):
# whether the reading is real.
_DOUBTS_INSTRUMENT = re.compile(r"\bor\b(?: [\w']+){0,5}? (?:sensor|probe|transmitter|instrument(?:ation)?|gauge)s?\b|"
                                # "is the sensor lying to us or is the water actually warm?": the instrument first
                                r"\b(?:sensor|probe|transmitter|gauge)s? (?:is |was |are )?(?:\w+ ){0,2}?(?:lying|lies|"
                                r"wrong|off|faulty|bad|drifting)\b[^?]*?\bor\b|"
                                r"\b(?:sensor|probe|transmitter|instrument(?:ation)?|gauge)s? or\b|"
                                # "is the anomaly just a sensor problem?", "could that spike be a bad probe?"
                                r"\b(?:is|was|are|were|could|might|can) (?:that|this|it|they|those|these|the \w+)"
                                r"(?: \w+)?(?: be)? (?:just|only|simply|really|merely)(?: be)? (?:a |the |its |their |bad |"
                                r"faulty )*"
                                r"(?:sensor|probe|transmitter|instrument(?:ation)?|gauge|reading|metering)s?\b|"
                                # "the tech reckons its return temp sensor was reading off. was it?": the claim doubts
                                # the instrument
                                r"\b(?:sensor|probe|transmitter|gauge)s?(?: (?!was\b|is\b|were\b|are\b)[\w']+){0,3}? "
                                r"(?:was|is|were|are|has been|had been|have been) "
                                r"(?:reading |showing )?(?:off|wrong|high|low|funny|weird|drifting|out of cal\w*|faulty|"
                                r"bad)\b")


def doubts_instrument(text: str) -> bool:
    """"Is the water that warm, or is the sensor off?", "real problem or is the sensor lying?": whether a reading is
    real or the instrument's doing."""
    return bool(_DOUBTS_INSTRUMENT.search(text))


def asks_real_or_noise(text: str) -> bool:
    """Whether the text asks if what was seen is a real fault or noise."""
    return bool(_REAL_OR_NOISE.search(text))


# "all types", "of any kind", "the most alerts overall", "work orders in total": every record, not only the kind or
# rule the last listing was narrowed to ("how many in total?" with no record named sums the listing it follows)
_EVERY_KIND = re.compile(r"\ball (?:the )?(?:types|kinds|sorts|rules|codes)\b|\b(?:of )?(?:any|every) (?:kind|type|sort|rule)\b|"
                         r"\b(?:alerts?|alarms?|work ?orders?|wos|tickets|jobs)\b(?: \w+){0,4}? (?:overall|in total|in all|"
                         r"altogether|all told|combined)\b|\b(?:total|overall) (?:number of |count of )?(?:alerts?|alarms?|"
                         r"work ?orders?|wos)\b", re.I)


def asks_every_kind(text: str) -> bool:
    """Whether the text asks for every record of its sort, whatever kind or rule the dialog had narrowed to."""
    return bool(_EVERY_KIND.search(text))


# "when did it last trip?", "when was its last trip?", "what was the most recent shutdown?": the date of a stop
# ("what was the load doing when it tripped?" dates something else by the trip: no auxiliary after "when")
_WHEN_TRIPPED = re.compile(r"\bwhen (?:did|has|had|was|is) (?:\w+ ){0,3}?(?:trip|tripped|trips|shut down|go down|went down|"
                           r"went offline)\b|"
                           r"\b(?:last|latest|most recent|previous) (?:trip|shutdown|shut-down)\b", re.I)


def asks_when_tripped(text: str) -> bool:
    """Whether the text asks when a chiller stopped on a trip (the date, not whether or why)."""
    return bool(_WHEN_TRIPPED.search(text))


# "wipe the 2015 work orders off 4", "delete those alerts", "can you purge the old telemetry?": the records changed.
_ERASE_RECORDS = re.compile(r"\b(?:delete|deleting|wipe|wiping|erase|erasing|purge|purging|remove|removing|get rid of|"
                            r"scrub|clear out|clean out)\b(?: [\w-]+){0,5}? "
                            r"(?:work orders?|wos?|alerts?|alarms?|records?|history|telemetry|readings|data|entries|"
                            r"tickets?)\b(?! (?:from|out of) (?:the |this |that |my |your )?(?:analysis|average|"
                            r"comparison|chart|plot|report|summary|calculation)\b)")


def asks_to_erase_records(text: str) -> bool:
    """Whether the normalised text asks to delete or change the site's records (not to leave them out of a figure)."""
    return bool(_ERASE_RECORDS.search(text))


def names_both_periods(text: str) -> bool:
    """Whether the normalised text points at the two periods the dialog discussed last."""
    return bool(_BOTH_PERIODS.search(text))


# How far a result can be trusted ("how confident are you in that number?", "good enough to plan with?").
_RELIABILITY = re.compile(r"\b(?:confiden\w*|accura\w*|reliab\w*|trust\w*|sure|certain\w*|good enough|any good|"
                          r"how good|usable|decent|error|margin|off by|spot on|believe)\b", re.IGNORECASE)


def asks_reliability(text: str) -> bool:
    """Whether the text asks how far a result (a forecast, a figure) can be trusted."""
    return bool(_RELIABILITY.search(text))


def asks_change_over_time(text: str) -> bool:
    """Whether the text asks if something keeps changing ("is it getting worse?", "still sliding?")."""
    return bool(_CHANGE_OVER_TIME.search(text))


# Back in service after a stop: "is it back up now?", "running again?", "has it come back?".
# "is it still down?", "is 9 still off?": whether the stop goes on (a "yes" means not running).
STILL_DOWN = re.compile(r"\b(?:is|are|was) (?:it|they|\w+ \d+|\d+|the (?:chiller|unit|machine)) still (?:down|off|"
                        r"offline|out|tripped|stopped|not running)\b", re.IGNORECASE)
_BACK_IN_SERVICE = re.compile(STILL_DOWN.pattern + r"|"
                              r"\b(?:back (?:up|on|online|in service|running|in operation)|running again|"
                              r"up and running|restarted|come back|came back|coming back|"
                              # "has it run again since?", "did it restart at all?" (not "how do I restart it?")
                              r"(?:run|ran|started|start|fired up|kicked on) again|(?:did|has) (?:it|they) restart|"
                              r"(?:running|on|online|in service) (?:right )?now|currently (?:running|on|online))\b",
                              re.IGNORECASE)


# "is its evaporator fouling up?", "is it running hot these days?": the chiller's state now, in the present tense
# (a period discussed long ago is not what such a question is about; "was it fouling?" would be)
_ABOUT_NOW = re.compile(r"^(?:\w+ ){0,3}?(?:is|are|isn't|aren't) (?:it|its|the|this|that|they|their|chiller \d+|ch ?\d+|#?\d+)"
                        r"\b(?: \w+){0,3}? (?<!worth )(?!being\b)[a-z]{3,}(?<!th)ing\b|\b(?:right now|currently|at the moment|these days|"
                        r"nowadays|as of today|as we speak)\b")


def asks_about_now(text: str) -> bool:
    """True for a question about the chiller's state now ("is its evaporator fouling up?", "what's it doing these
    days?"), not about a period ("was it fouling in May?", "is it still down?" is the stop's own question)."""
    return bool(_ABOUT_NOW.search(text)) and not STILL_DOWN.search(text)


# "do we have any sensor data on that one?", "is there telemetry for 12?", "does 13 log any readings?": whether
# readings exist for a chiller at all (some have only work orders)
_DATA_AVAILABLE = re.compile(
    r"^(?:\w+ )?(?:do|does|did|have|has|can) (?:we|you|i|it|they|that one|this one|the site|chiller \d+|ch ?\d+|#?\d+) "
    r"(?:even |actually |still )?(?:have|has|get|got|log|logs|record|records|collect|keep|store|report|pull|see)\b"
    r"(?: \w+){0,3}? (?:sensor data|data|telemetry|readings?|sensors?|signals?|points?|bms data|bas data|"
    r"trend logs?)\b|"
    r"^(?:\w+ )?(?:is|are) there (?:any |some )?(?:sensor data|data|telemetry|readings?|sensors?|trends?|trend logs?)\b")


def asks_data_available(text: str) -> bool:
    """True for a question whether a chiller has readings at all ("do we have any sensor data on that one?")."""
    return bool(_DATA_AVAILABLE.search(text))


# "when did we sort that out?", "did anyone ever fix it?", "has maintenance dealt with it?": whether (and when) the
# problem found was dealt with, asked with the verb in any form
_RESOLVED = re.compile(r"\b(?:did|have|has|had)\s+(?:we|they|you|anyone|someone|somebody|maintenance|the crew|the techs?|"
                       r"ops)\s+(?:ever\s+|already\s+|actually\s+|even\s+|finally\s+)?(?:fix(?:ed)?|sort(?:ed)?\b(?: \w+){0,2}? "
                       r"out|repair(?:ed)?|resolve[d]?|deal(?:t)? with|address(?:ed)?|take care of|taken care of|clear(?:ed)?|"
                       # "did we do anything about it back then?"
                       r"do(?:ne)? (?:anything|something|much) (?:about|for|with)|act(?:ed)? on|"
                       # "has anyone already put a job in for it?", "did someone raise a ticket on that?": an order
                       # that deals with it, already on file
                       r"(?:put|raise[d]?|open(?:ed)?|log(?:ged)?|submit(?:ted)?|create[d]?|file[d]?|book(?:ed)?)"
                       r"(?: (?:in|up))? (?:a|an|any) (?:[\w-]+ )?(?:job|work order|wo|ticket|request|order)s?"
                       r"(?: in)? (?:for|on|about) (?:it|that|this|them|those))\b|"
                       r"\b(?:is|are) there (?:already )?(?:a|an|any) (?:[\w-]+ )?(?:job|work order|wo|ticket|request)s? "
                       r"(?:in |open |raised |logged |on file )?(?:for|on|about) (?:it|that|this|them|those)\b|"
                       # "was it fixed, and when?", "has that been sorted?", "did the fouling ever get dealt with?"
                       r"\b(?:was|were|has|have|had|did|is)\s+(?:it|that|this|they|those|the (?:problem|issue|fault|"
                       r"fouling|leak|trip))\s+(?:ever\s+|already\s+|actually\s+|finally\s+)?(?:been\s+|get\s+|got\s+)?"
                       r"(?:fixed|sorted(?: out)?|repaired|resolved|dealt with|addressed|taken care of|cleared up)\b")


def asks_if_resolved(text: str) -> bool:
    """True for a question whether (or when) the problem found was dealt with ("when did we sort that out?")."""
    return bool(_RESOLVED.search(text))


def asks_back_in_service(text: str) -> bool:
    """Whether the text asks if a chiller is running again after a stop (not a reading back where it was: "has kw/ton
    come back since?")."""
    return bool(_BACK_IN_SERVICE.search(text)) and not BACK_TO_NORMAL.search(text)


# Whether a repair worked: "did that actually fix it?", "did the cleaning help?", "has the repair made a
# difference?" (a passive "was it fixed?" asks whether it was dealt with: the work orders answer that).
_REPAIR_WORKED = re.compile(r"\b(?:did|has|have|had) (?:that|it|this|they|the \w+(?: \w+)?) (?:actually |really |even )?"
                            r"(?:fix|fixed|work|worked|help|helped|solve|solved|cure|cured|do the trick|done the trick|"
                            r"make a difference|made a difference|sort it|sorted it|"
                            # "did that sort the flow out?"
                            r"sort(?:ed)? (?:it|that|this|them|the [\w-]+(?: [\w-]+)?) out)\b", re.IGNORECASE)


def asks_repair_worked(text: str) -> bool:
    """Whether the text asks if a repair worked ("did the cleaning fix it?") or whether what was found has passed
    ("is it back to normal now?"): both read the time after against the time before."""
    return bool(_REPAIR_WORKED.search(text) or BACK_TO_NORMAL.search(text))


# "is it back to normal now?", "has the flow recovered?", "normal again?": what was found, over since then.
BACK_TO_NORMAL = re.compile(r"\bback to (?:normal|usual|its usual|where it (?:was|should be)|spec|design)\b|"
                             r"\b(?:recovered|recovering|normal again|settled (?:back|down))\b|"
                             # "has the flow come back since then?": a reading, not the chiller, back (where it was)
                             r"\b(?:the|its|their) (?:[\w/]+ ){1,4}?(?:come|came|bounced|gone|went|got) back\b"
                             r"(?! (?:on|online|up|in service|into service))|"
                             # "has kw/ton come back since?": a reading named bare, not the chiller
                             r"\b(?:has|have|did) (?!(?:it|they|chiller|unit|ch|the|its|their)\b|#?\d)(?:[\w/%-]+ ){1,3}?"
                             r"(?:come|came|bounced|gone|got) back\b(?! (?:on|online|up|in service|into service))|"
                             # "it got recalibrated sep 3. looks sane since then?": right again after the work
                             r"\b(?:look|looks|looking|read|reads|reading) (?:sane|ok|okay|right|normal|sensible|"
                             r"plausible|believable|good|fine|healthy) (?:since|now|again)\b", re.IGNORECASE)


def _negative_imperative(opening: tuple[str, ...], clause: Text) -> bool:
    return _starts(opening, _NEGATIVE_IMPERATIVE) and "?" not in clause.tokens


# Acting now against waiting: "clean it now or wait?", "do it now or hold off till the fall?".
_ACT_OR_WAIT = re.compile(r"\bnow or\b|\bor (?:wait|hold off|ride it out|leave it|postpone|defer)\b")


# The consequence of a course of action the asker would take ("what happens if we leave it until September?",
# "what would happen if I keep running it?"): advice on that action.
_CONSEQUENCE = re.compile(r"\bwhat (?:happens|would happen|will happen|if)\b.* (?:we|i)\b")


# An indirect question: what follows the embedding verb is the question asked.
_EMBEDDING = re.compile(r"^(?:(?:do|does|did) (?:you|anyone|anybody|somebody|someone) know|any idea|(?:can|could|would) "
                        r"(?:you|u) (?:tell|let) me(?: know)?|(?:would|do) (?:you|u) mind (?:telling|letting) me"
                        r"(?: know)?|(?:please )?tell me|i wonder|i'm wondering|im wondering|wondering) "
                        r"(?=(?:what|which|why|when|where|who|how|whether|if)\b)")


# "what rule was behind most of them?", "what month had the most alarms?": a noun after "what" and a
# superlative later ask for a pick, like "which rule".
_WHAT_NOUN_MOST = re.compile(r"^what (?!(?:is|was|are|were|do|does|did|can|could|should|would|will|has|have|had|about|"
                             r"if|else|kind|sort|type)\b)[a-z]+(?<!ed) .*\b(?:most|least|biggest|highest|lowest|"
                             r"worst|largest|greatest|main)\b")


# A question ending on a number to pass: "- more than 5?", "over 300 kw?", "under 40%?".
_THRESHOLD_ASKED = re.compile(r"\b(?:(?:more|fewer|less|higher|lower|greater) than|over|above|under|below) "
                              r"\d+(?:\.\d+)?(?: ?[a-z%/]+)? \?$")
_WH_ASKED = re.compile(r"(?:how|which|when|where|why|who|what(?! about\b))\b")
# "... the worst in June?", "... still the most efficient?": a superlative said of the subject, not "the worst one".
_RANK_PREDICATE = re.compile(r"\b(?:the|our) (?:worst|best|least efficient|most efficient)\b"
                             r"(?! (?:one|unit|chiller|machine|of)\b)")


SUBJECT_RANKED = re.compile(r"\b(?:is|was|isn't|wasn't) (?:it|that|this|that one|this one|chiller \d+|#?\d{1,2}) "
                            r"(?:also |still |really |actually )?(?:the|our) (?:worst|best|least efficient|most efficient|"
                            r"highest|lowest|biggest|largest|\w+iest)\b")


def asks_rank_place(text: str) -> bool:
    """Whether the normalised text says a superlative of its subject ("was that the worst in June?")."""
    return bool(_RANK_PREDICATE.search(text) or SUBJECT_RANKED.search(text))


# "worst month?", "and the busiest week?": a pick among the periods of what was just counted
PERIOD_SUPERLATIVE = re.compile(r"^(?:and |so |ok )?(?:the )?(?:worst|best|busiest|quietest|heaviest|peak|noisiest) "
                                r"(?:month|week|quarter|year|day)\b")


# "bottom line, ...", "in short, ...": a lead-in asking for the conclusion, before the question itself
_VERDICT_LEAD_IN = re.compile(r"^(?:so |ok |and )?(?:the )?(?:bottom line|in short|in a nutshell|net net|overall|"
                              r"long story short|tl;?dr)\s*[,:-]?\s*")


# "what's the verdict, is it ...?", "your take - was it ...?": the verdict phrase, then the yes/no it is asked as
_VERDICT_THEN_QUESTION = re.compile(r"\b(?:verdict|bottom line|upshot|conclusion|your take|final answer)\s*(?:then\s*)?"
                                    r"[,:;?-]?\s*")


# "so where are we?", "what have we got so far?", "where does that leave us?": the dialog's own state, asked of
# the findings (a verdict), whatever words follow
_WHERE_WE_ARE = re.compile(r"^(?:so |ok |okay |right |alright |and |well )?(?:where (?:are|do|does|did) (?:we|things|"
                           r"that leave us|this leave us|it leave us|it all stand|that all leave us)|what (?:have|do|did)"
                           r" we (?:got|get|have|know|learn|learned)|how are we (?:doing|looking))\b")


# "what do I tell the room?", "condense that into two lines for the shift log", "boil it down for me": the
# findings so far, passed on to someone (a verdict), not another analysis; the verbs are the grammar's
# `summary_verbs` (listed there, so the spelling mender knows them: "condense" stays "condense")
_TOLD_ON = r"^(?:(?:so|ok|okay|right|alright|and)\s+)*what (?:do|should|shall|can|would) (?:i|we) (?:tell|say to|report to|" \
    r"put to|give|write for)\b"
_SUMMED_UP = r"^(?:(?:so|ok|okay|right|alright|and|please|pls|can you|could you)\s+)*(?:{verbs}) (?:that|this|it|all " \
    r"(?:that|this|of (?:that|it))|everything|what we (?:found|have|know))\b"


@lru_cache(maxsize=4)
def _findings_passed_on(verbs: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(f"{_TOLD_ON}|{_SUMMED_UP.format(verbs='|'.join(re.escape(v) for v in verbs))}")


# "anything I need to escalate?", "is there anything we should chase up?": whether anything calls for action, which
# is advice on the evidence, whatever the verb
ACTION_NEEDED = re.compile(r"^(?:\w+ )?(?:is there )?anything (?:we|i|you) (?:should|need to|must|have to|ought to|got to)\b")


# "would you keep patching it up or start budgeting for a replacement?": two courses of action offered to the assistant
# as its own choice, advice (where "would you show me ..." asks for something, and "is it X or Y?" for a pick)
_COURSE_ASKED = re.compile(r"^(?:would|will|do) (?:you|u) (?!(?:show|send|give|pull|list|tell|get|check|run|plot|"
                           r"compare|forecast|find|look|mind|please)\b)\w+")


def read_shape(clause: Text, whole: Text, g: Grammar) -> QuestionShape:
    """The answer shape the asking clause needs (verdict > procedure > recommendation > pick > yes/no)."""
    opening = _opening(clause.tokens, g.fillers)
    embedded = _EMBEDDING.match(" ".join(opening))
    if embedded:  # "do you know why it tripped?" asks why; "any idea if it's back?" asks yes or no
        rest = " ".join(opening)[embedded.end():].split()
        if rest[0] in ("if", "whether"):
            return "yes_no"
        return read_shape(Text.of(" ".join(rest)), whole, g)
    lead_in = _VERDICT_LEAD_IN.match(" ".join(opening))
    if lead_in is not None and _starts(tuple(" ".join(opening)[lead_in.end():].split()), g.yes_no_openers):
        return "yes_no"  # "bottom line, was it in better shape than chiller 6?": the verdict asked is a yes or no
    asked_after = _VERDICT_THEN_QUESTION.search(whole.joined)
    # ("what's the verdict, is the site getting better or worse?": two options offered, the verdict stays a verdict)
    if asked_after is not None and _starts(tuple(whole.joined[asked_after.end():].split()), g.yes_no_openers) \
            and " or " not in whole.joined[asked_after.end():]:
        return "yes_no"  # "so what's the verdict, is it fouling on the tubes?": the verdict asked is a yes or no
    if _has(whole, g.verdict_phrases) or _WHERE_WE_ARE.match(" ".join(opening)) \
            or _findings_passed_on(g.summary_verbs).search(clause.joined):
        # "so what's the verdict, clean it now or wait for the fall?": the verdict asked is a choice of action
        return "recommend" if _ACT_OR_WAIT.search(whole.joined) else "verdict"
    if _starts(opening, g.how_to_openers) or _WHAT_STEPS.match(" ".join(opening)):
        return "how_to"
    if asks_where_to_begin(clause.joined):  # "where should we begin?" is a pick, not advice
        return "which"
    if _WHAT_NAMED_ONE.match(" ".join(opening)):
        # "what's chiller 4's evap temp been averaging?" (the "'s" dropped): the chiller is named, nothing is picked
        opening = opening[:1] + opening[2:]
    if _starts(opening, g.which_openers) or _WHAT_NOUN_MOST.match(" ".join(opening)) \
            or PERIOD_SUPERLATIVE.match(" ".join(opening)):
        return "which"  # "which units should I worry about?", "worst month?" ask for a pick
    if _THRESHOLD_ASKED.search(clause.joined) and not _WH_ASKED.match(" ".join(opening)):
        return "yes_no"  # "what about chiller 4 - more than 5?": whether the figure passes that number
    if _starts(opening, g.yes_no_openers) and (_RANK_PREDICATE.search(clause.joined)
                                              or SUBJECT_RANKED.match(" ".join(opening))):
        # "was that one also the worst in June 2020?", "is it the worst chiller on site for that?": whether it tops
        # the ranking, not a pick
        return "yes_no"
    if _starts(opening, g.recommend_openers) or _has(clause, g.recommend_anywhere) \
            or _CONSEQUENCE.search(clause.joined) or ACTION_NEEDED.match(" ".join(opening)) \
            or (_COURSE_ASKED.match(" ".join(opening)) and _alternative(clause, g)):
        return "recommend"
    # ("real, or am I imagining it?": the other side of that "or" is the claim's own doubt, no choice offered)
    doubted = _has(clause, g.yes_no_tails) or OWN_DOUBT.search(clause.joined) is not None
    if _starts(opening, g.which_openers) or _has(clause, g.which_anywhere) \
            or (_alternative(clause, g) and not doubted):
        return "which"
    if _has(clause, g.confirm_requests):  # checking a claim made: is it so?
        return "yes_no"
    if _starts(opening, g.polite_openers):
        return "open"
    if _negative_imperative(opening, clause):
        return "open"
    if _starts(opening, g.yes_no_openers) or doubted or _elided_yes_no(opening, g):
        return "yes_no"
    return "open"


# "..., or am I reading too much into it?", "or do I have that wrong?", "or is it just us?": the other side of the
# "or" is the asker's own doubt about the claim, not a second option
OWN_DOUBT = re.compile(r"\bor am i\b(?! (?:looking at|seeing|dealing with|facing)\b)|\bor is (?:it|that) (?:just )?(?:me|us)\b|"
                        # ("or are we looking at a sensor problem?" is a second option, not a doubt)
                        r"\bor (?:do|have|did) (?:i|we) (?:have |got |get )?(?:it|that|this) wrong\b")


_PARTICIPLE = re.compile(r"[a-z]{3,}ing")
_WHAT_NAMED_ONE = re.compile(r"what (?:chiller|unit|machine) #?\d")


def _elided_yes_no(opening: tuple[str, ...], g: Grammar) -> bool:
    """A question that leaves its auxiliary out ("[is it] worse than may last yr?", "[are the] rest of them
    ok?", "[is the] chw supply temp creeping up too?"): no wh-word opens it and it says a state, a comparison
    or an ongoing change. A noun phrase alone ("tonnage for the same period?") asks for the figure instead."""
    if not opening or opening[-1] != "?" or any(w in g.wh_words for w in opening):
        return False
    words = opening[:-1]
    # ("[has the] chw supply been running above sp?": a state against a level is a comparison too)
    if any(w in g.state_words or w in ("than", "above", "below") for w in words):
        return True
    if "same" in words and "as" in words[words.index("same"):]:
        return True  # "[was it the] same rule as those?": a likeness to check ("the same period?" asks a figure)
    # "dropping?", "creeping up too": an ongoing change; "forecasting accuracy on that?" is a noun phrase
    return any(_PARTICIPLE.fullmatch(w) is not None and (i + 1 == len(words) or words[i + 1] in _AFTER_PARTICIPLE
                                                         or words[i + 1] in g.state_words)
               for i, w in enumerate(words))


# "yep, go ahead and write that one up": the words that join a yes to the write it names.
_CONFIRM_LINKS = frozenset({"and", "up", "in", "for", "me", "us", "now"})
_AFTER_PARTICIPLE = frozenset({"up", "down", "again", "too", "lately", "still", "away", "anymore", "now", "recently"})


def _alternative(clause: Text, g: Grammar) -> bool:
    """"A or B?" as a question: the answer is one of the two (not "any trips or not?")."""
    tokens = clause.tokens
    if "?" not in tokens or "or" not in tokens or _has(clause, g.alternative_exclusions):
        return False
    at = tokens.index("or")
    before = " ".join(tokens[:at])
    if _EXISTENCE_ASKED.match(before) and not _COMPARATIVE_BEFORE.search(before):
        return False  # "did anyone log a leak check or a top-up?", "has any X or Y work been done?": whether any was
    return 0 < at < len(tokens) - 2 or (at > 0 and tokens[-1] == "?" and at < len(tokens) - 1)


_COMPARATIVE_BEFORE = re.compile(r"\b(?:more|fewer|less|better|worse|higher|lower|most|least|\w+er than)\b")
# A yes/no about whether something happened at all, its subject someone or any ("did anyone ...", "has any ...",
# "did we ..."): "A or B" in it widens what counts, it offers no choice.
_EXISTENCE_ASKED = re.compile(r"^(?:\w+ )?(?:did|has|have|had|was|were) (?:anyone|anybody|someone|somebody|any|we|you|"
                              r"they|the crew|the contractor)\b(?! (?:better|worse|more|less)\b)|"
                              # "any calib or sensor WOs this yr?", "any alarms or trips last week?": whether any was
                              r"^(?:(?:so|ok|and|also)\s+)?(?:are there |were there |is there |was there )?any\b"
                              r"(?! (?:better|worse|more|less|difference)\b)")


def _act(clause: Text, shape: QuestionShape, g: Grammar) -> SpeechAct:
    tokens = clause.tokens
    # "ok" alone acknowledges; "ok, do it" accepts: "ok" is dropped like a filler before reading the reply
    opening = _opening(tokens, g.fillers - {"sure", "yeah", "please", "fine", "good", "great"})
    asks = "?" in tokens and len(tokens) > 3  # "don't you think it's the condenser?" asks, it does not decline
    if opening and _starts(opening, g.decline_starts) and len(tokens) <= _MAX_CONFIRM_TOKENS and not asks:
        return "decline"
    if (opening and _starts(opening, g.confirm_starts) and len(tokens) <= _MAX_CONFIRM_TOKENS
            and all(t in g.confirm_words or t in g.write_objects or t in g.fillers or t == "?"
                    or t in g.write_verbs or t in _CONFIRM_LINKS for t in tokens)):
        return "confirm"
    if tokens and "?" not in tokens and len(tokens) <= _MAX_CONFIRM_TOKENS and all(t in g.acknowledgements for t in tokens) \
            and any(t not in ("ok", "okay", "alright", "right", "fine", "sure") for t in tokens):
        return "acknowledge"  # "thanks, that's helpful", "ok cool": nothing asked (a bare "ok" may accept an offer)
    if opening and "?" not in tokens and (opening[0] in g.imperative_verbs or _negative_imperative(opening, clause)):
        return "command"  # "Raise a work order for the worst one." orders, though it names a pick
    if shape != "open" or "?" in tokens or (opening and opening[0] in g.wh_words):
        return "question"
    return "command"


# A write ruled out: "don't raise anything yet", "do not file it", "never draft", "no need to log a WO", "without
# opening a ticket", "hold off on raising it".
_NEGATED_WRITE = re.compile(r"\b(?:do not|don't|dont|never|no need to|without|hold off on|not yet)\s+(?:\w+\s+)?"
                            r"(?:raise|raising|file|filing|draft|drafting|create|creating|open|opening|log|logging|"
                            r"submit|submitting|write|writing|book|booking|issue|issuing|put in|cut|cutting)\b")


def commands_write(clause: Text, act: SpeechAct, g: Grammar) -> bool:
    """True when the clause orders a record written: an imperative write verb with its object, or a
    write command. Questions about writing ("should we raise a work order?") are not orders."""
    if act not in ("command", "confirm"):
        return False
    if _NEGATED_WRITE.search(clause.joined):
        return False  # "plan the fix but don't raise anything yet": whatever else it asks, nothing is written
    if _has(clause, g.write_commands):
        return True
    tokens = clause.tokens
    for index, token in enumerate(tokens):
        if token in g.write_verbs and not _modifies_a_noun(tokens, index, g):
            rest = " ".join(tokens[index + 1:index + 6])
            if any(f" {obj} " in f" {rest} " for obj in g.write_objects):
                return True
    return False


# Words before a write verb that make it describe the records rather than order one ("list the open work
# orders", "show me all open tickets", "any scheduled jobs?").
_DETERMINERS = frozenset({"the", "all", "any", "my", "our", "those", "these", "its", "their", "of", "some", "no",
                          "every", "each", "still", "currently", "already", "recently", "new", "other"})


def _modifies_a_noun(tokens: tuple[str, ...], index: int, g: Grammar) -> bool:
    """"open" in "list the open work orders" is an adjective: a determiner stands before it, or another
    command verb of the clause ("list", "show") does with no "and"/"then" between them."""
    if index > 0 and tokens[index - 1] in _DETERMINERS:
        return True
    for earlier in reversed(tokens[:index]):
        if earlier in ("and", "then", "also", "please"):
            return False
        if earlier in g.imperative_verbs and earlier not in g.write_verbs:
            return True
    return False


# "track it down on site", "send someone onsite": where the work happens, not the whole site as scope; the
# building's load and a person's title ("the plant manager") are not the site's chillers either.
_SITE_WORD_NOT_SCOPE = re.compile(r"\b(?:to|off) (?:- )?site\b|\bonsite\b|\bsite visit\b|"
                            # "on site" is where work happens ("track down the cause on site", "a tech on-site"),
                            # except after what may be found there ("anything else on site I should know about?")
                            r"(?<!anything )(?<!something )(?<!everything )(?<!nothing )(?<!else )(?<!wrong )"
                            r"(?<!issues )(?<!problems )(?<!on )(?<!happening )\bon (?:- )?site\b|"
                            # "is the building load actually different?": the heat the building asks for, a cause
                            # on the process side, not the building's chillers as a set
                            r"\b(?:the |our |whole |entire )?building (?:load|demand|side|heat load|cooling load)\b|"
                            # "a few lines for the plant manager": a person's title, not the plant as scope
                            r"\b(?:plant|site|facility|facilities|fleet|building|campus) (?:manager|engineer|operator|"
                            r"operators|director|head|lead|supervisor|team|staff|crew|owner|management|ops|"
                            r"people|folks|guys|meeting|review|walk|walkthrough)s?\b")


def _fleet(whole: Text, g: Grammar) -> bool:
    if telemetry_subset(whole.joined) is not None:
        return True  # "of the ones without telemetry, which ...": a side of the site is still the site's set
    if _SITE_WORD_NOT_SCOPE.search(whole.joined):
        whole = Text(tuple(_SITE_WORD_NOT_SCOPE.sub(" ", whole.joined).split()), whole.source)
    if _QUANTIFIED_ASSETS.search(whole.joined):
        return True
    backs = whole.find_longest(g.plural_back_references)
    if backs:
        named = whole.find_longest(g.fleet_words)
        # "did each of our chillers get any, and were any of them ...?": "them" points at the set named before it
        if named and min(m.start for m in named) < min(m.start for m in backs):
            return True
        return any(whole.contains(p) for p in g.fleet_words if p not in ("units", "chillers", "assets", "machines"))
    return any(whole.contains(p) for p in g.fleet_words)


# "the other three", "the other two units", "the remaining 2": a count of the chillers not discussed.
_OTHER_COUNT = re.compile(r"\b(?:the )?(?:other|remaining) (?:two|three|four|five|\d)(?: (?:units?|chillers?|machines?|ones?))?"
                          r"(?! (?:sensors?|readings?|months?|weeks?|days?|years?|periods?|alerts?|rules?|work|"
                          r"orders?|times?|hours?))\b|"
                          # "any other unit throwing that alarm?", "did another chiller trip?": one of the rest
                          r"\b(?:any other|another|any of the other) (?:units?|chillers?|machines?)\b")


def _others(whole: Text, g: Grammar) -> bool:
    """"the others", "the rest of them": the chillers not discussed; "the rest of the sensors" is not."""
    if _OTHER_COUNT.search(whole.joined):
        return True
    for match in whole.find_longest(g.others_phrases):
        following = " ".join(whole.tokens[match.end:match.end + 2])
        after_of = " ".join(whole.tokens[match.end + 1:match.end + 3]) if following.startswith("of ") else ""
        if match.end >= len(whole.tokens) or any(following == f or following.startswith(f + " ")
                                                 for f in g.others_followers_ok):
            return True
        if after_of and any(after_of == f or after_of.startswith(f + " ") for f in g.others_followers_ok):
            return True
    return False


# The job a user writes into the order: "a work order for a full condenser inspection on it", "a WO to
# inspect the compressor and its oil system". Pronouns and picks ("for it", "for the worst one") are not jobs.
_DESCRIBED_WORK = re.compile(r"\b(?:work orders?|wo|ticket|job|request|order)\s+"
                             # ("open a work order on it for a vibration analysis": the chiller said first)
                             r"(?:on\s+(?:it|this|that|them|chiller\s*\d+|ch\s*\d+|#?\d+)\s+)?"
                             r"(?:to|for|-|:|\u2013)\s+(?:an?\s+|the\s+)?"
                             r"(?P<work>.+?)\s*(?:\bon\s+(?:it|this|that|them|chiller\s*\d+|ch\s*\d+|cwc\d+|"
                             r"the\s+\w+)\b.*|,\s*(?:priority|p\d)\b.*|[.?!;]|$)", re.I)
_NOT_A_JOB = re.compile(r"^(?:it|this|that|them|those|these|one|worst|best|chiller|ch\s*\d|unit|#?\d+)\b|"
                        r"\b(?:one|it|them)$", re.I)


def described_work(message: str) -> str | None:
    """The job the user describes for the order ("full condenser inspection"), or None."""
    match = _DESCRIBED_WORK.search(message)
    if match is None:
        return None
    work = match.group("work").strip(" ,")
    work = re.sub(r"\s+(?:please|pls|thanks|asap|now)$", "", work, flags=re.I)
    return work if work and not _NOT_A_JOB.search(work) and len(work) <= 120 else None


# A maintenance job named in advice ("worth taking it down for a condenser tube cleaning?", "pull it offline
# for a leak check", "clean it now or wait?"): up to three part words, then the job.
_JOB_PARTS = r"(?:(?:condenser|evaporator|tube|tubes|coil|coils|refrigerant|leak|oil|sensor|purge|compressor|bearing|" \
             r"valve|full|quick|planned|annual|eddy current)\s+){0,3}"
_JOB = re.compile(rf"\b({_JOB_PARTS}(?:cleaning|inspection|calibration|repair|replacement|overhaul|flush|tune-up|"
                  rf"service|analysis)|(?:leak|oil|pressure|vibration)\s+(?:check|test)|"
                  rf"(?:clean|inspect|calibrate|flush)\s+(?:it|them|the\s+\w+)|"
                  # "was the condenser cleaned out?", "the tubes got cleaned": the job said by its participle
                  rf"(?:cleaned|inspected|calibrated|flushed)(?=\s+out\b|\s*[?.!,]|\s*$))\b", re.IGNORECASE)
_JOB_VERB = {"clean": "cleaning", "inspect": "inspection", "calibrate": "calibration", "flush": "flush",
             "cleaned": "cleaning", "inspected": "inspection", "calibrated": "calibration", "flushed": "flush"}


# The priority given to an order being drafted ("priority 2", "p1", "high priority"): a field of the order, not a
# ranking asked for.
ORDER_PRIORITY = re.compile(r"\bpriority (?P<n>[1-5]|one|two|three|four|five|high|medium|low|urgent)\b|\bp(?P<p>[1-5])\b|"
                            r"\b(?:high|medium|low|top|urgent) priority\b", re.IGNORECASE)
_PRIORITY_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}


def stated_priority(text: str) -> int | None:
    """The order priority the message gives as a number ("priority 2", "p1", "priority two"), else None."""
    match = ORDER_PRIORITY.search(text)
    said = (match.group("n") or match.group("p") or "").lower() if match else ""
    return int(said) if said.isdigit() else _PRIORITY_WORDS.get(said)


# "is it holding its chilled water setpoint?", "did they meet set point?": the supply held against its setpoint
# ("was it actually above setpoint?": a side of the setpoint is the supply against it too)
# The setpoint as typed: written out, split, or shortened ("sp", "spt", "set pt")
SETPOINT_WORD = r"(?:set ?point|set ?pt|sp|spt)"
HOLDS_SETPOINT = re.compile(r"\b(?:hold\w*|held|keep\w*|kept|mak\w*|made|meet\w*|met|hit\w*|at|on|reach\w*|above|over|"
                            r"track\w*|follow\w*|match\w*|stay\w*|stuck|stick\w*|"
                            r"below|under)\b"
                            r"(?: \w+){0,3} (?:its |the |their )?" + SETPOINT_WORD + r"\b", re.I)  # ("holding sp ok?")


def named_job(message: str) -> str | None:
    """The maintenance job a question names ("condenser tube cleaning", "leak check"), a verb phrase read as
    its job ("clean it" -> "cleaning"), or None."""
    match = _JOB.search(message)
    if match is None:
        return None
    job = " ".join(match.group(1).lower().split())
    verb = job.split()[0]
    return _JOB_VERB[verb] if verb in _JOB_VERB and len(job.split()) <= 2 else job


# "so flow was dropping", "so it was mostly off that month": a conclusion drawn from the last answer, put up for
# checking without its question mark
_CONCLUSION_DRAWN = re.compile(r"^(?:ok(?:ay)?|right|hm+|ah)?[,\s]*so,?\s+(?:basically\s+|then\s+)?(?:[\w'/-]+\s+){1,3}?"
                               r"(?:was|were|is|are|has|had|did|does|been|isn't|wasn't|hasn't|didn't)\b", re.I)
_FRAGMENT_TOKENS = 4


_AFTER_LAST_QUESTION = re.compile(r"\?\s*([^?]{1,20}?)\s*[?.!]?\s*$")


def _tag_joined(message: str) -> str:
    """"ran hot in aug? y/n": a closing tag written after the question's mark joins that question ("ran hot in aug
    y/n ?"), so the question is read as the yes or no it asks for."""
    match = _AFTER_LAST_QUESTION.search(message)
    if match is None or not match.group(1).strip():
        return message
    tag = " ".join(Text.of(match.group(1)).tokens)
    if not any(tail.replace(" ?", "").strip() == tag for tail in grammar().yes_no_tails):
        return message
    return f"{message[:match.start()].rstrip()} {match.group(1).strip()} ?"


def _tag_asks(message: str) -> str:
    """The message with the question mark its closing tag implies, when it was left off ("so its getting worse or
    nah", "that was the strainer right"): the tags are the grammar's own `yes_no_tails`."""
    if "?" in message:
        return _tag_joined(message)
    bare = message.rstrip(" .!")
    if held_up_for_checking(bare) or held_up_for_checking(f"{bare} ?") or _CONCLUSION_DRAWN.match(bare):
        return f"{bare} ?"
    tokens = Text.of(bare).tokens
    if 0 < len(tokens) <= _FRAGMENT_TOKENS and tokens[0] not in grammar().imperative_verbs \
            and asks_change_over_time(bare):
        return f"{bare} ?"  # "getting worse", "still dropping": a change put up in a word or two asks whether it holds
    return message


def read_request(message: str, g: Grammar | None = None) -> RequestReading:
    """How `message` asks: act, answer shape, write command, whole-site and "the others" scope."""
    g = g or grammar()
    message = _tag_asks(message)
    whole = Text.of(message)
    asking = asking_clause(message)
    stated = _LEADING_STATEMENT.match(asking)  # ("there was a WO on it in august, did that sort it?": the yes/no)
    clause = Text.of(asking[stated.end():] if stated is not None else asking)
    shape = read_shape(clause, whole, g)
    act = _act(clause, shape, g)
    return RequestReading(act=act, shape=shape, writes=commands_write(clause, act, g), fleet=_fleet(whole, g),
                          others=_others(whole, g), symptom=_has(whole, g.symptom_words),
                          comparative=_has(clause, g.comparative_words) or bool(_DEGREE_COMPARISON.search(clause.joined))
                          or bool(UP_OR_DOWN_ON.search(clause.joined)),
                          preview=bool(_PREVIEW.search(whole.joined)),
                          asks_cause=bool(_CAUSE_QUESTION.search(clause.joined)) or (
                              bool(_WHAT_WAS_IT.search(clause.joined)) and _has(whole, g.symptom_words)),
                          asks_change=asks_change_over_time(clause.joined), clause=clause.joined)


_COUNTS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_BULLETS = re.compile(r"\b(\d|one|two|three|four|five|six)\s+(?:short\s+)?(?:bullets?|bullet points|points|lines|"
                      r"sentences)\b", re.IGNORECASE)


def bullets_asked(question: str) -> int | None:
    """How many bullets the question asks for ("sum it up in three bullets" -> 3), None when it names none."""
    match = _BULLETS.search(question)
    if match is None:
        return None
    word = match.group(1).lower()
    return int(word) if word.isdigit() else _COUNTS[word]


def described_before(message: str) -> bool:
    """A statement comes before the question ("#9 has been pulling more kW for the same load. Is something wrong
    with it?"): the question is about what it describes, not a fresh look."""
    clauses = _clauses(message)
    before = clauses[:clauses.index(asking_clause(message))]  # the asking clause is always one of them
    return any(not c.rstrip().endswith("?") and len(Text.of(c).tokens) >= _MIN_DESCRIPTION for c in before)


_MIN_DESCRIPTION = 4  # "ok." or "hi there." describe nothing


# "did it run at all in march?", "was ch6 running at all last weekend?", "did 4 sit idle all of February?": whether
# the chiller ran in the period (its running share), not an analysis of how it ran
# "so it was mostly off that month", "did it barely run?": whether it sat idle most of the time, a share of it
MOSTLY_IDLE = re.compile(r"\b(?:mostly|largely|mainly|mostly just|pretty much) (?:off|idle|down|offline|shut down)\b"
                         r"(?! (?:to|from)\b)|"  # ("mostly down to the trouble in july": mainly due to it)
                         r"\b(?:off|idle|down) (?:most|much) of (?:the|that|this)\b|\b(?:barely|hardly|rarely) (?:ran|run|running|"
                         r"on|used)\b", re.I)
RAN_AT_ALL = re.compile(r"\b(?:run|ran|running|operated|operating|on|used)\b(?: \w+){0,2}? at all\b|"
                        r"\b(?:sit|sat|sitting|stay|stayed|staying|stood|standing|left|lie|lay|lying) (?:idle|off|"
                        r"unused|offline)\b|\bbeen (?:idle|off)\b|" + MOSTLY_IDLE.pattern, re.I)
# ("sit idle", "stay off", "any chiller that hasn't run at all?": the question asks whether it did not run)
ASKS_IDLE = re.compile(r"\b(?:idle|off|unused|offline)\b|\b(?:hasn'?t|haven'?t|hadn'?t|didn'?t|did not|has not|have not|"
                       r"had not|never|wasn'?t|weren'?t|not)\b(?: \w+){0,2}? (?:run|ran|running|on|operated|been used|"
                       r"used)\b", re.I)


# "the most recent corrective one, and the one before it?", "and the previous one?": the order before the latest
ONE_BEFORE = re.compile(r"\b(?:the )?(?:one|order|job|wo|ticket|visit) (?:before|prior to) (?:it|that|this|that one)\b|"
                        r"\bthe (?:one|order|job|wo|ticket|visit) before\b|\bthe (?:previous|prior) (?:one|order|job|wo|"
                        r"ticket|visit)\b", re.I)
# ("and the one before?" alone: the last question again, for the one before)
ONE_BEFORE_ALONE = re.compile(r"^(?:(?:and|ok|so|what about|how about)\s+)*(?:the )?(?:one|order|job|wo|ticket|visit) "
                              r"(?:before|prior)(?: (?:it|that|this|that one))?\s*\??\s*$|"
                              r"^(?:(?:and|ok|so|what about|how about)\s+)*the (?:previous|prior) (?:one|order|job|wo|"
                              r"ticket|visit)\s*\??\s*$", re.I)


# "when did they happen?", "when was the latest of those?": the dates of the records listed last
WHEN_OF_THOSE = re.compile(r"\bwhen (?:did|do|were|was|have|had) (?:they|those|these|them|the (?:alerts|alarms|ones)|"
                           r"those (?:alerts|alarms|ones)|these (?:alerts|alarms|ones))\b|"
                           # "when was the latest of those?": the dates of the records listed last
                           r"\bwhen (?:was|were|did) the (?:latest|last|most recent|first|earliest)(?: one)? of "
                           r"(?:those|these|them)\b")


# "when did it last run?", "when was the last time ch4 was on?": the latest running sample, not a job's date
# "when did it last fire?", "when was the last time it had one?", "most recent?": the latest of what is asked about
WHEN_LAST = re.compile(r"\bwhen\b.*\b(?:last|latest)\b|\blast time\b|\bmost recent\b", re.I)
LAST_RAN = re.compile(r"\bwhen (?:did|was|were) (?:it|they|that one|ch ?\d+|#\d+|chiller \d+|\d+) (?:last )"
                      r"(?:run|ran|running|on|operat\w*|used|started)\b|\bwhen (?:did|was) (?:it|they|that one|ch ?\d+|"
                      r"#\d+|chiller \d+|\d+) (?:run|running|on|operat\w*) last\b|\blast time (?:it|they|that one|"
                      r"ch ?\d+|#\d+|chiller \d+|\d+) (?:ran|was running|was on|ran at all|operated)\b", re.I)


# "why the jump?", "why so many this quarter?", "what's driving that increase?": the cause of a change in a count
WHY_THE_CHANGE = re.compile(r"^(?:(?:so|ok|and|but|hmm)[,.]?\s+)*(?:why (?:the|such a|that|this|so big a|the big) "
                            r"(?:jump|spike|increase|rise|surge|climb|drop|dip|fall|decrease|difference|change)|"
                            r"why (?:so many|so few|more|fewer)|what(?:'s| is|s) (?:driving|behind|causing) (?:that|the|this)"
                            r" (?:jump|spike|increase|rise|surge|climb|drop|dip|fall|decrease|difference|change))\b", re.I)


# "anything besides load low on them?", "other than the cycling ones": a record kind set aside, the rest asked for
BESIDES = re.compile(r"\b(?:besides|other than|apart from|except|excluding|aside from|beyond)\b", re.IGNORECASE)
