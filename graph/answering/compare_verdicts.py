"""Yes/no on a comparison: "is 6 breaking down more than 4?", "is 3 less efficient than 9?", "is that rule
firing more here than anywhere else?", "more alerts this month than last?".

Pure: each side is one figure of one artifact (corrective or all work orders, alerts of the rule the
question names or all, a sensor's running mean), read from the turn's artifacts and, for the same window,
the session's. Two assets over one window are compared directly; one asset over two windows is compared
per day when the windows differ in length. The comparative word decides the polarity
(graph/answering/compare_terms.py); the answer states both figures.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from artifacts.model import Artifact
from artifacts.readings import alert_rules, listed_kind, stats_of, work_order_counts
from graph.answering.asked_figures import (
    HIGHER_IS_WORSE,
    asked_sensors,
    figure_text,
    named_rules,
    rule_text,
    sensor_figures,
)
from graph.answering.compare_terms import (
    against_all_others,
    comparison_sense,
    mention_position,
    subject_first,
    window_days,
    window_phrase,
)
from graph.answering.markdown import join_names
from graph.answering.yes_no import Answer, Verdict, without_answer
from graph.understanding.request import (
    BARE_COMPARATIVE,
    DIRECTION_CHOICE,
    MONTH_WORD,
    PAST_MOVE,
    UP_OR_DOWN_ON,
    asks_change_over_time,
    asks_difference,
)
from graph.understanding.sensors import canonical_of
from graph.understanding.symptoms import described_symptoms
from graph.understanding.text import Text
from graph.understanding.vocabulary import vocabulary

SAME_WITHIN = 0.02  # relative difference under which two means are "about the same"
SAME_LENGTH = 0.1  # windows within 10% of each other's length are compared by count, not per day
MAX_NAMED = 3  # reference sides named in the sentence; the rest are in the evidence lines
_BREAKDOWN = re.compile(r"\b(break\w*|broke|fail\w*|repair\w*|fix\w*|corrective|fault\w*|trip\w*|outage\w*)\b", re.I)
_ALERTS = re.compile(r"\b(alerts?|alarm\w*|rules?|fir(e|es|ing|ed))\b", re.I)
_ORDERS = re.compile(r"\b(work ?orders?|wos?|jobs?|tickets?|maintenance)\b", re.I)
_PERFORMANCE = re.compile(r"\b(efficien\w*|inefficien\w*|perform\w*|worse|better)\b", re.I)
_ANOTHER_ASSET = re.compile(r"\b(than|versus|vs\.?|compared (to|with))\s+(on\s+|at\s+)?((the\s+)?(chiller|ch|unit|"
                            r"no\.?)\s*#?\d|the\s+\d|#\d|cwc\d|\d{1,3}\b(?!\s*(days?|weeks?|months?|years?|%)))", re.I)
# Another asset or period, not a norm: "worse than normal" is a health question, not a comparison.
_COMPARES = re.compile(r"\b(than|versus|vs\.?|compared (to|with))\b(?!\s+(normal|usual|expected|spec|design\w*|"
                       r"it should|they should|nominal))|" + UP_OR_DOWN_ON.pattern, re.I)


@dataclass(frozen=True)
class Side:
    """One side of a comparison: a figure of one asset over one window."""

    key: str  # the asset (or equipment id) it belongs to
    names: tuple[str, ...]  # what the question may call it
    value: float
    text: str  # "14 corrective work orders", "0.49 kW/ton while running"
    label: str  # what is counted or measured: "corrective work orders", "efficiency"
    start: datetime | None
    end: datetime | None
    when: str  # "in 2020"
    days: float | None
    artifact_id: str
    higher_is_worse: bool
    counted: bool = False  # a count of records (orders, alerts), not a measured mean


def _names(art: Artifact) -> tuple[str, ...]:
    return (*art.asset_ids, *art.equipment_ids)


def _where(side: Side) -> str:
    return side.key


def _count_side(art: Artifact, value: int, label: str) -> Side:
    text = f"{value} {label if value != 1 else label.removesuffix('s')}"
    return Side((art.asset_ids or art.equipment_ids or [art.id])[0], _names(art), float(value), text, label,
                art.window_start, art.window_end, window_phrase(art), window_days(art), art.id, True, True)


def order_sides(question: str, artifacts: list[Artifact], *, corrective: bool = False) -> list[Side]:
    """Work orders per summary: corrective ones when the question is about breakdowns (or `corrective`: the
    count it points back at was of corrective ones), else all."""
    breakdowns = corrective or bool(_BREAKDOWN.search(question))
    sides = []
    for art in artifacts:
        if art.kind != "work_order_summary":
            continue
        counts, listed = work_order_counts(art), listed_kind(art)
        corrective = breakdowns or listed == "corrective"
        value = counts.corrective if corrective else counts.total
        if value is None or (breakdowns and listed == "preventive"):
            continue
        label = "corrective work orders" if corrective else "preventive work orders" if listed == "preventive" \
            else "work orders"
        sides.append(_count_side(art, value, label))
    return sides


def alert_sides(question: str, artifacts: list[Artifact]) -> list[Side]:
    """Alerts per equipment: of the rule the question names (on every side), else all."""
    found = [(a, r) for a in artifacts if a.kind == "alert_rules" and (r := alert_rules(a)) is not None]
    # (a rule asked about earlier is not assumed: after "how many of those were the setpoint one?", "was May any
    # better?" is about the alarms as a whole)
    named_ids = {r.rule_id for _, rules in found for r in named_rules(question, rules)}
    sides = []
    for art, rules in found:
        if named_ids:
            named = [r for r in rules if r.rule_id in named_ids]
            label = f"{join_names([rule_text(r) for r in named] or sorted(named_ids))} alerts"
            sides.append(_count_side(art, sum(r.count for r in named), label))
        else:
            sides.append(_count_side(art, sum(r.count for r in rules), "alerts"))
    return sides


def _only_reading(artifacts: list[Artifact]) -> list[str]:
    """The one reading every telemetry window holds ("up or down on that?" after power alone was read), else none."""
    held = [{canonical_of(name) for name in stats_of(a)} for a in artifacts if a.kind == "telemetry_window"]
    common = set.intersection(*held) if len(held) > 1 else set()
    return sorted(common) if len(common) == 1 else []


def sensor_sides(question: str, artifacts: list[Artifact], reading: str | None = None) -> list[Side]:
    """The named sensor's running mean per telemetry window (efficiency when only "worse"/"better" is said; else
    `reading`, the one the turn fetched, or the one reading every window holds)."""
    named = asked_sensors(question) or ([reading] if reading else []) \
        or (["Chiller Efficiency"] if _PERFORMANCE.search(question) else []) or _only_reading(artifacts)
    windows = {a.id: a for a in artifacts}
    for sensor in named:
        # (an idle chiller's 0 kW/ton rates nothing: it is no side of a comparison of efficiency)
        figures = [f for f in sensor_figures(sensor, artifacts) if sensor != "Chiller Efficiency" or f.value > 0]
        if len(figures) < 2:
            continue
        return [Side(f.asset, _names(windows[f.artifact_id]), f.value, figure_text(f), f.label.lower(),
                     windows[f.artifact_id].window_start, windows[f.artifact_id].window_end,
                     window_phrase(windows[f.artifact_id]), window_days(windows[f.artifact_id]), f.artifact_id,
                     sensor in HIGHER_IS_WORSE)
                for f in figures]
    return []


def _figure(side: Side) -> str:
    """The other side's figure after "against": a bare count (the label was said), a mean with its unit."""
    return f"{side.value:.0f}" if side.counted else side.text


def _same_window(a: Side, b: Side) -> bool:
    if a.start is None or a.end is None or b.start is None or b.end is None:
        return a.start == b.start and a.end == b.end
    day = timedelta(days=1)
    return abs(a.start - b.start) <= day and abs(a.end - b.end) <= day


def _relation(side: Side, other: float, per_day: bool) -> tuple[str, float]:
    mine = side.value / side.days if per_day and side.days else side.value
    change = (mine - other) / abs(other) if other else (1.0 if mine else 0.0)
    return ("same" if abs(change) < SAME_WITHIN else "higher" if change > 0 else "lower"), mine


def _answer(sense: str, relation: str) -> Answer:
    return "Yes" if relation == sense else "No"


def _totals_across_assets(question: str, sides: list[Side]) -> Verdict | None:
    """"Is 6 any worse?" after alerts counted per quarter on 9: each equipment's records over the same periods,
    added up, the one named (this turn's, listed first) against the other."""
    periods: dict[str, set[tuple[object, object]]] = {}
    totals: dict[str, float] = {}
    first: dict[str, Side] = {}
    for side in sides:
        if (side.start, side.end) in periods.get(side.key, set()):
            continue  # the same listing again (a later turn's reuse): counted once
        periods.setdefault(side.key, set()).add((side.start, side.end))
        totals[side.key] = totals.get(side.key, 0) + side.value
        first.setdefault(side.key, side)
    subject = sides[0]
    others = [k for k in first if k != subject.key and periods[k] == periods[subject.key]]
    sense = comparison_sense(question, higher_is_worse=True)
    if not others or sense is None:
        return None
    other = others[0]
    mine, theirs = totals[subject.key], totals[other]
    answer: Answer = "Yes" if (mine > theirs) == (sense == "higher") and mine != theirs else "No"
    whens = sorted({(s.start, s.when.removeprefix("in ")) for s in sides if s.key == subject.key},
                   key=lambda pair: str(pair[0]))
    span = join_names([when for _, when in whens])
    span = span if span.startswith(("from ", "between ")) else f"in {span}"  # ("from 2019-07-01 to ...": no "in")
    sentence = f"{answer}, {subject.key} had {mine:.0f} {subject.label} {span} against {theirs:.0f} on {other}."
    lines = [f"- {s.key} {s.when}: {s.text} [{s.artifact_id}]" for s in sides if s.key in (subject.key, other)]
    return Verdict(answer, " ".join(sentence.split()), lines)


def _across_assets(question: str, sides: list[Side], *, against_extreme: bool = False) -> Verdict | None:
    """Two or more assets over one window: the subject against the one after "than" (or all the others).

    `against_extreme`: "is 9 any better?" with no "than" follows a finding that one is bad, so the subject is held
    against the worst of the others ("any worse?": against the best)."""
    first = sides[0]
    by_key: dict[str, Side] = {}
    for side in sides:
        if _same_window(side, first):
            by_key.setdefault(side.key, side)
    if len(by_key) < 2:
        return None
    order = subject_first(question, [(k, list(s.names)) for k, s in by_key.items()])
    subject = by_key[order[0]]
    sense = comparison_sense(question, higher_is_worse=subject.higher_is_worse)
    if sense is None:
        return None
    cut = _COMPARES.search(question)
    after = question[cut.end():] if cut else ""
    named_after = [k for k in order[1:] if after and mention_position(after, list(by_key[k].names)) is not None]
    others = [by_key[k] for k in (order[1:] if against_all_others(question) or not named_after else named_after[:1])]
    top = max(o.value for o in others) if sense == "higher" else min(o.value for o in others)
    if against_extreme:
        extreme = (min if sense == "higher" else max)(others, key=lambda o: o.value)
        others, top = [extreme], extreme.value
    relation, _ = _relation(subject, top, per_day=False)
    answer = _answer(sense, relation)
    against = join_names([f"{_figure(o)} on {o.key}" for o in others[:MAX_NAMED]])
    more = f" and {len(others) - MAX_NAMED} more" if len(others) > MAX_NAMED else ""
    if relation == "same" and len(others) == 1:
        sentence = f"{answer}, {subject.key} and {others[0].key} are about the same: {subject.text} against " \
                   f"{others[0].text} {subject.when}".rstrip()
    elif subject.counted:
        sentence = f"{answer}, {subject.key} had {subject.text} {subject.when} against {against}{more}"
    else:
        sentence = f"{answer}, {subject.key}'s {subject.label} was {subject.text} {subject.when} against {against}{more}"
    lines = [f"- {s.key} {s.when}: {s.text} [{s.artifact_id}]" for s in [subject, *others]]
    return Verdict(answer, " ".join(sentence.split()) + ".", lines)


_EARLIER_SIDE = re.compile(r"\b(?:last|previous|prior) year\b|\bthe year before\b|\ba year (?:ago|earlier|before)\b|"
                          r"\b(?:before|previous|prior|earlier|ago)\b|"
                          # "more often than it used to", "than back then", "than in the past": the earlier side
                          r"\bused to\b|\bback then\b|\bin the past\b|\bin (?:the )?(?:old|early) days\b", re.I)


def _across_periods(question: str, sides: list[Side], subject_id: str | None = None) -> Verdict | None:
    """One asset over two windows: the window asked about (the one before "than", else the latest; `subject_id`:
    the side this turn read, for "was May any better?") against the other, per day when their lengths differ."""
    key = sides[0].key
    windows = {(s.start, s.end): s for s in sides if s.key == key and s.start is not None}
    if len(windows) < 2 or _ANOTHER_ASSET.search(question):  # "than Chiller 4": two assets, not two periods
        return None
    ordered = sorted(windows.values(), key=lambda s: s.start or datetime.min)
    cut = _COMPARES.search(question)
    # the side after "than" decides first: "than the year before", "than june last year" is the earlier one, so
    # the subject ("last month", "last year") is the later
    against_earlier = cut is not None and bool(_EARLIER_SIDE.search(question[cut.end():]))
    asks_earlier = not against_earlier and bool(re.search(r"\b(last|previous|prior|earlier|ago|before)\b",
                                                          question[:cut.start()] if cut else question, re.I))
    subject, other = (ordered[0], ordered[-1]) if asks_earlier else (ordered[-1], ordered[-2])
    named = next((s for s in ordered if s.artifact_id == subject_id), None)
    # ("was 2019 any quieter?": the one side whose year the question writes is the one asked about)
    asked_part = question[:cut.start()] if cut is not None else question  # ("vs 2019": the year after is the other)
    written = [s for s in ordered if s.start is not None and str(s.start.year) in asked_part]
    if named is None and len(written) == 1 and len({s.start.year for s in ordered if s.start is not None}) > 1:
        named = written[0]
    if named is not None and against_earlier and named is not ordered[-1]:
        # "going back to 2016, is it breaking down more often than it used to?": the period read is the past the
        # latest is held against
        subject, other = ordered[-1], named
    elif named is not None:  # the period this turn read is the one asked about, against the latest other one
        subject, other = named, next(s for s in reversed(ordered) if s is not named)
    sense = comparison_sense(question, higher_is_worse=subject.higher_is_worse)
    if sense is None:
        return None
    # (counts of unequal periods go per day; a reading's mean is a level whatever the length)
    per_day = bool(subject.counted and subject.days and other.days
                   and abs(subject.days - other.days) > SAME_LENGTH * other.days)
    base = other.value / other.days if per_day and other.days else other.value
    relation, mine = _relation(subject, base, per_day)
    answer = _answer(sense, relation)
    rate = f" ({mine * 30:.1f} against {base * 30:.1f} per 30 days)" if per_day else ""
    said = f"{key} had {subject.text}" if subject.counted else f"{key}'s {subject.label} was {subject.text}"
    about = f" about the same (within {SAME_WITHIN:.0%}):" if relation == "same" else ""  # why a higher figure is a no
    # (which way and how far, in words: "22% lower than 1,948 gpm in July 2020", not a bare "against")
    # (a count says its two numbers; a reading's level says how far it moved)
    apart = f", {abs(mine - base) / abs(base):.0%} {relation} than" if relation != "same" and base \
        and not subject.counted else " against"
    sentence = f"{answer},{about} {said} {subject.when}{apart} {_figure(other)} {other.when}{rate}."
    lines = [f"- {s.when}: {s.text} [{s.artifact_id}]" for s in (subject, other)]
    return Verdict(answer, " ".join(sentence.split()), lines)


def _families(question: str) -> list[Callable[[str, list[Artifact]], list[Side]]]:
    """The figures to compare, those the question speaks of first."""
    spoken = [(bool(_ALERTS.search(question)), alert_sides),
              (bool(asked_sensors(question)) or (bool(_PERFORMANCE.search(question)) and not _BREAKDOWN.search(question)),
               sensor_sides),
              (bool(_BREAKDOWN.search(question) or _ORDERS.search(question)), order_sides)]
    return [family for said, family in spoken if said]


_FAMILY_OF_KIND: dict[str, Callable[[str, list[Artifact]], list[Side]]] = {
    "work_order_summary": order_sides, "alert_rules": alert_sides, "telemetry_window": sensor_sides}


_PERIOD_WORDS = re.compile(r"\b(?:years?|months?|weeks?|quarters?|days?|before|earlier|ago|last|previous|prior|"
                           rf"spring|summer|autumn|fall|winter|q[1-4]|(?:19|20)\d\d|{MONTH_WORD})\b", re.I)


def _against_a_period(question: str) -> bool:
    """What follows "than" is a period and not another chiller ("worse than the year before?")."""
    cut = _COMPARES.search(question)
    return cut is not None and not _ANOTHER_ASSET.search(question) and bool(_PERIOD_WORDS.search(question[cut.end():]))


def _counted_corrective(turn: list[Artifact], session: list[Artifact]) -> bool:
    """A count of this turn, or the latest count before it, was of corrective orders only."""
    if any(a.kind == "work_order_summary" and listed_kind(a) == "corrective" for a in turn):
        return True
    mine = {a.id for a in turn}
    summaries = [a for a in session if a.kind == "work_order_summary" and a.id not in mine]
    latest = max(summaries, key=lambda a: a.turn_index or 0, default=None)
    return latest is not None and listed_kind(latest) == "corrective"


# Evidence one chiller can have over two periods set side by side: its readings, or its records counted
_OVER_PERIODS = ("telemetry_window", "work_order_summary", "alert_rules")


def _one_asset_two_periods(turn: list[Artifact]) -> bool:
    """This turn's readings (or its counts of records) are one chiller's over two or more periods apart ("2018 vs
    2019?" then "so it's getting worse or nah?")."""
    for kind in _OVER_PERIODS:
        windows = [a for a in turn if a.kind == kind and a.window_start is not None]
        spans = len({(a.window_start, a.window_end) for a in windows})
        # (three or more yearly counts are a series, which the per-year trend answers)
        if len({tuple(a.asset_ids or a.equipment_ids) for a in windows}) == 1 \
                and (spans > 1 if kind == "telemetry_window" else spans == 2):
            return True
    return False


# ("and the other one, did it get more?" after one chiller's count: a count against the one the dialog made)
_BARE_COMPARATIVE = re.compile(r"\b(?:any|much|a lot|even|at all)\s+(?:better|worse|quieter|busier|noisier|calmer)\b|" + BARE_COMPARATIVE.pattern + "|"
                               r"\b(?:get|got|have|had|log|logged|raise|raised|see|saw|throw|threw)\s+(?:any\s+)?"
                               r"(?:more|fewer|less)\b(?!\s+(?:than|\w+\s+than)\b)", re.I)


_LEVEL_WORD = re.compile(r"\b(?:low|high|hot|warm|cold|elevated|up|down)\b", re.I)


def comparison_verdict(question: str, turn: list[Artifact], session: list[Artifact],
                       reading: str | None = None) -> Verdict | None:
    """Yes/no on a comparison of two assets (or one asset over two periods) on the figure the question
    names (`reading`: the one the turn fetched, for a question that names none: "up on that?"); None when the
    question compares nothing or the evidence has only one side."""
    # "is 9 any better?" after a ranking: the one named against the others read over the same window
    bare = not _COMPARES.search(question) and bool(_BARE_COMPARATIVE.search(question)) \
        and not asks_change_over_time(question.lower())
    # "so did it get worse?" when this turn set one chiller's two periods side by side: the later against the earlier
    # ("bms showed its flow sagging last month, confirm?": a move claimed in the period named, which this turn set
    # beside the one before it)
    # ("aug 2018 low? compare to aug 2017": a level put up for checking, against the other period this turn read)
    over_the_two = not _COMPARES.search(question) and _one_asset_two_periods(turn) and (
        asks_change_over_time(question.lower()) or bool(described_symptoms(Text.of(question), vocabulary()))
        or bool(_LEVEL_WORD.search(question)) or PAST_MOVE.search(question.lower()) is not None)
    if not _COMPARES.search(question) and not bare and not over_the_two:
        return None
    pool = list({a.id: a for a in [*turn, *session]}.values())
    # "is that more than last year?" after a count of corrective jobs compares corrective jobs
    orders = partial(order_sides, corrective=True) if _counted_corrective(turn, session) else order_sides
    sensors = partial(sensor_sides, reading=reading)
    family_of_kind = {**_FAMILY_OF_KIND, "work_order_summary": orders, "telemetry_window": sensors}
    spoken = [orders if family is order_sides else sensors if family is sensor_sides else family
              for family in _families(question)]
    # "is that worse than the year before?" names no figure: the one this turn's evidence holds
    held = [family for kind, family in family_of_kind.items()
            if family not in spoken and any(a.kind == kind for a in turn)]
    for family in [*spoken, *held]:
        turn_ids = {a.id for a in turn}
        # (a bare "any better?" has one side this turn: the rest are the session's over the same window)
        here = [s for s in family(question, pool) if s.artifact_id in turn_ids] if bare else family(question, turn)
        if not here:
            continue
        if not bare and against_all_others(question):
            # "was that more than any other chiller?" when this turn read only the others: "that" is the dialog's
            # own figure over the same window, read earlier
            keys = {s.key for s in here}
            earlier = [s for s in family(question, pool) if s.artifact_id not in turn_ids and s.key not in keys
                       and any(_same_window(s, h) for h in here)]
            here = [*earlier[:1], *here]
        # (the turn's own two periods, when it set two side by side, before any the session read earlier)
        own = here if not bare and len({(s.start, s.end) for s in here}) > 1 and len({s.key for s in here}) == 1 else []
        sides = own or [*here, *(s for s in family(question, pool) if s.artifact_id not in {h.artifact_id for h in here})]
        if over_the_two:  # the later period is the one asked about, whatever "before" the question says
            latest = max((s for s in sides if s.start is not None), key=lambda s: s.start or datetime.min, default=None)
            verdict = _across_periods(question, sides, subject_id=latest.artifact_id if latest else None)
        elif bare:
            verdict = _across_assets(question, sides, against_extreme=True) if family is sensors \
                else _totals_across_assets(question, sides)
            mine = [s for s in sides if s.key == here[0].key]
            if verdict is None and len({(s.start, s.end) for s in mine}) > 1:
                # "was May any better?" after June's count: the same chiller's period read now against the other
                verdict = _across_periods(question, mine, subject_id=here[0].artifact_id)
        elif _against_a_period(question) and not against_all_others(question):
            # "is that worse than the year before?": the subject's own two periods ("than any other chiller in
            # 2020" sets it against the others)
            verdict = _across_periods(question, sides) or _across_assets(question, sides)
        else:
            verdict = _across_assets(question, sides) or _across_periods(question, sides)
        if verdict is not None:
            return verdict
    return None


# "up or down vs 2019?", "better or worse than last summer?": a choice between two directions.


def direction_choice(question: str, decide: Callable[[str], Verdict | None]) -> Verdict | None:
    """The direction the figures moved, for a question that offers two ("up or down vs 2019?"): `decide` is
    asked the yes/no question of each option in turn ("up vs 2019?", then "down vs 2019?"); the first it
    answers yes is the answer, in the user's word; neither: about the same. None when no two directions are
    offered or the evidence settles neither."""
    offered = DIRECTION_CHOICE.search(question)
    if offered is None:
        return None
    said = []
    for option in offered.groups():
        verdict = decide(question[:offered.start()] + option + question[offered.end():])
        if verdict is None or verdict.answer not in ("Yes", "No"):
            return None
        if verdict.answer == "Yes":
            return Verdict("Yes", f"{option.capitalize()}: {without_answer(verdict.sentence)}", verdict.evidence)
        said.append(verdict)
    return Verdict("No", f"About the same: {without_answer(said[0].sentence)}", said[0].evidence)


_COMPARATIVE_WORD = re.compile(r"\b(more|fewer|less|higher|lower|most|fewest|least|worse|better|busier|quieter)\b",
                               re.I)


def period_record_pick(question: str, artifacts: list[Artifact]) -> Verdict | None:
    """"Did it see more repair tickets in 2019 or in 2020?": the period with more (or fewer) records of one
    equipment, said first with both counts; None unless this turn counted one equipment's records over two
    periods apart and the question asks which way."""
    # records only (a reading over two periods is graph/answering/asked_figures.period_pick's)
    families = list(dict.fromkeys([*(f for f in _families(question) if f is not sensor_sides), order_sides,
                                   alert_sides]))
    for family in families:
        sides = family(question, artifacts)
        keys = {s.key for s in sides}
        dated = sorted((s for s in sides if s.start is not None and s.end is not None),
                       key=lambda s: s.start or datetime.min)
        apart = all(a.end <= b.start for a, b in itertools.pairwise(dated))  # type: ignore[operator]
        if len(keys) == 1 and len(dated) > 2 and apart:
            return _period_among(question, dated)
        if len(keys) != 1 or len(dated) != 2 or not apart:
            continue
        word = _COMPARATIVE_WORD.search(question)
        sense = comparison_sense(question, higher_is_worse=True)
        if word is None or sense is None:
            return None
        first, second = dated
        if first.value == second.value:
            sentence = f"The same in both: {first.key} had {first.text} {first.when} and {_figure(second)} {second.when}."
        else:
            picked, other = (first, second) if (first.value > second.value) == (sense == "higher") else (second, first)
            sentence = (f"{word.group(1).capitalize()} {picked.when}: {picked.key} had {picked.text} {picked.when} "
                        f"against {_figure(other)} {other.when}.")
        lines = [f"- {s.when}: {s.text} [{s.artifact_id}]" for s in dated]
        return Verdict("Yes", " ".join(sentence.split()), lines)
    return None


_SUPERLATIVE_WORD = re.compile(r"\b(worst|busiest|heaviest|most|highest|peak|best|quietest|calmest|fewest|least|"
                               r"lowest)\b", re.I)
_LOW_PICK = frozenset({"best", "quietest", "calmest", "fewest", "least", "lowest"})


def _period_among(question: str, dated: list[Side]) -> Verdict | None:
    """"Which of those three years was the worst?": the period with the most records (the fewest for "best"), said
    first with its count, then every period's."""
    word = _SUPERLATIVE_WORD.search(question)
    if word is None:
        return None
    low = word.group(1).lower() in _LOW_PICK
    top = (min if low else max)(dated, key=lambda s: s.value)
    ties = [s for s in dated if s.value == top.value and s is not top]
    also = f" (tied with {', '.join(s.when for s in ties)})" if ties else ""
    others = ", ".join(f"{_figure(s)} {s.when}" for s in dated if s is not top)
    sentence = f"{top.when.removeprefix('in ').capitalize()} was the {word.group(1).lower()}{also}: {top.key} had " \
               f"{top.text} {top.when}, against {others}."
    return Verdict("Yes", " ".join(sentence.split()), [f"- {s.when}: {s.text} [{s.artifact_id}]" for s in dated])


def period_record_difference(question: str, artifacts: list[Artifact]) -> Verdict | None:
    """"Any difference in alarms between those two Junes?": one equipment's records over two periods apart,
    yes when the counts differ, with both counts and the rule (or kind) behind the busier period."""
    if not asks_difference(question.lower()):
        return None
    pair = _one_record_over_two_periods(question, artifacts)
    if pair is None:
        return None
    first, second = pair
    lines = [f"- {s.when}: {s.text} [{s.artifact_id}]" for s in pair]
    if first.value == second.value:
        return Verdict("No", f"No, {first.key} had {first.text} {first.when} and {_figure(second)} {second.when}.", lines)
    busier = max(pair, key=lambda s: s.value)
    sentence = (f"Yes, {first.key} had {second.text} {second.when} against {_figure(first)} {first.when}"
                f"{_top_rule(busier, artifacts)}.")
    return Verdict("Yes", sentence, lines)


def _one_record_over_two_periods(question: str, artifacts: list[Artifact]) -> tuple[Side, Side] | None:
    """One equipment's record count over two periods apart (alerts first when the question speaks of them), earlier
    first; None otherwise."""
    for family in (alert_sides, order_sides) if _ALERTS.search(question) else (order_sides, alert_sides):
        dated = sorted((s for s in family(question, artifacts) if s.start is not None and s.end is not None),
                       key=lambda s: s.start or datetime.min)
        if len({s.key for s in dated}) == 1 and len(dated) == 2 and dated[0].end <= dated[1].start:  # type: ignore[operator]
            return dated[0], dated[1]
    return None


# "how does that total compare with ...", "and vs the same months of 2019?": a comparison asked openly
_COMPARED_OPENLY = re.compile(r"\b(?:compar\w*|versus|vs\.?|against|differ\w*|change\w*)\b", re.I)


def period_record_comparison(question: str, artifacts: list[Artifact]) -> str | None:
    """"How does that total compare with the same three months of 2019?": one equipment's records over two periods
    apart, the later count against the earlier with how far it moved (and the rule behind the busier one), or None."""
    pair = _one_record_over_two_periods(question, artifacts) if _COMPARED_OPENLY.search(question) else None
    if pair is None:
        return None
    first, second = pair
    if first.value == second.value:
        return f"{first.key} had {second.text} {second.when}, the same as {first.when}."
    moved = f" ({abs(second.value - first.value) / first.value:.0%} {'more' if second.value > first.value else 'fewer'})" \
        if first.value else ""
    busier = max(pair, key=lambda s: s.value)
    return (f"{first.key} had {second.text} {second.when} against {_figure(first)} {first.when}{moved}"
            f"{_top_rule(busier, artifacts)}.")


def _top_rule(side: Side, artifacts: list[Artifact]) -> str:
    """", mostly RUL0018 Evaporator Approach High" for the busier side of an alert comparison ('' otherwise)."""
    art = next((a for a in artifacts if a.id == side.artifact_id and a.kind == "alert_rules"), None)
    rules = alert_rules(art) if art is not None else None
    fired = sorted((r for r in rules or [] if r.count), key=lambda r: -r.count)
    return f", mostly {rule_text(fired[0])}" if fired else ""
