"""Which clause each period of a message belongs to, and whether that clause is about the subject asked.

Engineers give dates as context in passing: "the tower contractor was in on june 2nd, separate thing. but
ch4's kw/t in may looked ugly", "board review is oct 3rd and I need the story on #9 for jun thru aug". The
period attached to the chiller or the reading asked about is the one asked; a period in a clause that names
neither (while another clause does) is context. Pure: text in, flags out.
"""

from __future__ import annotations

import re
from datetime import datetime

from assetops.domain.catalog import FleetCatalog
from graph.understanding.assets import find_assets
from graph.understanding.periods import Periods
from graph.understanding.sensors import find_sensors
from graph.understanding.text import Text
from graph.understanding.vocabulary import Vocabulary

# Clause boundaries: a sentence end, a semicolon, or a coordinating word that opens a new subject ("... is oct
# 3rd and I need ...", ", but the ..."). "may and june" or "chiller 3 and 4" do not open a clause.
_CLAUSE_BREAK = re.compile(r"[.;!?](?:\s|$)|,\s*(?:but|so|though|although)\s|"
                           r"\s(?:and|but|so|while|whereas)\s(?=(?:i|we|you|they|he|she|i'm|we're|i've|we've|"
                           r"my|our|can|could|would|please)\s)", re.IGNORECASE)
_SENTENCE_BREAK = re.compile(r"[.;!?](?:\s|$)")
# Words that point at the subject already in focus ("how did it run in august?").
_SUBJECT_PRONOUNS = frozenset({"it", "its", "it's", "they", "them", "their", "both", "each"})
# A period set against another ("... in aug. avg while running vs aug last yr?") is the other side of a comparison,
# whatever its clause names: never scene-setting.
_SET_AGAINST = re.compile(r"\b(?:vs|versus|against|compared? (?:to|with)|than|relative to)\.?\s+(?:the\s+|in\s+|for\s+)?$")


def _clause_spans(source: str, joined: str, breaks: re.Pattern[str] = _CLAUSE_BREAK) -> list[tuple[int, int]]:
    """The clauses of the typed `source` (its punctuation marks them; `breaks` where one ends) as spans of its
    normalised `joined` text; one span for the whole text when a clause cannot be placed."""
    spans, cursor, start = [], 0, 0
    for match in [*breaks.finditer(source), None]:
        end = match.start() if match else len(source)
        clause = Text.of(source[start:end]).joined.strip()
        start = match.end() if match else len(source)
        if not clause:
            continue
        found = joined.find(clause, cursor)
        if found < 0:
            return [(0, len(joined))]
        spans.append((found, found + len(clause)))
        cursor = found + len(clause)
    return spans or [(0, len(joined))]


def _names_subject(clause: str, vocab: Vocabulary, catalog: FleetCatalog) -> bool:
    text = Text.of(clause)
    assets = find_assets(text, vocab, catalog)
    sensors = find_sensors(text, vocab)
    return bool(assets.assets or assets.unknown or assets.all_assets or assets.bare_asset_word or sensors.canonical
                or sensors.all_sensors or any(t in _SUBJECT_PRONOUNS or t in (vocab.asset_word, vocab.asset_plural_word)
                                         for t in text.tokens))


def _future_scene(source: str, text: str, periods: Periods, today: datetime) -> None:
    """"The weather service is forecasting a heat wave for the second week of July ... so look across the site over
    the last couple of months": a time ahead said in an earlier sentence than a past period sets the scene (what is
    coming); the past period is the one to read."""
    sentences = _clause_spans(source, text, _SENTENCE_BREAK)

    def sentence_of(offset: int) -> int:
        return next((index for index, (a, b) in enumerate(sentences) if a <= offset <= b), -1)

    ahead = [m for m in periods.mentions if m.window is not None and m.kind == "absolute" and m.window.start >= today]
    past = [m for m in periods.mentions if m.window is not None and m.kind in ("absolute", "past")
            and m.window.end <= today]
    for mention in ahead:
        if any(sentence_of(other.start) > sentence_of(mention.start) >= 0 for other in past):
            periods.mentions.remove(mention)
            periods.context.append(mention)


# A period that names an occasion ("the September review", "the Q3 report"): when to report, not the data asked about
_OCCASION = re.compile(r"(?:the\s+)?(?:[a-z]+|q[1-4])(?:\s+(?:19|20)\d\d)?\s+(?:energy\s+|ops\s+|reliability\s+)?"
                       r"(?:review|report|meeting|pack|deck|audit|briefing|presentation|wrap ?up|write ?up|"
                       r"walkthrough|board)s?\b")


def _occasions(text: str, periods: Periods) -> None:
    """"I'm putting together the September review ... unsettled this summer, especially in August": the month naming
    the review is the occasion; the other periods are the ones to read (alone, it stays: "for the May report, ...")."""
    named = [m for m in periods.mentions if m.window is not None and _OCCASION.match(text, m.start)]
    if named and len(named) < len([m for m in periods.mentions if m.window is not None]):
        for mention in named:
            periods.mentions.remove(mention)
            periods.context.append(mention)


def set_aside_context_periods(source: str, text: str, periods: Periods, vocab: Vocabulary, catalog: FleetCatalog,
                              today: datetime | None = None) -> Periods:
    """`periods` with the periods of clauses that name no chiller, reading or pronoun for one moved to
    `context`, where another period's clause does; unchanged when no clause, or every clause, names one. A time
    after `today` (the day after the reference date) said before a past period's sentence is context too."""
    if len(periods.mentions) < 2:
        return periods
    if today is not None:
        _future_scene(source, text, periods, today)
    _occasions(text, periods)
    if len(periods.mentions) < 2:
        return periods
    spans = _clause_spans(source, text)

    def clause_of(offset: int) -> str:
        return next((text[a:b] for a, b in spans if a <= offset <= b), "")

    # (a period set against another one, "the same quarter last year", belongs to that one's clause: never scene-setting)
    against = [bool(_SET_AGAINST.search(text[max(0, m.start - 20):m.start])) for m in periods.mentions]
    flags = [m.kind == "focus" or set_against or _names_subject(clause_of(m.start), vocab, catalog)
             for m, set_against in zip(periods.mentions, against, strict=True)]
    for index in range(1, len(flags)):
        if against[index]:  # ("this month against June": both sides of the comparison)
            flags[index - 1] = True
    if all(flags) or not any(flags):
        return periods
    pairs = list(zip(periods.mentions, flags, strict=True))
    periods.context = [m for m, flag in pairs if not flag]
    periods.mentions = [m for m, flag in pairs if flag]
    return periods
