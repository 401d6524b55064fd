"""Which clause each period of a message belongs to, and whether that clause is about the subject asked.

Engineers give dates as context in passing: "the tower contractor was in on june 2nd, separate thing. but
ch4's kw/t in may looked ugly", "board review is oct 3rd and I need the story on #9 for jun thru aug". The
period attached to the chiller or the reading asked about is the one asked; a period in a clause that names
neither (while another clause does) is context. Pure: text in, flags out.
"""

from __future__ import annotations

import re

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
# Words that point at the subject already in focus ("how did it run in august?").
_SUBJECT_PRONOUNS = frozenset({"it", "its", "it's", "they", "them", "their", "both", "each"})


def _clause_spans(source: str, joined: str) -> list[tuple[int, int]]:
    """The clauses of the typed `source` (its punctuation marks them) as spans of its normalised `joined`
    text; one span for the whole text when a clause cannot be placed."""
    spans, cursor, start = [], 0, 0
    for match in [*_CLAUSE_BREAK.finditer(source), None]:
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


def set_aside_context_periods(source: str, text: str, periods: Periods, vocab: Vocabulary, catalog: FleetCatalog) -> Periods:
    """`periods` with the periods of clauses that name no chiller, reading or pronoun for one moved to
    `context`, where another period's clause does; unchanged when no clause, or every clause, names one."""
    if len(periods.mentions) < 2:
        return periods
    spans = _clause_spans(source, text)

    def clause_of(offset: int) -> str:
        return next((text[a:b] for a, b in spans if a <= offset <= b), "")

    # (a period set against another one, "the same quarter last year", belongs to that one's clause: never scene-setting)
    flags = [m.kind == "focus" or _names_subject(clause_of(m.start), vocab, catalog) for m in periods.mentions]
    if all(flags) or not any(flags):
        return periods
    pairs = list(zip(periods.mentions, flags, strict=True))
    periods.context = [m for m, flag in pairs if not flag]
    periods.mentions = [m for m, flag in pairs if flag]
    return periods
