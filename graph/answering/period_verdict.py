"""Yes/no for a sensor compared across two periods of one chiller ("was its kW/ton better a year earlier?").

Pure: the sensor the question names (graph/answering/asked_figures.py), its mean in the turn's telemetry
window and in an earlier or later window of the same chiller (this turn's or the session's), and the
comparative word of the question (better, worse, as bad, higher, lower). The period the question asks
about is the one this turn fetched; the other is what it is compared with.
"""

from __future__ import annotations

import re

from artifacts.model import Artifact
from graph.answering.asked_figures import (
    HIGHER_IS_WORSE,
    SENSOR_WORDS,
    SensorFigure,
    SensorRanking,
    asked_sensors,
    figure_text,
    sensor_figures,
    spoken_period,
)
from graph.answering.compare_terms import comparison_sense, window_phrase
from graph.answering.markdown import join_names, number
from graph.answering.yes_no import Answer, Verdict
from graph.understanding.request import MOVED_MORE, OFF_ITS_NORMAL

SAME_WITHIN = 0.02  # relative difference under which two means are "about the same"
_BETTER = re.compile(r"\b(better|improv\w*)\b", re.I)
_WORSE = re.compile(r"\b(worse|bad|poor\w*)\b", re.I)
_AS = re.compile(r"\b(this|that|as|so) (bad|high|low|poor)\b", re.I)
_HIGHER = re.compile(r"\b(higher|more|above|greater|up|harder|costlier|pricier)\b", re.I)
_LOWER = re.compile(r"\b(lower|less|below|down|smaller|cheaper)\b", re.I)


_PAST = re.compile(r"\b(earlier|last year|a year ago|previous\w*|before|prior|back then)\b", re.I)
_AGAINST = re.compile(r"\b(?:than|vs|versus|compared (?:to|with|w/)|against)(?:\b|(?<=/))", re.I)
# The question compares periods, not two sensors ("higher than setpoint"): it speaks of time.
_PERIODS = re.compile(r"\b(earlier|ago|last|previous\w*|before|prior|now|then|since|same|year|month|week|"
                      r"quarter|season|summer|winter|spring|autumn|fall|\d{4})\b", re.I)


def _pair(question: str, sensor: str, turn: list[Artifact], session: list[Artifact],
          asset: str | None = None) -> tuple[SensorFigure, SensorFigure] | None:
    """(asked period, compared period) of one asset (the first with figures unless named). A question about the past
    ("a year earlier", "last year") asks about the earliest of this turn's periods, else about the latest; it is
    compared with the other period this turn fetched, else the nearest one of the session."""
    here = sensor_figures(sensor, turn)
    if not here:
        return None
    cut = _AGAINST.search(question)  # "worse than june last year": the past is the other side, not the one asked
    past = bool(_PAST.search(question[:cut.start()] if cut else question))
    asset = asset or here[0].asset
    mine = sorted((f for f in here if f.asset == asset and f.period), key=lambda f: f.period)
    if not mine:
        return None
    asked = mine[0] if past else mine[-1]
    windows = {a.id: a for a in [*turn, *session]}

    def apart(figure: SensorFigure) -> bool:
        """Two periods to compare do not overlap: a trend's look-back around the window is not 'before'."""
        mine, theirs = windows.get(asked.artifact_id), windows.get(figure.artifact_id)
        if mine is None or theirs is None or None in (mine.window_start, mine.window_end, theirs.window_start,
                                                       theirs.window_end):
            return True
        return not (mine.window_start < theirs.window_end and theirs.window_start < mine.window_end)  # type: ignore[operator]

    def other_periods(pool: list[Artifact]) -> list[SensorFigure]:
        return sorted({f.period: f for f in sensor_figures(sensor, pool)
                       if f.asset == asset and f.period and f.period != asked.period and apart(f)}.values(),
                      key=lambda f: f.period)

    # "down this month vs july?" fetched both: the turn's other period, not an earlier look-back of the session
    others = other_periods(turn) or other_periods([*turn, *session])
    if not others:
        return None
    later = [f for f in others if f.period > asked.period]
    return asked, (_same_dates(asked, later) or later[0] if past and later else others[-1])


def _same_dates(asked: SensorFigure, candidates: list[SensorFigure]) -> SensorFigure | None:
    """The candidate over the same dates in another year ("this bad over the same period last year?" sets last
    year's window against this year's, not against another window the session read)."""
    def days(figure: SensorFigure) -> list[str]:
        return [bound[5:] for bound in figure.period.split(" to ")]
    return next((f for f in candidates if days(f) == days(asked)), None)


def _decide(question: str, sensor: str, asked: float, other: float) -> tuple[Answer, str] | None:
    """(answer, how the asked period compares) or None when the question has no comparative word."""
    change = (asked - other) / abs(other) if other else 0.0
    same = abs(change) < SAME_WITHIN
    word = "about the same as" if same else "higher than" if change > 0 else "lower than"
    if sensor == "Chiller Efficiency" and not same:  # kW/ton: lower is better (said so; other readings say which way)
        word = "worse than" if change > 0 else "better than"
    if _AS.search(question):  # "was it this bad then?": as bad or worse
        worse = change > 0 if sensor in HIGHER_IS_WORSE or _WORSE.search(question) or "high" in question.lower() \
            else change < 0
        return ("Yes" if same or worse else "No"), word
    if sensor in HIGHER_IS_WORSE and _BETTER.search(question):
        return ("Not clearly" if same else "Yes" if change < 0 else "No"), word
    if sensor in HIGHER_IS_WORSE and _WORSE.search(question):
        return ("Not clearly" if same else "Yes" if change > 0 else "No"), word
    if _HIGHER.search(question):
        return ("Not clearly" if same else "Yes" if change > 0 else "No"), word
    if _LOWER.search(question):
        return ("Not clearly" if same else "Yes" if change < 0 else "No"), word
    return None


def _said(figure: SensorFigure, artifacts: list[Artifact]) -> str:
    """"in June 2021" for a calendar window, else its dates ("2021-06-01 to 2021-06-15")."""
    spoken = spoken_period(figure, artifacts)
    return f"in {spoken}" if spoken != figure.period else spoken


def period_verdict(question: str, turn: list[Artifact], session: list[Artifact]) -> Verdict | None:
    """Yes/no on the named sensor in the asked period against the other period of the same chiller."""
    if not _PERIODS.search(question):
        return None
    pool = [*turn, *session]
    for sensor in asked_sensors(question):
        figures = sensor_figures(sensor, turn)
        periods = {asset: {f.period for f in figures if f.asset == asset} for asset in dict.fromkeys(
            f.asset for f in figures)}
        if len(periods) > 1 and all(len(p) < 2 for p in periods.values()):
            continue  # "was 3 less efficient than 4 in 2020?": two chillers side by side over one period
        judged = []
        # ("were they cheaper to run then?" after two chillers: each over its two periods)
        for asset in periods if len(periods) > 1 else [None]:
            pair = _pair(question, sensor, turn, session, asset)
            decided = _decide(question, sensor, pair[0].value, pair[1].value) if pair is not None else None
            if pair is not None and decided is not None:
                judged.append((decided, pair))
        if not judged:
            continue
        said = [f"{asked.asset}'s {asked.label.lower()} was {figure_text(asked)} {_said(asked, pool)}, {word} "
                f"{figure_text(other)} {_said(other, pool)}" for (_, word), (asked, other) in judged]
        answers = {answer for (answer, _), _ in judged}
        answer: Answer = answers.pop() if len(answers) == 1 else "Partly"
        punct = ":" if answer in ("Not clearly", "Partly") else ","
        evidence = [f"- {f.asset}, {f.period}: {figure_text(f)} [{f.artifact_id}]" if len(judged) > 1
                    else f"- {f.period}: {figure_text(f)} [{f.artifact_id}]" for _, pair in judged for f in pair]
        return Verdict(answer, f"{answer}{punct} " + "; ".join(said) + ".", evidence)
    return None


_MAX_FETCHED = 2  # a turn that fetched at most this many readings says which one the dialog is about


def _known_readings(fetched: list[str]) -> list[str]:
    """The readings (bare sensor names) a turn fetched, as the answer's sensor names, when narrow ("Tonnage"):
    what a follow-up naming no reading ("same comparison for chiller 3") is about. Empty when it fetched many."""
    if not fetched or len(set(fetched)) > _MAX_FETCHED:
        return []
    known = [sensor for _, sensor in SENSOR_WORDS]
    return [sensor for sensor in known if any(f == sensor or f.startswith(sensor) for f in fetched)]


def period_change_sentence(question: str, artifacts: list[Artifact], fetched: list[str] | None = None) -> str | None:
    """"Chiller 9 tonnage last month, and how does that stack up against June last year?": one chiller's reading
    in two periods apart, the later first with how far it moved from the earlier, in percent.

    The reading is the one the question names, else the one the turn fetched (`fetched`: bare sensor names); None unless
    the turn read exactly one chiller over two periods that do not overlap."""
    windows = [a for a in artifacts if a.kind == "telemetry_window" and a.asset_ids
               and a.window_start is not None and a.window_end is not None]
    if len({a.asset_ids[0] for a in windows}) != 1:
        return None
    by_id = {a.id: a for a in windows}
    sentences = []
    for sensor in (asked_sensors(question) or _known_readings(fetched or []))[:_MAX_FETCHED]:
        figures = list({f.period: f for f in sensor_figures(sensor, windows)}.values())
        if len(figures) != 2:
            continue
        earlier, later = sorted(figures, key=lambda f: f.period)
        first, second = by_id[earlier.artifact_id], by_id[later.artifact_id]
        if first.window_end > second.window_start:  # type: ignore[operator]
            continue  # a look-back around the window is not an earlier period
        change = (later.value - earlier.value) / abs(earlier.value) if earlier.value else 0.0
        moved = "about the same as" if abs(change) < SAME_WITHIN else \
            f"{abs(change):.0%} {'higher' if change > 0 else 'lower'} than"
        sentences.append(f"{later.asset}'s {later.label.lower()} averaged {figure_text(later)} "
                         f"{window_phrase(second)}, {moved} {number(earlier.value, earlier.unit)} "
                         f"{window_phrase(first)}.")
    return " ".join(sentences) or None


# The question sets now against another period: "worse than this time last year", "vs last May".
_AGAINST = re.compile(r"\b(than|vs\.?|versus|compared|against)\b", re.I)


# "which of the two went up more between April and May?": a pick on how far the reading moved between two periods
_BETWEEN = re.compile(r"\bbetween\b", re.I)
_DOWNWARD = re.compile(r"\b(?:down|dropped|fell|fallen|decreased|slipped)\b", re.I)


def change_ranking(question: str, artifacts: list[Artifact], reading: str | None = None) -> SensorRanking | None:
    """"Whose kW/ton is worse than this time last year?": every chiller read over the same two periods,
    ranked on how far the named reading moved the way the question asks (kW/ton: up is worse), the one that
    moved furthest that way first. None unless at least two chillers each have the reading in two periods
    that do not overlap and the question says which way."""
    moved_more = bool(MOVED_MORE.search(question)) and bool(_BETWEEN.search(question))
    if not (_AGAINST.search(question) and _PERIODS.search(question)) and not moved_more:
        return None  # a site look's baseline windows are not a comparison the question asked for
    windows = {a.id: a for a in artifacts if a.kind == "telemetry_window" and a.asset_ids
               and a.window_start is not None and a.window_end is not None}
    for sensor in (asked_sensors(question) or ([reading] if reading else []))[:1]:
        sense = ("lower" if _DOWNWARD.search(question) else "higher") if moved_more else \
            comparison_sense(question, higher_is_worse=sensor in HIGHER_IS_WORSE)
        pairs: dict[str, tuple[SensorFigure, SensorFigure]] = {}
        for asset in dict.fromkeys(w.asset_ids[0] for w in windows.values()):
            mine = list({f.period: f for f in sensor_figures(sensor, list(windows.values()))
                         if f.asset == asset}.values())
            if len(mine) != 2:
                continue
            earlier, later = sorted(mine, key=lambda f: f.period)
            if windows[earlier.artifact_id].window_end > windows[later.artifact_id].window_start:  # type: ignore[operator]
                continue
            pairs[asset] = (earlier, later)
        if sense is None or len(pairs) < 2:
            return None
        sign = 1.0 if sense == "higher" else -1.0

        moved = {a: (b.value - e.value) / abs(e.value) if e.value else 0.0 for a, (e, b) in pairs.items()}

        ranked = sorted(pairs, key=lambda a: (-sign * moved[a], a))
        that_way = [a for a in ranked if sign * moved[a] >= SAME_WITHIN]
        first_earlier, first_later = pairs[ranked[0]]
        since = window_phrase(windows[first_earlier.artifact_id])
        if since.startswith("from ") and _same_dates(first_earlier, [first_later]) is not None:
            since = f"the same days a year earlier ({since.removeprefix('from ')})"  # not "worse than from ... to ..."
        since = since.removeprefix("from ")
        word = "worse" if _WORSE.search(question) else "better" if _BETTER.search(question) else \
            ("higher" if sense == "higher" else "lower")
        lines = [f"- {a}: {figure_text(pairs[a][1])} {window_phrase(windows[pairs[a][1].artifact_id])} against "
                 f"{number(pairs[a][0].value, pairs[a][0].unit)} {window_phrase(windows[pairs[a][0].artifact_id])} "
                 f"({moved[a]:+.0%}) [{pairs[a][1].artifact_id}]" for a in ranked]
        if not that_way:
            headline = (f"None: no chiller's {first_later.label.lower()} is {word} than {since} by "
                        f"{SAME_WITHIN:.0%} or more ({ranked[0]} moved most that way, {moved[ranked[0]]:+.0%}).")
            return SensorRanking(headline, lines, ranked[0])
        top = that_way[0]
        earlier, later = pairs[top]
        rest = f"; also {join_names(that_way[1:])}" if len(that_way) > 1 else "; the others are not"
        headline = (f"{top}: its {later.label.lower()} is {abs(moved[top]):.0%} {word} than {since}, "
                    f"{figure_text(later)} against {number(earlier.value, earlier.unit)}{rest}.")
        return SensorRanking(headline, lines, top)
    return None


def off_normal_ranking(question: str, artifacts: list[Artifact]) -> SensorRanking | None:
    """"Which chiller was off its normal last month? look at power and kw/t": every chiller's named readings against
    the same readings of its own a year earlier (the turn read both), ranked on the mean move the worse way (up for
    power and kW/ton), the one furthest off first. None unless the question says "off its normal" and at least two
    chillers have each reading over two periods apart."""
    if not OFF_ITS_NORMAL.search(question):
        return None
    windows = [a for a in artifacts if a.kind == "telemetry_window" and a.asset_ids and a.window_start is not None
               and a.window_end is not None]
    moves: dict[str, list[tuple[str, float, SensorFigure, SensorFigure]]] = {}
    for sensor in asked_sensors(question) or ["Chiller Efficiency"]:
        for asset in dict.fromkeys(w.asset_ids[0] for w in windows):
            mine = sorted({f.period: f for f in sensor_figures(sensor, windows) if f.asset == asset}.values(),
                          key=lambda f: f.period)
            if len(mine) != 2 or not mine[0].value:
                continue
            earlier, later = mine
            sign = 1.0 if sensor in HIGHER_IS_WORSE else -1.0
            moves.setdefault(asset, []).append((sensor, sign * (later.value - earlier.value) / abs(earlier.value),
                                                earlier, later))
    if len(moves) < 2:
        return None
    score = {a: sum(m for _, m, _, _ in found) / len(found) for a, found in moves.items()}
    ranked = sorted(score, key=lambda a: (-score[a], a))
    top = ranked[0]
    pool = {a.id: a for a in windows}

    def said(found: list[tuple[str, float, SensorFigure, SensorFigure]]) -> str:
        return "; ".join(f"{later.label.lower()} {figure_text(later)} against {number(earlier.value, earlier.unit)} "
                         f"({(later.value - earlier.value) / abs(earlier.value):+.0%})" for _, _, earlier, later in found)
    since = window_phrase(pool[moves[top][0][2].artifact_id]).removeprefix("from ").removeprefix("in ")
    headline = f"{top} is furthest off its normal, against its own {since}: {said(moves[top])}."
    lines = [f"- {a}: {said(moves[a])}" for a in ranked]
    return SensorRanking(headline, lines, top)
