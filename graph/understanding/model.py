"""`understand()`: everything the offline planner reads out of one message, before planning."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from functools import lru_cache

from assetops.domain.catalog import FleetCatalog
from assetops.domain.turn import TimeWindow
from graph.understanding.assets import AssetMentions, find_assets
from graph.understanding.identifiers import (
    find_failure_modes,
    find_rule_ids,
    find_rule_names,
    find_work_order_ids,
    raised_rules,
)
from graph.understanding.intents import classify, score_intents
from graph.understanding.period_subject import set_aside_context_periods
from graph.understanding.periods import Periods, find_periods, named_day, year_named
from graph.understanding.sensors import SensorMentions, find_sensors
from graph.understanding.text import Text
from graph.understanding.vocabulary import Vocabulary, vocabulary


@dataclass
class Understanding:
    """The entities, intents and references of one message (nothing resolved against the focus yet)."""

    text: Text
    intents: list[str]
    scores: dict[str, int]
    assets: AssetMentions
    sensors: SensorMentions
    failure_modes: list[str]
    rule_ids: list[str]
    named_rules: list[str]  # alert rules named by the words of their name (`find_rule_names`)
    work_order_ids: list[str]
    periods: Periods
    references: set[str]  # kinds of earlier-turn references: asset, hypothesis, window, ...
    # the start of the day the message says an event happened on ("tripped on the 23rd of last month"), set by the
    # planner that reads it (the periods keep only what is asked about)
    event_dated: datetime | None = None
    # alert rules the message says a chiller raised ("keeps flagging setpoint attainment", `raised_rules`): named,
    # and the verb says it is the alerts that are meant
    raised_rules: list[str] = field(default_factory=list)

    @property
    def window(self) -> TimeWindow | None:
        """The first resolved period of the message, if any."""
        first = self.periods.first
        return first.window if first else None


# A determiner pointing back plus a span word is a reference to the period discussed ("over that stretch",
# "those weeks", "the same time frame"), whatever the span word.
_WINDOW_REFERENCE = re.compile(
    # ("those three months": a count between the pointer and the unit changes nothing; "those two years" may be
    # the two periods the dialog discussed, read by the planner)
    r"\b(?:that|this|those|these|the same|same)\s+(?:same\s+)?(?:(?:three|four|five|six|few|couple of|\d+)\s+)?"
    r"(?:period|stretch|span|window|time|timeframe|time frame|"
    r"range|interval|episode|weeks?|months?|years?|days?|dates|quarter|season|summer|winter|spring|fall|autumn|"
    r"spell|run|phase)\b")


def points_back_beside(understood: Understanding) -> bool:
    """The message points back at the period discussed ("over those same 3 months") apart from any period it names
    ("this month" is a period of its own, not a pointer)."""
    named = {m.start for m in understood.periods.mentions}
    text = understood.text.joined
    # ("the same week in june" is a week of June, not the week discussed)
    return any(match.start() not in named and not match.group(0).startswith("this ")
               and not _QUALIFIED_AFTER.match(text, match.end())
               and not _names_the_one_before(understood, match)
               for match in _WINDOW_REFERENCE.finditer(text))


_UNIT_DAYS = {"day": (1, 1), "week": (7, 7), "month": (28, 31), "quarter": (89, 92), "year": (365, 366)}


def _names_the_one_before(understood: Understanding, pointer: re.Match[str]) -> bool:
    """"February 2020 as a whole then: was it running at all that month?": the pointer takes up the one period of its
    unit the message named before it, not the period discussed."""
    unit = pointer.group(0).split()[-1].rstrip("s")
    low, high = _UNIT_DAYS.get(unit, (0, 0))
    before = [m for m in understood.periods.mentions if m.window is not None and m.start < pointer.start()]
    return len(before) == 1 and before[0].window is not None \
        and low <= (before[0].window.end - before[0].window.start).days <= high


_QUALIFIED_AFTER = re.compile(r" (?:in|of|from|during|last|this|next|a year|the year|back in)\b")


# A message that speaks of alerts, where a rule may be named loosely ("those excessive power alerts").
ALERT_WORDS = re.compile(r"\b(?:alerts?|alarms?|alerting|alarming|rules?)\b")


@lru_cache(maxsize=4)
def _event_anchor(vocab: Vocabulary) -> re.Pattern[str]:
    """"(the hour) before it dropped", "leading up to the trip": a stop named only to date the period asked about."""
    stops = "|".join(re.escape(w) for w in sorted({*vocab.trip_words, *vocab.event_words, "dropped", "failed"},
                                                  key=len, reverse=True))
    return re.compile(rf"\b(?:before|prior to|leading up to|in the run up to|ahead of) (?:the |it |that )?(?:{stops})\b")


# A purpose clause closing a request ("..., so I can put the approach in the report", "so we can plan the shutdown")
_PURPOSE = re.compile(r"\b(?:so (?:that )?|in order (?:that |to )?)(?:i|we|they|you|the team|management)? ?(?:can|could|"
                      r"may|might|have)\b.*$")


# "report" as the verb of a chiller or an instrument ("did it report", "what the sensor reports"): a reading shown
_REPORTED_READING = re.compile(r"\b(?:did|does|do|has|have|had|will|would)\s+(?:it|they|the [\w-]+|its [\w-]+|"
                               r"(?:chiller|ch|unit) ?#?\d+|[\w-]+)\s+report\b|\b(?:it|they|sensors?|probes?|meters?|transmitters?|instruments?)\s+"
                               r"report\b")


def intent_scores(text: Text, vocab: Vocabulary) -> dict[str, int]:
    """The intents' scores, leaving out a stop that only dates the reading asked for: "what was it pulling in kW the
    hour before it dropped?" asks for the reading, not why it dropped ("what was it doing in the hours before it
    went down?" names no reading: the stop is what it is about)."""
    purpose = _PURPOSE.search(text.joined)
    if purpose is not None and purpose.start() > 0:
        # "give me last month's average ..., so I can put it in the report": what it is for asks for nothing
        kept = score_intents(Text.of(text.joined[:purpose.start()]), vocab)
        if kept or find_sensors(Text.of(text.joined[:purpose.start()]), vocab).canonical:
            text = Text.of(text.joined[:purpose.start()])
    if _REPORTED_READING.search(text.joined):
        # "what supply temp did it report in February?": an instrument reporting a value, not a report to write
        text = Text.of(_REPORTED_READING.sub(lambda m: m.group(0)[:-len("report")] + "show", text.joined))
    anchor = _event_anchor(vocab)
    scores = score_intents(text, vocab)
    if not anchor.search(text.joined) or not find_sensors(text, vocab).canonical:
        return scores
    return score_intents(Text.of(anchor.sub(" ", text.joined)), vocab) or scores


# "when chiller 9 flags a high evaporator approach, ...": the rule named in any word order, as with "alerts"
_RAISES_A_FLAG = re.compile(r"\b(?:flags|flagged|flagging|throws|threw|trips on|tripped on|fires|fired)\b(?: an?| the)? "
                            r"(?:high|low|excessive)\b")


def speaks_of_alerts(text: str) -> bool:
    """The message is about alerts: it says so, or says a chiller raised one ("flags a high approach")."""
    return bool(ALERT_WORDS.search(text) or _RAISES_A_FLAG.search(text))


def find_references(text: Text, vocab: Vocabulary) -> set[str]:
    """The kinds of earlier-turn references in `text` ("it" -> asset, "the most likely one" -> hypothesis)."""
    kinds: set[str] = set()
    for kind, phrases in vocab.references.items():
        if any(text.contains(phrase) for phrase in phrases):
            kinds.add(kind)
    if _WINDOW_REFERENCE.search(text.joined):
        kinds.add("window")
    if _DESCRIBED_ONE_BACK.search(text.joined) and "hypothesis" not in kinds:
        kinds.add("asset")  # "for that top one", "this noisy one": the one a ranking or a pick just named
    return kinds


# "that top one", "this noisy one", "that busy unit": one chiller pointed back at by a word that describes it
_DESCRIBED_ONE_BACK = re.compile(r"\b(?:that|this) (?!same\b|other\b|first\b|second\b|last\b|next\b)[a-z]+ (?:one|unit|chiller|machine)\b")


def understand(message: str, reference_date: date, focus_window: TimeWindow | None = None,
               event_time: datetime | None = None, vocab: Vocabulary | None = None, *, catalog: FleetCatalog,
               context: str | None = None, frame_year: int | None = None) -> Understanding:
    """Read intents, assets, sensors, failure modes, ids, periods and references out of `message`.

    `focus_window` resolves "same period last year" / "that period"; `event_time` resolves
    "the day before the trip"; `catalog` is the loaded fleet (its chillers, equipment ids and time
    zone). Pure: no I/O beyond the vocabulary read once.
    """
    vocab = vocab or vocabulary()
    text = Text.of(message)
    scores = intent_scores(text, vocab)
    references = find_references(text, vocab)
    # `context`: the whole message when `message` is its asking part ("closing out 2020's books. ... Q2?").
    year = year_named(Text.of(context).joined, vocab, reference_date, zone=catalog.zone) if context else None
    # ("Chiller 9 tripped on July 23rd. What was it doing from the 9th?": the day the scene dates places "the 9th")
    anchor = named_day(Text.of(context).joined, vocab, reference_date, zone=catalog.zone) if context else None
    periods = find_periods(text.joined, vocab, reference_date, focus_window, event_time,
                           window_reference="window" in references, zone=catalog.zone, year_of_context=year,
                           frame_year=frame_year, day_anchor=anchor)
    today = datetime.combine(reference_date + timedelta(days=1), time(), tzinfo=catalog.zone)
    periods = set_aside_context_periods(message, text.joined, periods, vocab, catalog, today=today)
    return Understanding(
        text=text,
        intents=classify(scores, vocab),
        scores=scores,
        assets=find_assets(text, vocab, catalog),
        sensors=find_sensors(text, vocab),
        failure_modes=find_failure_modes(text, vocab),
        rule_ids=find_rule_ids(text),
        named_rules=find_rule_names(text, catalog.alert_rules, loose=speaks_of_alerts(text.joined)),
        work_order_ids=find_work_order_ids(text),
        periods=periods,
        references=references,
        raised_rules=raised_rules(text, catalog.alert_rules),
    )
