"""The figure the question asks for, read from the turn's artifacts: a sensor's mean, an alert count.

A question that names a quantity ("average load", "kW/ton", "condenser water flow", "how many alerts",
"the Evaporator Approach High rule") is only answered when that figure is in the answer. These pure
functions find which sensors and alert rules the question names (by the words a user uses for them,
never by a dialog's phrasing) and state their figures from the turn's telemetry windows and alert-rule
counts, with units and periods.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from artifacts.model import Artifact
from artifacts.readings import (
    RuleCount,
    alert_rules,
    asked_rules,
    listed_kind,
    orders_per_month,
    rule_failure_codes,
    running_mean,
    stats_of,
    top_codes,
    work_order_counts,
)
from graph.answering.compare_terms import comparison_sense, window_phrase
from graph.answering.figures import sensor_label
from graph.answering.markdown import join_names, number
from graph.understanding.identifiers import asks_rule_codes, find_rule_names, raised_rules
from graph.understanding.request import (
    BESIDES,
    COUNT_A_PERIOD,
    EACH_OF_THE_PERIODS,
    HOLDS_SETPOINT,
    PERIOD_PICKED,
    PERIODS_PICKED_AMONG,
    SETPOINT_WORD,
    THAN_EXPECTED,
    WHY_THE_CHANGE,
    asking_clause,
    asks_repeat,
    ranking_end,
)
from graph.understanding.sensors import COST_OF_RUNNING, load_only_as_condition
from graph.understanding.text import Text

# The words a user names a sensor by -> the sensor (bare name, without the asset). Order: the most
# specific first, so "kW/ton" is efficiency, not power, and "condenser water supply" is not chilled-water supply.
_NOT_CONDENSER = r"(?<!condenser water )(?<!condenser )(?<!cond water )(?<!cond )(?<!cond\. )"
SENSOR_WORDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"kw\s*(?:/|per)\s*(?:ton|tr?\b)|efficien|\b(?:cooling|tons?|tonnage) per (?:kw|kilowatt)", re.I),
     "Chiller Efficiency"),
    # ("which one pushed more condenser water through?": an amount of water moved is its flow)
    (re.compile(r"\bflow\b|\b(?:push\w*|pump\w*|mov\w*|circulat\w*)\b(?: \w+){0,2} condenser water\b|"
                r"\bcondenser water (?:\w+ )?through\b", re.I), "Condenser Water Flow"),
    (re.compile(r"refrigerant|\bevap\w*\s+(?:approach|temp\w*)|(?<!condenser )\bapproach\b", re.I),
     "Liquid Refrigerant Evaporator Temperature"),
    # ("the tower contractor was in" names a visit, not a reading: the tower's water or temperatures do)
    # ("cond return temp", "cond. supply": the condenser shortened)
    (re.compile(r"\bcond(?:enser|\.)?\s+(water\s+)?(temp|supply|return|ret\b)|\btower\s+(?:supply|return|water|temp\w*)\b",
                re.I), "Condenser Water"),
    # ("was it worked harder this July?": how hard a chiller works is its load)
    (re.compile(r"\b(load|loaded|loading)\b|\bwork(?:ed|ing|s)? harder\b|\bhow hard\b", re.I), "Chiller % Loaded"),
    (re.compile(r"\btonnage\b(?! per (?:kw|kilowatt))|\btons\b(?! per (?:kw|kilowatt))|\bof the cooling\b|"
                r"\bcooling (?:load|output|delivered)\b", re.I), "Tonnage"),
    (re.compile(r"\bpower\b|(?<!per )\bkw\b(?!\s*(?:/|per\s+t))|\bamps?\b|\bcurrent draw\b", re.I), "Power Input"),
    # (the condenser's own supply and return, written out or shortened, are not the chilled water's)
    (re.compile(_NOT_CONDENSER + r"\b(supply|leaving|chws)\b", re.I), "Supply Temperature"),
    (re.compile(_NOT_CONDENSER + r"\breturn\b(?! to)", re.I), "Return Temperature"),
    (re.compile(r"set\s?point", re.I), "Setpoint Temperature"),
)
# Words that say which way a sensor went: the lowest reading matters, not the highest.
_LOW = re.compile(r"\b(down|low\w*|drop\w*|fall\w*|fell|short|less|reduced|starv\w*|weak\w*)\b", re.I)
_COUNT = re.compile(r"\b(how many|how often|number of|count)\b", re.I)
_ALERTS = re.compile(r"\b(alerts?|alarms?|rules?)\b", re.I)
MAX_ASKED = 3  # sensors stated per answer (a question rarely names more)
# Readings where a higher figure is the worse one: kW/ton (more power per ton of cooling), the power drawn, and the
# water leaving the evaporator or entering the condenser warmer
HIGHER_IS_WORSE = frozenset({"Chiller Efficiency", "Power Input", "Supply Temperature",
                             "Condenser Water Supply To Chiller Temperature"})


# Sensors some words only point at: "losing refrigerant" names a fault whose evidence is this reading,
# not the reading itself; only these words name the measure.
_MEASURE_WORDS = {"Liquid Refrigerant Evaporator Temperature":
                  re.compile(r"refrigerant\s+(?:evap\w*\s+)?temp|\bevap\w*\s+(?:temp|approach)|\bapproach\b", re.I)}


def names_measure(question: str, sensor: str) -> bool:
    """True when the question names the sensor's reading itself, not a fault or part it is evidence of."""
    words = _MEASURE_WORDS.get(sensor)
    return words is None or bool(words.search(question))


def asked_sensors(question: str) -> list[str]:
    """The sensors (bare names) the question names, in the order of SENSOR_WORDS, at most MAX_ASKED."""
    # as typed and as normalised ("evap aproach" -> "evaporator approach", "kw per ton" spelled out)
    text = Text.of(question)
    normalised = " ".join(text.tokens)
    found = [sensor for pattern, sensor in SENSOR_WORDS if pattern.search(question) or pattern.search(normalised)]
    if COST_OF_RUNNING.search(normalised):  # "were they cheaper to run then?": the power they drew
        found.append("Power Input")
    if load_only_as_condition(text):  # "avg while loaded in aug vs june?": the samples while it ran, not its load
        found = [s for s in found if s != "Chiller % Loaded"]
    return list(dict.fromkeys(found))[:MAX_ASKED]


def _matches(bare: str, sensor: str) -> bool:
    return bare == sensor or (sensor == "Condenser Water" and bare.startswith(sensor) and "Temperature" in bare)


@dataclass(frozen=True)
class SensorFigure:
    """One sensor's mean over one window of one asset (while running where the window says)."""

    asset: str
    label: str  # as shown: "Efficiency", "Condenser Water Flow"
    value: float
    unit: str
    period: str  # "2021-04-01 to 2021-05-01"
    running: bool
    artifact_id: str


def _period(art: Artifact) -> str:
    if art.window_start is None or art.window_end is None:
        return ""
    return f"{art.window_start:%Y-%m-%d} to {art.window_end:%Y-%m-%d}"


def sensor_figures(sensor: str, artifacts: list[Artifact], *, overall: bool = False) -> list[SensorFigure]:
    """The sensor's mean in each telemetry window of the turn (windows in the given order): while running, or
    with `overall` over every sample (the share of the site's cooling a chiller carried counts its idle hours)."""
    found = []
    for art in artifacts:
        if art.kind != "telemetry_window" or not art.asset_ids:
            continue
        asset = art.asset_ids[0]
        for name, entry in stats_of(art).items():
            bare = name.removeprefix(f"{asset} ")
            value = entry.get("mean") if overall else running_mean(entry)
            if _matches(bare, sensor) and isinstance(value, (int, float)) and entry.get("count") != 0:
                found.append(SensorFigure(asset, sensor_label(name, asset), float(value),
                                          str(entry.get("unit") or ""), _period(art),
                                          not overall and entry.get("running_mean") is not None, art.id))
                break
    return found


# "which chiller carried most of the cooling?": a share of the site's total, idle hours included (a quantity, not
# how hard it works while on)
# ("which chiller burned the most kWh?": energy is power summed over every hour, idle ones too)
_SHARE_OF_TOTAL = re.compile(r"\bkwh\b|\benergy\b|\b(?:most|least|bulk|majority|lion's share) of the\b|\b(?:in total|all told|overall total|"
                             r"total)\b", re.I)
_EXTENSIVE = frozenset({"Tonnage", "Power Input"})


def _latest_per_asset(figures: list[SensorFigure], artifacts: list[Artifact]) -> list[SensorFigure]:
    """One figure per asset: its newest window (an earlier one is a baseline the answer compares with)."""
    ends = {a.id: a.window_end for a in artifacts}
    best: dict[str, SensorFigure] = {}
    for fig in figures:
        kept = best.get(fig.asset)
        end, kept_end = ends.get(fig.artifact_id), ends.get(kept.artifact_id) if kept else None
        if kept is None or (end is not None and (kept_end is None or end > kept_end)):
            best[fig.asset] = fig
    return list(best.values())


def figure_text(fig: SensorFigure) -> str:
    """`0.48 kW/ton while running`."""
    return number(fig.value, fig.unit) + (" while running" if fig.running else "")


_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _stated(value: float, text: str) -> bool:
    """Whether `text` already states `value` (to the precision either side writes it)."""
    tolerance = max(abs(value) * 0.005, 0.006)
    return any(abs(float(m.group().replace(",", "")) - abs(value)) <= tolerance for m in _NUMBER.finditer(text))


def _sources_of_narrower_reads(artifacts: list[Artifact]) -> set[str]:
    """Telemetry windows the turn read a narrower stretch out of ("the hour before it dropped" is cut from the
    days fetched before): the figure asked is the narrow one's, not the source's mean over its wider window."""
    def span(art: Artifact) -> tuple[datetime, datetime] | None:
        return (art.window_start, art.window_end) if art.window_start and art.window_end else None

    points = [(p, s) for p in artifacts if p.kind == "point_values" and (s := span(p))]
    return {a.id for a in artifacts if a.kind == "telemetry_window" and (w := span(a))
            and any(set(p.asset_ids) & set(a.asset_ids) and w[0] <= s[0] and s[1] <= w[1] and s != w for p, s in points)}


def asked_figure_lines(question: str, artifacts: list[Artifact], already: str = "") -> list[str]:
    """A bullet per sensor the question names: its mean per asset (or per period for one asset), unless
    the answer (`already`) states those figures."""
    return figure_lines(asked_sensors(question), artifacts, already)


def figure_lines(sensors: list[str], artifacts: list[Artifact], already: str = "") -> list[str]:
    """A bullet per sensor (bare name): its mean per asset (or per period for one asset), unless `already` (the
    answer so far) states those figures."""
    sources = _sources_of_narrower_reads(artifacts)
    artifacts = [a for a in artifacts if a.id not in sources]
    lines = []
    for sensor in sensors:
        figures = sensor_figures(sensor, artifacts)
        if not figures:
            continue
        assets = {f.asset for f in figures}
        shown = figures if len(assets) == 1 else _latest_per_asset(figures, artifacts)
        shown = list({(f.asset, f.period): f for f in shown}.values())[:6]
        if all(_stated(f.value, already) for f in shown):
            continue
        running = all(f.running for f in shown)
        head = f"- {shown[0].label} (mean{' while running' if running else ''})"
        if len(shown) == 1:
            f = shown[0]
            lines.append(f"{head}: {f.asset} {number(f.value, f.unit)}" + (f", {f.period}" if f.period else "")
                         + f" [{f.artifact_id}]")
            continue
        by_period = len(assets) == 1
        parts = [(f"{f.period}" if by_period else f.asset) + f" {number(f.value, f.unit)}" for f in shown]
        lines.append(f"{head}" + (f", {shown[0].asset}" if by_period else "") + ": " + "; ".join(parts))
    return lines


@dataclass(frozen=True)
class SensorRanking:
    """Assets ranked on the sensor the question names, the one that matters first."""

    headline: str
    lines: list[str]
    first: str  # the asset that leads


# "which one ran more efficiently?", "the better of the two": the good end of a higher-is-worse reading.
_GOOD = re.compile(r"\b(?:more|most) efficient\w*|\b(?:better|best|healthier|healthiest|cheaper|cheapest|lower|lowest)\b|"
                   r"\b(?:more|most) (?:cooling|tons?|tonnage) per (?:kw|kilowatt)",
                   re.I)


# Trouble with a reading, said without a direction ("a problem with its condenser flow", "acting up")
_TROUBLE = re.compile(r"\b(?:problems?|issues?|trouble|wrong|abnormal\w*|unsettled|odd|weird|acting up|anomal\w*|"
                      r"unstable|erratic|misbehav\w*)\b", re.I)
_DIRECTION = re.compile(r"\b(?:high\w*|low\w*|most|least|more|less|worst|best|drop\w*|fall\w*|fell|ris\w*|rose|"
                        r"up|down|hot\w*|cold\w*|warm\w*|cool\w*|efficien\w*|inefficien\w*|short|starv\w*|weak\w*)\b",
                        re.I)


def sensor_ranking(question: str, artifacts: list[Artifact], *, measure_only: bool = False,
                   reading: str | None = None) -> SensorRanking | None:
    """Which asset stands out on the sensor the question names ("less efficient", "flow is down"), else on
    `reading` (the one the turn fetched: "same for ch6" after tonnage): lowest first when the question says the
    reading went down, else highest (kW/ton: highest is worst). A question naming several sensors wants them
    side by side (the comparison table), not a ranking."""
    if _TROUBLE.search(question) and not _DIRECTION.search(question):
        return None  # "which one had a problem with its condenser flow?": trouble, not the highest level, picks
    named = asked_sensors(question)
    if measure_only:  # the pick goes by the reading only where the question names the reading
        named = [n for n in named if names_measure(question, n)]
    named = named or ([reading] if reading else [])
    beyond_normal = named == ["Power Input"] and bool(THAN_EXPECTED.search(question)) \
        and len(sensor_figures("Chiller Efficiency", artifacts)) >= 2
    if beyond_normal:  # "pulling more kW than it should": power for the cooling it gives, not the biggest machine's draw
        named = ["Chiller Efficiency"]
    for sensor in named if len(named) == 1 else []:
        overall = sensor in _EXTENSIVE and bool(_SHARE_OF_TOTAL.search(question))
        figures = _latest_per_asset(sensor_figures(sensor, artifacts, overall=overall), artifacts)
        if len(figures) < 2:
            continue
        # kW/ton: the worst (highest) leads unless the question asks for the better one or the lower figure
        best_first = sensor in HIGHER_IS_WORSE and bool(_GOOD.search(question))
        low_first = best_first or (sensor not in HIGHER_IS_WORSE and bool(_LOW.search(question)))
        figures.sort(key=lambda f: (f.value if low_first else -f.value, f.asset))
        top, rest = figures[0], figures[1:]
        others = "; ".join(f"{f.asset} {number(f.value, f.unit)}" for f in rest)
        said = ("runs most efficiently" if best_first else "draws the most power for the cooling it gives" if
                beyond_normal else "runs least efficiently") if sensor == "Chiller Efficiency" \
            else f"has the {'lowest' if low_first else 'highest'} {top.label.lower()}"
        over_all = " averaged over every hour, idle ones included" if overall else ""  # (a share of the total)
        headline = f"{top.asset} {said}{over_all}: {figure_text(top)} ({others})."
        lines = [f"- {f.asset}: {figure_text(f)}" + (f", {f.period}" if f.period else "") + f" [{f.artifact_id}]"
                 for f in figures]
        return SensorRanking(headline, lines, top.asset)
    return None


# "was that one also the worst in June 2020?", "is 9 still the most efficient?": whether one asset tops a ranking.
_TOP_ASKED = re.compile(r"\b(?:the|our) (worst|best|least efficient|most efficient|highest|lowest)\b|"
                        # "was 6 also on top a year earlier?": the top of the ranking made before, its highest
                        r"\b(?:on|at the) (top)\b", re.I)


def rank_place(question: str, artifacts: list[Artifact], subject: str | None,
               readings: list[str]) -> tuple[Literal["Yes", "No"], str, list[str]] | None:
    """Yes when `subject` tops the ranking the question asks for ("the worst"), on the reading it names, else the
    first of `readings` (the dialog's): the figures of every asset the turn read, over one window. None without a
    subject, a superlative, or two assets' figures of that reading."""
    asked = _TOP_ASKED.search(question)
    if subject is None or asked is None:
        return None
    named = [n for n in asked_sensors(question) if names_measure(question, n)]
    word = "highest" if asked.group(2) else asked.group(1).lower()
    # ("has it always been the worst?" after the worst kW/ton: of the dialog's readings, "worst" is its efficiency)
    judged = [r for r in readings if r in HIGHER_IS_WORSE] if word in ("worst", "best") else []
    sensor = named[0] if len(named) == 1 else next(iter(judged or readings), None)
    if sensor is None:
        return None
    figures = _latest_per_asset(sensor_figures(sensor, artifacts), artifacts)
    if len(figures) < 2 or subject not in {f.asset for f in figures}:
        return None
    # kW/ton: the worst is the highest; for any other reading "worst" is read as the highest too
    highest_first = word in ("worst", "least efficient", "highest") if sensor in HIGHER_IS_WORSE or word in (
        "highest", "lowest") else word in ("worst", "least efficient")
    figures.sort(key=lambda f: (-f.value if highest_first else f.value, f.asset))
    top = figures[0]
    mine = next(f for f in figures if f.asset == subject)
    by_id = {a.id: a for a in artifacts}
    when = window_phrase(by_id[top.artifact_id]) if top.artifact_id in by_id else ""
    label = top.label.lower()
    lines = [f"- {f.asset}: {figure_text(f)} [{f.artifact_id}]" for f in figures]
    if top.asset == subject:
        rest = "; ".join(f"{f.asset} {number(f.value, f.unit)}" for f in figures[1:])
        return "Yes", f"Yes, {subject} was the {word} on {label} {when}: {figure_text(mine)} ({rest}).", lines
    return "No", (f"No, {top.asset} was the {word} on {label} {when}: {figure_text(top)}, against "
                  f"{number(mine.value, mine.unit)} on {subject}."), lines


_ABOVE = re.compile(r"\b(above|over|high\w*|hot|warm\w*|can't hold|cannot hold|won't hold|not holding|drift\w*)\b", re.I)


def _setpoint_offsets(artifacts: list[Artifact]) -> tuple[dict[str, SensorFigure], dict[str, SensorFigure],
                                                          dict[str, float]]:
    """Each chiller's latest running supply and setpoint figures, and supply minus setpoint."""
    supply = {f.asset: f for f in _latest_per_asset(sensor_figures("Supply Temperature", artifacts), artifacts)
              if f.running}
    setpoint = {f.asset: f for f in _latest_per_asset(sensor_figures("Setpoint Temperature", artifacts), artifacts)
                if f.running}
    return supply, setpoint, {asset: supply[asset].value - setpoint[asset].value for asset in supply if asset in setpoint}


# "is the supply-minus-setpoint offset growing from December to February?": the offset's change between two periods
_OFFSET_MOVING = re.compile(r"\b(?:grow\w*|grew|increas\w*|widen\w*|ris\w*|rose|climb\w*|getting (?:bigger|larger|worse|wider)|"
                            r"shrink\w*|shrank|narrow\w*|decreas\w*|clos\w*|getting (?:smaller|better))\b", re.I)
_OFFSET_SHRINKING = re.compile(r"\b(?:shrink\w*|shrank|narrow\w*|decreas\w*|clos\w*|getting (?:smaller|better))\b", re.I)
OFFSET_MOVED = 0.1  # degF: a change of the offset smaller than this is no change
_SETPOINT_NAMED = re.compile(r"\b" + SETPOINT_WORD + r"\b", re.I)


def setpoint_offset_change(question: str, artifacts: list[Artifact]) -> tuple[Literal["Yes", "No"], str, list[str]] | None:
    """(answer, sentence, evidence) for "is the supply-minus-setpoint offset growing from December to February?": one
    chiller's supply minus setpoint while running in its earliest and latest periods read (a window spanning others
    is left out). None unless the question asks how the offset moves and two periods hold both running means."""
    if not (_SETPOINT_NAMED.search(question) and _OFFSET_MOVING.search(question)):
        return None
    by_id = {a.id: a for a in artifacts if a.kind == "telemetry_window" and a.window_start and a.window_end}
    supply = {f.artifact_id: f for f in sensor_figures("Supply Temperature", list(by_id.values())) if f.running}
    setpoint = {f.artifact_id: f for f in sensor_figures("Setpoint Temperature", list(by_id.values())) if f.running}
    both = [by_id[i] for i in supply if i in setpoint]
    if len({", ".join(a.asset_ids) for a in both}) != 1:
        return None
    spans: dict[tuple[datetime, datetime], Artifact] = {
        (a.window_start, a.window_end): a for a in both if a.window_start is not None and a.window_end is not None}
    inner = [a for key, a in spans.items() if not any(other != key and key[0] <= other[0] and other[1] <= key[1]
                                                      for other in spans)]
    if len(inner) < 2:
        return None
    ordered = sorted(inner, key=lambda a: str(a.window_start))
    first, last = ordered[0], ordered[-1]
    before = supply[first.id].value - setpoint[first.id].value
    after = supply[last.id].value - setpoint[last.id].value
    shrinking = bool(_OFFSET_SHRINKING.search(question))
    moved = after - before
    answer: Literal["Yes", "No"] = "Yes" if (moved <= -OFFSET_MOVED if shrinking else moved >= OFFSET_MOVED) else "No"
    unit = supply[last.id].unit
    way = "grew" if moved >= OFFSET_MOVED else "shrank" if moved <= -OFFSET_MOVED else "held"
    asset = ", ".join(last.asset_ids)
    sentence = (f"{answer}, {asset}'s supply-minus-setpoint offset {way} from {before:+.1f} {unit} "
                f"{window_phrase(first)} to {after:+.1f} {unit} {window_phrase(last)} while running.")
    lines = [f"- {window_phrase(a)}: supply {number(supply[a.id].value, unit)}, setpoint "
             f"{number(setpoint[a.id].value, unit)} [{a.id}]" for a in (first, last)]
    return answer, sentence.replace("  ", " "), lines


def setpoint_offset_ranking(question: str, artifacts: list[Artifact]) -> SensorRanking | None:
    """"The leaving chilled water keeps drifting above setpoint - which unit?": the chillers ranked on how
    far their supply temperature sits from their own setpoint while running (a chiller that was off in the
    window has no running figure and is left out, its idle water temperature says nothing)."""
    named = asked_sensors(question)
    if "Setpoint Temperature" not in named or "Supply Temperature" not in named:
        return None
    supply, setpoint, offsets = _setpoint_offsets(artifacts)
    if len(offsets) < 2:
        return None
    above = bool(_ABOVE.search(question))
    ranked = sorted(offsets, key=lambda a: (-offsets[a] if above else -abs(offsets[a]), a))
    top = ranked[0]
    unit = supply[top].unit
    others = "; ".join(f"{a} {offsets[a]:+.1f} {unit}" for a in ranked[1:])
    headline = (f"{top} runs furthest {'above' if above or offsets[top] >= 0 else 'below'} its setpoint: supply "
                f"{number(supply[top].value, unit)} against {number(setpoint[top].value, unit)} while running "
                f"({offsets[top]:+.1f} {unit}; {others}).")
    lines = [f"- {a}: supply {number(supply[a].value, unit)}, setpoint {number(setpoint[a].value, unit)} while "
             f"running ({offsets[a]:+.1f} {unit}) [{supply[a].artifact_id}]" for a in ranked]
    left_out = sorted({f.asset for f in sensor_figures("Supply Temperature", artifacts)} - set(offsets))
    if left_out:
        lines.append(f"- {join_names(left_out)}: not running in this window, left out")
    return SensorRanking(headline, lines, top)


# "Was the CHWST holding setpoint in July?": a running mean within this of the setpoint's holds it (the alert rule
# fires at 2 degF for an hour; a month's mean 1 degF off is a chiller that did not keep up).
SETPOINT_HELD = 1.0


def setpoint_held(question: str, artifacts: list[Artifact]) -> tuple[Literal["Yes", "No"], str, list[str]] | None:
    """(answer, sentence, evidence) for "was the CHWST holding setpoint?": each chiller's supply against its own
    setpoint while running; None unless the question asks it and a window holds both running means."""
    if not HOLDS_SETPOINT.search(question):
        return None
    supply, setpoint, offsets = _setpoint_offsets(artifacts)
    if not offsets:
        return None
    unit = next(iter(supply.values())).unit
    off = {a: o for a, o in offsets.items() if abs(o) > SETPOINT_HELD}
    lines = [f"- {a}: supply {number(supply[a].value, unit)}, setpoint {number(setpoint[a].value, unit)} while "
             f"running ({offsets[a]:+.1f} {unit}) [{supply[a].artifact_id}]" for a in sorted(offsets)]
    when = supply[next(iter(offsets))].period
    if not off:
        said = join_names([f"{a} {number(supply[a].value, unit)} against {number(setpoint[a].value, unit)}"
                           for a in sorted(offsets)])
        return "Yes", f"Yes, the chilled-water supply held setpoint over {when} while running: {said}.", lines
    said = join_names([f"{a} ran {abs(o):.1f} {unit} {'above' if o > 0 else 'below'} it" for a, o in sorted(off.items())])
    return "No", f"No, not everywhere over {when}: {said} (within {SETPOINT_HELD:g} {unit} counts as held).", lines


# "its setpoint is 43 - is the supply sitting above that while it runs?": the side of the setpoint asked about.
_SIDE_OF_SETPOINT = re.compile(r"\b(above|over|higher than|warmer than|hotter than|below|under|lower than|colder than|"
                               r"cooler than) (?:that|it|this|(?:its |the )?" + SETPOINT_WORD + r")\b", re.I)


def spoken_period(fig: SensorFigure, artifacts: list[Artifact]) -> str:
    """The figure's window as people say it ("May 2020") where it is a calendar unit, else its dates."""
    art = next((a for a in artifacts if a.id == fig.artifact_id), None)
    phrase = window_phrase(art) if art is not None else ""
    return phrase.removeprefix("in ") if phrase.startswith("in ") else fig.period


def setpoint_side(question: str, artifacts: list[Artifact]) -> tuple[Literal["Yes", "No"], str, list[str]] | None:
    """(answer, sentence, evidence) for "is the supply sitting above setpoint?": yes where every chiller read ran more
    than SETPOINT_HELD on that side of its own setpoint while running; None unless the question speaks of the
    setpoint and a side, and a window holds both running means."""
    side = _SIDE_OF_SETPOINT.search(question)
    if side is None or not re.search(rf"\b{SETPOINT_WORD}\b", question, re.I):  # ("above sp?")
        return None
    supply, setpoint, offsets = _setpoint_offsets(artifacts)
    if not offsets:
        return None
    above = side.group(1).lower() in ("above", "over", "higher than", "warmer than", "hotter than")
    unit = next(iter(supply.values())).unit
    lines = [f"- {a}: supply {number(supply[a].value, unit)}, setpoint {number(setpoint[a].value, unit)} while "
             f"running ({offsets[a]:+.1f} {unit}) [{supply[a].artifact_id}]" for a in sorted(offsets)]
    said = join_names([f"{a}'s supply averaged {number(supply[a].value, unit)} against its "
                       f"{number(setpoint[a].value, unit)} setpoint ({abs(o):.1f} {unit} {'above' if o > 0 else 'below'})"
                       for a, o in sorted(offsets.items())])
    when = spoken_period(supply[next(iter(offsets))], artifacts)
    on_that_side = all((o if above else -o) > SETPOINT_HELD for o in offsets.values())
    answer: Literal["Yes", "No"] = "Yes" if on_that_side else "No"
    span = f"from {when}" if when[:1].isdigit() else f"in {when}"  # ("from 2020-06-01 to 2020-09-01", "in May 2020")
    return answer, f"{answer}, {said} while running {span}.", lines




_BARE_PICK = re.compile(r"^(?:so |and |ok |okay |right )*(?:which|what) (?:one )?(?:was|is|looks?|looked|were|seems?|"
                        r"seemed) (?:the )?(?:worse|better|worst|best|healthier|higher|lower)\b")


def period_pick(question: str, artifacts: list[Artifact]) -> SensorRanking | None:
    """"Which of the two months looks healthier?": one chiller over several periods, the period picked on
    the sensor the question names (else kW/ton): lowest kW/ton is healthiest, unless it asks for the worse."""
    # "fouling or refrigerant?" picks a cause, not a period; "which was worse?" with nothing named picks among
    # what the turn read (one chiller over two periods, below)
    if not PERIOD_PICKED.search(question) and not PERIODS_PICKED_AMONG.search(question) \
            and not (_BARE_PICK.search(Text.of(question).joined)
                                                  and not any(a.kind == "diagnose" for a in artifacts)):
        return None
    named = [n for n in asked_sensors(question) if names_measure(question, n)]
    sensor = named[0] if len(named) == 1 else "Chiller Efficiency"
    by_period: dict[str, SensorFigure] = {}
    for fig in sensor_figures(sensor, artifacts):
        if fig.period:
            by_period[fig.period] = fig
    figures = list(by_period.values())
    if len(figures) < 2 or len({f.asset for f in figures}) != 1:
        return None
    higher_worse = sensor in HIGHER_IS_WORSE or not _LOW.search(question)
    worse = "higher" if higher_worse else "lower"
    healthier = "lower" if higher_worse else "higher"
    end = ranking_end(question.lower())  # "which one had the worst kW/ton?" asks for the bad end
    asked = worse if end == "bad" else healthier if end == "good" else \
        comparison_sense(question, higher_is_worse=higher_worse) or healthier  # "healthier" unless it says
    figures.sort(key=lambda f: -f.value if asked == "higher" else f.value)
    top, rest = figures[0], figures[1:]
    word = "worse" if asked == worse else "healthier"

    def said(fig: SensorFigure) -> str:
        return spoken_period(fig, artifacts)

    headline = (f"{said(top)} looks {word} on {top.label.lower()}: {figure_text(top)} against "
                + "; ".join(f"{number(f.value, f.unit)} in {said(f)}" for f in rest) + f" ({top.asset}).")
    lines = [f"- {said(f)}: {figure_text(f)} [{f.artifact_id}]" for f in figures]
    return SensorRanking(headline, lines, top.period)


def named_rules(question: str, rules: list[RuleCount]) -> list[RuleCount]:
    """The alert rules the question names, by id ("RUL0018") or by the words of their name, read as
    `find_rule_names` reads them in a question about alerts."""
    lowered = question.lower()
    by_name = set(find_rule_names(Text.of(question), [(r.rule_id, r.rule_name) for r in rules], loose=True))
    return [r for r in rules if r.rule_id.lower() in lowered or r.rule_id in by_name]


def rule_text(rule: RuleCount) -> str:
    """`RUL0018 Evaporator Approach High`."""
    name = rule.rule_name.removeprefix("Chiller - ")
    return f"{rule.rule_id} {name}".strip() if name and name != rule.rule_id else rule.rule_id


HEADLINE_SENSORS = ("Chiller Efficiency", "Power Input", "Tonnage")  # how a chiller ran, when no sensor is named
_RULE_ID = re.compile(r"\bRUL\d{3,5}\b", re.I)


def rule_meaning_sentence(question: str, artifacts: list[Artifact]) -> str | None:
    """"What does RUL0018 mean?": the rule's name, then where and how often it fired over the turn's counts.
    None unless the question names a rule by its id and the counts hold it."""
    asked = {m.group(0).upper() for m in _RULE_ID.finditer(question)}
    if not asked:
        return None
    counted = [(a, r) for a in artifacts if a.kind == "alert_rules" for r in alert_rules(a) or []
               if r.rule_id.upper() in asked]
    if not counted:
        return None
    rule = counted[0][1]
    name = rule.rule_name.removeprefix("Chiller - ") or rule.rule_id
    where = sorted(((", ".join(a.equipment_ids or a.asset_ids), r.count) for a, r in counted if r.count),
                   key=lambda pair: -pair[1])
    if not where:
        fired = "it did not fire on these chillers in this period"
    elif len(where) == 1:
        fired = f"it fired {where[0][1]} times, all on {where[0][0]}"
    else:
        fired = (f"it fired {sum(n for _, n in where)} times: " + join_names([f"{eq} {n}" for eq, n in where[:4]])
                 + (f" and {len(where) - 4} more" if len(where) > 4 else ""))
    return f"{rule.rule_id} is the {name} alert rule ({rule.rule_name or rule.rule_id}); {fired}."


def rule_codes_sentence(question: str, artifacts: list[Artifact]) -> str | None:
    """"Which failure codes is that rule tied to?": the codes the rule the question names or points at maps to,
    then how often it fired. The rule is the one named, else the one the dialog asked about, else the one that
    fired most. None when the listing carries no mapping for it."""
    listings = [a for a in artifacts if a.kind == "alert_rules" and rule_failure_codes(a)]
    if not listings or not asks_rule_codes(question):
        return None
    counted = [(a, r) for a in listings for r in alert_rules(a) or []]
    named = {r.rule_id for r in named_rules(question, [r for _, r in counted])}
    asked = {rule for a in listings for rule in asked_rules(a)}
    fired: dict[str, int] = {}
    for _, rule in counted:
        fired[rule.rule_id] = fired.get(rule.rule_id, 0) + rule.count
    rule_id = next(iter(sorted(named or asked)), None) or (max(fired, key=lambda r: (fired[r], r)) if fired else None)
    if rule_id is None:
        return None
    codes = next((rule_failure_codes(a)[rule_id] for a in listings if rule_failure_codes(a).get(rule_id)), [])
    chosen = next((r for _, r in counted if r.rule_id == rule_id), None)
    if not codes or chosen is None:
        return None
    where = sorted(((", ".join(a.equipment_ids or a.asset_ids), r.count) for a, r in counted
                    if r.rule_id == rule_id and r.count), key=lambda pair: -pair[1])
    when = window_phrase(listings[0])
    fired_text = (f"; it fired {sum(n for _, n in where)} times on {join_names([eq for eq, _ in where[:4]])}"
                  + (f" {when}" if when else "")) if where else ""
    return (f"{rule_text(chosen)} points at {join_names(codes)} (the site's mapping of alert rules to failure codes)"
            f"{fired_text}.")


# "... compared with last year? Did those go up as well?": which way the count moved is asked too.
_WENT = re.compile(r"\b(?:go|went|gone|going) (?:up|down)\b|\b(?:rise|rose|risen|increase\w*|decrease\w*|drop\w*|fall|fell)\b",
                   re.I)


def _moved_between(question: str, counted: list[tuple[Artifact, list[RuleCount]]]) -> str | None:
    """"Yes, alerts on {where} went up from 68 in 2018 to 86 in 2019.": two periods' counts, earlier first, when the
    question asks which way they moved ("{where}" is filled in by the caller); None otherwise."""
    if len(counted) != 2 or not _WENT.search(question):
        return None
    (early, early_rules), (late, late_rules) = sorted(counted, key=lambda pair: str(pair[0].window_start))
    before, after = sum(r.count for r in early_rules), sum(r.count for r in late_rules)
    way = "up" if after > before else "down" if after < before else "no higher or lower"
    asked_down = comparison_sense(question, higher_is_worse=False) == "lower"
    answer = "Yes" if (after < before if asked_down else after > before) else "No"
    return (f"{answer}, alerts on {{where}} went {way} from {before} {window_phrase(early)} to {after} "
            f"{window_phrase(late)}.").replace("  ", " ")


_RANKING = re.compile(r"\b(?:rank|ranked|ranking|sort|sorted)\b", re.I)


# "vs this spring", "and compared with last year?": a follow-up that sets the count just given against another period
_VERSUS_ALONE = re.compile(r"^\s*(?:(?:and|so|ok|what about|how about)\s+)?(?:vs\.?|versus|against|compared (?:to|with)|"
                           r"relative to)\b", re.I)


_ORDERS = re.compile(r"\b(?:work ?orders?|wos?|jobs?|tickets?|repairs?|correctives?|preventives?|pms?)\b", re.I)


def site_order_count_sentence(question: str, artifacts: list[Artifact]) -> str | None:
    """"Site-wide, how many corrective work orders were closed in 2020?": the count over every equipment id listed,
    then each one's, most first. None unless the question counts work orders over several equipment ids of one period
    (a pick, "which had the most?", names one of them instead)."""
    listed = [a for a in artifacts if a.kind == "work_order_summary"]
    where = {", ".join(a.equipment_ids or a.asset_ids) for a in listed}
    if not _COUNT.search(question) or not _ORDERS.search(question) or len(where) < 2 or _RANKING.search(question) \
            or len({(a.window_start, a.window_end) for a in listed}) != 1:
        return None
    kinds = {listed_kind(a) for a in listed}
    kind = f"{kinds.pop()} " if len(kinds) == 1 and kinds != {"all"} else ""
    counted = {}
    for art in listed:
        counts = work_order_counts(art)
        counted[", ".join(art.equipment_ids or art.asset_ids)] = (counts.corrective if kind == "corrective " else
                                                                  counts.total) or 0
    total = sum(counted.values())
    each = ", ".join(f"{name} {n}" for name, n in sorted(counted.items(), key=lambda kv: (-kv[1], kv[0])))
    return (f"{total} {kind}work order{'s' if total != 1 else ''} across the {len(counted)} equipment ids "
            f"{window_phrase(listed[0])}: {each}.").replace("  ", " ")


def alert_count_sentence(question: str, artifacts: list[Artifact]) -> str | None:
    """For a question about alerts ("how many alerts", a named rule): the count first, per equipment,
    the named rule's own count when the question names one. None when the turn has no alert counts."""
    counted = [(a, rules) for a in artifacts if a.kind == "alert_rules" and (rules := alert_rules(a)) is not None]
    if _RANKING.search(question) and len({", ".join(a.equipment_ids or a.asset_ids) for a, _ in counted}) > 1:
        return None  # "rank the chillers by how many alerts they threw": the ranking leads, not the total
    raised = raised_rules(Text.of(question), [(r.rule_id, r.rule_name) for _, rules in counted for r in rules])
    versus = len({(a.window_start, a.window_end) for a, _ in counted}) > 1 and bool(_VERSUS_ALONE.search(question))
    if not _ALERTS.search(question) and not raised and not versus \
            and not (asks_repeat(question.lower()) and any(asked_rules(a) for a, _ in counted)):
        return None  # ("same breakdown for 9" after load low alarms: the rule asked about is the listing's own;
        # "it keeps flagging setpoint attainment, how many?" says a rule's alerts by the verb)
    parts = []
    # a rule the question names is counted on every equipment id, 0 where it did not fire (or does not exist); "those
    # two alarms" are the rules asked about before (the listing records them)
    named_ids = {r.rule_id: r for _, rules in counted for r in named_rules(question, rules)} or {
        r.rule_id: r for art, rules in counted for r in rules if r.rule_id in asked_rules(art)}
    named_total = 0
    for art, rules in counted:
        where = ", ".join(art.equipment_ids or art.asset_ids)
        if named_ids:
            here = {r.rule_id: r for r in rules}
            for rule_id, rule in named_ids.items():
                count = here[rule_id].count if rule_id in here else 0
                named_total += count
                parts.append(f"{rule_text(rule)} fired {count} time{'s' if count != 1 else ''} on {where}")
            continue
        total, fired = sum(r.count for r in rules), sum(1 for r in rules if r.count)
        parts.append(f"{total} alert{'s' if total != 1 else ''} on {where} from {fired} rule{'s' if fired != 1 else ''}")
    if not parts or (not _COUNT.search(question) and not named_ids and not versus):
        return None
    one_id = len({", ".join(a.equipment_ids or a.asset_ids) for a, _ in counted}) == 1
    if len(counted) > 1 and named_ids and one_id:
        # one equipment id over several periods ("how many load low a year since 2017?"): the rule's count per period
        where = ", ".join(counted[0][0].equipment_ids or counted[0][0].asset_ids)
        ordered = sorted(counted, key=lambda pair: str(pair[0].window_start))
        counts = [(sum(r.count for r in rules if r.rule_id in named_ids), art) for art, rules in ordered]
        when = [f"{n} {window_phrase(art)}".strip() for n, art in counts]
        rule_names = join_names([rule_text(r) for r in named_ids.values()])
        total = sum(n for n, _ in counts)
        return (f"{rule_names} fired {total} time{'s' if total != 1 else ''} on {where}: " + join_names(when)
                + ".")
    if len(counted) > 1 and named_ids:  # several equipment ids: the rule's total leads
        rule_names = join_names([rule_text(r) for r in named_ids.values()])
        busiest = [p for p in parts if " fired 0 times" not in p]
        return (f"{rule_names} fired {named_total} time{'s' if named_total != 1 else ''} in all"
                + (": " + join_names(busiest[:4]) if busiest else "") + ".")
    if len(counted) > 1 and one_id:
        # one equipment id over several periods ("this month vs last"): each period's count, no sum
        when = [f"{sum(r.count for r in rules)} {window_phrase(art)}".strip() for art, rules in counted]
        where = ", ".join(counted[0][0].equipment_ids or counted[0][0].asset_ids)
        moved = _moved_between(question, counted)
        return moved.replace("{where}", where) if moved else f"Alerts on {where}: " + join_names(when) + "."
    if len(counted) > 1:  # several chillers: the total leads
        total = sum(r.count for _, rules in counted for r in rules)
        return f"{total} alert{'s' if total != 1 else ''} in all: " + join_names(parts[:4]) + "."
    return join_names(parts[:4]) + "."


def orders_per_period_sentence(question: str, artifacts: list[Artifact]) -> str | None:
    """"Corrective work orders on CWC04009: 1 in 2017, 1 in 2018 and 8 in 2019.": one asset's work-order
    summaries over several periods ("year by year", "each quarter"), each period's count in order. None
    unless the turn holds two or more summaries of one equipment id over different windows."""
    if not _COUNT.search(question) and not _PER_PERIOD.search(question):
        return None  # "the most common code in those" asks another thing of the same summaries
    summaries = [a for a in artifacts if a.kind == "work_order_summary" and a.window_start is not None]
    windows = {(a.window_start, a.window_end) for a in summaries}
    keys = {", ".join(a.equipment_ids or a.asset_ids) for a in summaries}
    if len(windows) < 2 or len(windows) != len(summaries) or len(keys) != 1:
        return None
    kinds = {listed_kind(a) for a in summaries}
    kind = kinds.pop() if len(kinds) == 1 else "all"

    def count(art: Artifact) -> int | None:
        counts = work_order_counts(art)
        return counts.corrective if kind == "corrective" else counts.total

    ordered = sorted(summaries, key=lambda a: str(a.window_start))
    counted = [(a, n) for a in ordered if (n := count(a)) is not None]
    if len(counted) < 2:
        return None
    label = {"corrective": "Corrective work orders", "preventive": "Preventive work orders"}.get(kind, "Work orders")
    return f"{label} on {keys.pop()}: " + join_names([f"{n} {window_phrase(a)}".strip() for a, n in counted]) + "."


# "year by year", "each quarter", "per month", "quarterly": counts asked period by period.
_PER_PERIOD = re.compile(r"\b(?:by|each|every|per) (?:month|quarter|year)\b|\b(?:month|quarter|year) by\b|"
                         rf"\b(?:monthly|quarterly|yearly)\b|{COUNT_A_PERIOD}|{EACH_OF_THE_PERIODS}", re.I)


_ASKS_RULES = re.compile(r"\brules?\b|\bwhich (?:alarms?|alerts?)\b|\bwhat (?:alarms?|alerts?)\b|\btop \d* ?(?:alarms?|alerts?)\b",
                         re.I)
_TOP_N = re.compile(r"\btop (\d|three|five)\b", re.I)
_RULES_NAMED = 3


def site_rules_sentence(question: str, artifacts: list[Artifact]) -> str | None:
    """"Across CWC04009, CWC04006 and 2 more, the busiest rules were RUL0017 Load Low (145 alerts), ...": the
    rules summed over several equipment ids, for a question about which rules (alarms) fire. None for one id."""
    if not _ASKS_RULES.search(question):
        return None
    counted = [(a, rules) for a in artifacts if a.kind == "alert_rules" and (rules := alert_rules(a))]
    if len(counted) < 2 and not (counted and _ONE_RULE.search(question)):  # "which rule?" of one listing picks too
        return None
    totals: dict[str, tuple[RuleCount, int]] = {}
    for _, rules in counted:
        for rule in rules:
            seen = totals.get(rule.rule_id)
            totals[rule.rule_id] = (seen[0] if seen else rule, (seen[1] if seen else 0) + rule.count)
    fired = sorted(((r, n) for r, n in totals.values() if n), key=lambda pair: -pair[1])
    if not fired:
        return None
    top = _TOP_N.search(question)
    shown = {"three": 3, "five": 5}.get(top.group(1).lower(), int(top.group(1)) if top and top.group(1).isdigit()
                                        else _RULES_NAMED) if top else _RULES_NAMED
    # the equipment named busiest first: a later "and the runner-up?" reads the order this answer gives
    busiest = sorted(counted, key=lambda pair: -sum(r.count for r in pair[1]))
    names = list(dict.fromkeys(", ".join(a.equipment_ids or a.asset_ids) for a, _ in busiest))
    if len(counted) == 1:
        where = f"{names[0]} {window_phrase(counted[0][0])}".rstrip()
    elif len(names) == 1:  # one equipment id counted over several periods ("each quarter of 2020")
        periods = [window_phrase(a).removeprefix("in ") for a, _ in sorted(counted, key=lambda p: str(p[0].window_start))]
        where = f"{names[0]} over {join_names(periods) if len(periods) <= 4 else f'{periods[0]} to {periods[-1]}'}"
    else:
        where = join_names(names) if len(names) <= 3 else f"{', '.join(names[:2])} and {len(names) - 2} more"
    if _ONE_RULE.search(question) and not top:  # "what rule was behind most of them?": one pick, then the next
        total = sum(n for _, n in fired)
        runner = f", then {rule_text(fired[1][0])} ({fired[1][1]})" if len(fired) > 1 else ""
        return (f"{rule_text(fired[0][0])}: {fired[0][1]} of the {total} alerts on {where}{runner}.")
    said = join_names([f"{rule_text(r)} ({n} alert{'s' if n != 1 else ''})" for r, n in fired[:shown]])
    return f"Across {where}, the busiest rule{'s were' if len(fired[:shown]) > 1 else ' was'} {said}."


# "what rule was behind most of them?", "which alarm fired the most?": one rule asked for, not a top list.
_ONE_RULE = re.compile(r"\b(?:which|what) (?:single )?(?:rule|alarm|alert)\b(?! rules| alarms| alerts)", re.I)


# Figures derived from two readings: the chilled-water delta T (return - supply) and the evaporator approach
# (supply - liquid refrigerant temperature): name, the words that ask for it, (minuend, subtrahend).
DERIVED: tuple[tuple[str, re.Pattern[str], tuple[str, str]], ...] = (
    ("delta T", re.compile(r"\bdelta[\s-]?t\b|\bdt\b|\btemperature (?:difference|split)\b|\brange\b(?= across)", re.I),
     ("Return Temperature", "Supply Temperature")),
    ("evaporator approach", re.compile(r"(?<!condenser )\b(?:evap\w*\s+)?approach\b", re.I),
     ("Supply Temperature", "Liquid Refrigerant Evaporator Temperature")),
)


def derived_figure_texts(question: str, window: Artifact) -> list[str]:
    """"delta T 5.8 degF while running (return 49.8, supply 44.0 degF)" for each derived figure the question asks
    for that the window holds both readings of."""
    out = []
    normalised = " ".join(Text.of(question).tokens)  # as typed and with typos mended ("evap aproach")
    for name, words, (high, low) in DERIVED:
        if not (words.search(question) or words.search(normalised)):
            continue
        a, b = sensor_figures(high, [window]), sensor_figures(low, [window])
        if not a or not b:
            continue
        unit = a[0].unit
        out.append(f"{name} {number(a[0].value - b[0].value, unit)}{' while running' if a[0].running else ''} "
                   f"({a[0].label.lower()} {number(a[0].value, unit)}, {b[0].label.lower()} {number(b[0].value, unit)})")
    return out


# "more than 300 kW", "below 30% load", "over 46 degF": a level the question holds a reading against.
_THRESHOLD = re.compile(r"\b(more than|higher than|greater than|above|over|exceed\w*|beyond|top|less than|lower than|"
                        r"below|under|drop (?:below|under)|fall (?:below|under))\s+(\d+(?:\.\d+)?)\s*(kw/ton\b|kw\b|"
                        r"tons?\b|%|degf?\b|f\b|gpm\b)?", re.I)
_BELOW = ("less", "lower", "below", "under", "drop", "fall")
_UNIT_SENSOR = {"kw": "Power Input", "ton": "Tonnage", "tons": "Tonnage", "%": "Chiller % Loaded",
                "kw/ton": "Chiller Efficiency", "gpm": "Condenser Water Flow"}
_UNIT_SHOWN = {"kw": "kW", "kw/ton": "kW/ton", "ton": "tons", "tons": "tons", "deg": "degF", "degf": "degF",
               "f": "degF", "gpm": "gpm"}


@dataclass(frozen=True)
class AskedLevel:
    """A level the question holds a reading against, and which side of it it asks about."""

    level: float
    below: bool
    unit: str  # as typed, lower-case ("kw", "%", "")
    sensors: list[str]  # bare names of the reading(s): named ones, else the one the unit implies

    @property
    def text(self) -> str:
        shown = _UNIT_SHOWN.get(self.unit, self.unit)
        return f"{self.level:g}" + ("" if shown in ("", "%") else " ") + shown


def asked_level(question: str) -> AskedLevel | None:
    """The level in "more than 300 kW tomorrow?", "any below 30% load?"; None when it names none."""
    match = _THRESHOLD.search(question)
    if match is None:
        return None
    unit = (match.group(3) or "").lower()
    named = [*asked_sensors(question), *([_UNIT_SENSOR[unit]] if unit in _UNIT_SENSOR else [])]
    return AskedLevel(float(match.group(2)), match.group(1).lower().startswith(_BELOW), unit,
                      list(dict.fromkeys(named)))


# "did it ever go over 90%?", "at any point": the extreme of the window, not its mean while running.
_AT_ANY_POINT = re.compile(r"\b(?:ever|at any (?:point|time)|at all|peak\w*|spike\w*|hit|reach\w*|max\w*|min\w*)\b",
                           re.I)


def level_sentence(question: str, artifacts: list[Artifact]) -> tuple[Literal["Yes", "No"], str, list[str]] | None:
    """(answer, sentence, evidence) for a yes/no holding a reading against a level over the turn's telemetry
    windows: each chiller's mean while running (its extreme for "ever"/"at any point"); None without a level."""
    asked = asked_level(question)
    if asked is None or not asked.sensors:
        return None
    extreme = bool(_AT_ANY_POINT.search(question))
    sensor = asked.sensors[0]
    rows: list[tuple[str, float, str]] = []
    for art in artifacts:
        if art.kind != "telemetry_window" or not art.asset_ids:
            continue
        for name, entry in stats_of(art).items():
            if not _matches(name.removeprefix(f"{art.asset_ids[0]} "), sensor):
                continue
            bound = entry.get("min" if asked.below else "max")
            value = float(bound) if extreme and isinstance(bound, int | float) else None if extreme \
                else running_mean(entry)
            if value is not None:
                rows.append((art.asset_ids[0], value, str(entry.get("unit") or "")))
            break
    if not rows:
        return None
    crossing = [(a, v, u) for a, v, u in rows if (v < asked.level if asked.below else v > asked.level)]
    what = ("lowest" if asked.below else "highest") if extreme else "mean while running"
    side = "below" if asked.below else "above"
    evidence = [f"- {a}: {sensor.lower()} {what} {number(v, u)}" for a, v, u in rows]
    if crossing:
        said = join_names([f"{a} ({number(v, u)})" for a, v, u in crossing])
        return "Yes", f"Yes, {said} {'was' if len(crossing) == 1 else 'were'} {side} {asked.text} ({what}).", evidence
    edge = min(rows, key=lambda r: r[1]) if asked.below else max(rows, key=lambda r: r[1])
    who = "none" if len(rows) > 1 else rows[0][0]
    return "No", (f"No, {who} went {side} {asked.text} ({what}): the {'lowest' if asked.below else 'highest'} was "
                  f"{edge[0]} at {number(edge[1], edge[2])}."), evidence


_ASKS_CODES = re.compile(r"\b(?:failure )?codes?\b|\bmost (?:common|frequent) (?:failures?|faults?|problems?|issues?|"
                         r"repairs?|breakdowns?|jobs?)\b", re.I)


# "which failure code came up most?", "what was the most common code?": one code asked for.
_ONE_CODE = re.compile(r"\b(?:which|what) (?:failure |fault |single )?code\b|\bmost (?:common|frequent) (?:failure |fault )?"
                       r"code\b", re.I)


def site_codes_sentence(question: str, artifacts: list[Artifact]) -> str | None:
    """"Across the 11 equipment ids, the most common codes were M013 Condenser Plugged (14), ...": the primary codes
    summed over several equipment ids' listings (each listing's ten most frequent), for a question about codes."""
    if not _ASKS_CODES.search(question):
        return None
    listings = [a for a in artifacts if a.kind == "work_order_summary" and top_codes(a)]
    if len(listings) == 1 and _ONE_CODE.search(question):  # "which failure code came up most among those?": the pick
        (code, description, count), *rest = top_codes(listings[0])
        counts = work_order_counts(listings[0])
        total = counts.corrective if listed_kind(listings[0]) == "corrective" else counts.total
        where = f"{', '.join(listings[0].equipment_ids or listings[0].asset_ids)} {window_phrase(listings[0])}".rstrip()
        runner = f", then {rest[0][0]} {rest[0][1]} ({rest[0][2]})".replace("  ", " ") if rest else ""
        kind = "corrective work orders" if listed_kind(listings[0]) == "corrective" else "work orders"
        return (f"{code} {description} came up most: {count} of the {total} {kind} on {where}{runner}."
                .replace("  ", " "))
    if len(listings) < 2:
        return None
    totals: dict[str, tuple[str, int]] = {}
    for art in listings:
        for code, description, count in top_codes(art):
            seen = totals.get(code)
            totals[code] = (description or (seen[0] if seen else ""), (seen[1] if seen else 0) + count)
    ranked = sorted(totals.items(), key=lambda item: (-item[1][1], item[0]))[:_RULES_NAMED]
    said = join_names([f"{code} {description} ({count})".replace("  ", " ") for code, (description, count) in ranked])
    return f"Across {len(listings)} equipment ids, the most common codes were {said}."


# Stems of a code's name that say no family of work ("work", "order" and "failure" are every one's).
# ("how many PMs" is read as "preventive maintenance": a kind of order, not the Routine Maintenance code)
_NOT_A_FAMILY = frozenset({"work", "order", "failur", "fail", "chiller", "unit", "other", "general", "the", "and", "of",
                           "on", "in", "maintenanc", "preventiv", "correctiv", "repair", "routin", "job", "ticket"})


_TIME_ANCHOR = re.compile(r"\b(?:since|after|before|around|until|till|from|following) (?:the|that|this|its|their) "
                          r"[\w-]+\b", re.I)


@dataclass(frozen=True)
class CodedOrders:
    """The orders of one listing whose code names the work a question asks about."""

    total: int
    words: str  # the words of the codes' names the question used ("leak")
    where: str  # the equipment id and period
    codes: str  # "L002 Water Leak (2) and MT008 Leak Detection (2)"
    code_ids: tuple[str, ...]  # ("L002", "MT008")


def coded_orders(question: str, artifacts: list[Artifact]) -> CodedOrders | None:
    """The orders whose code names the work the question asks about ("those leaks", "a couple water leaks"), from the
    one work-order listing of the turn; the codes sharing the most words with the question ("water leak": L002 Water
    Leak, not MT008 Leak Detection). None without one listing or a code named."""
    listings = [a for a in artifacts if a.kind == "work_order_summary" and top_codes(a)]
    if len(listings) != 1:
        return None
    # (the question asked, not a statement before it: "Chiller 1 kept losing condenser water last year. how many CMs
    # did it have in 2019?" counts every corrective order)
    # ("how many corrective WOs since the trip?": the trip dates the span, it is no work asked about)
    clause = _TIME_ANCHOR.sub(" ", asking_clause(question))
    asked = set(Text.of(clause).stems) - _NOT_A_FAMILY
    shared = [(len(asked & (set(Text.of(d).stems) - _NOT_A_FAMILY)), (c, d, n)) for c, d, n in top_codes(listings[0])]
    most = max((k for k, _ in shared), default=0)
    matching = [code for k, code in shared if k and k == most]
    if not matching:
        return None
    # (the words in the order the code's name has them: "water leak")
    words = list(dict.fromkeys(w for _, d, _ in matching for w in Text.of(d).tokens if set(Text.of(w).stems) & asked))
    return CodedOrders(
        total=sum(n for _, _, n in matching), words=" ".join(words),
        where=f"{', '.join(listings[0].equipment_ids or listings[0].asset_ids)} {window_phrase(listings[0])}".rstrip(),
        codes=join_names([f"{c} {d} ({n})".replace("  ", " ") for c, d, n in matching]),
        code_ids=tuple(c for c, _, _ in matching))


def coded_order_count_sentence(question: str, artifacts: list[Artifact]) -> str | None:
    """"those leaks on it, how many?": the orders coded for that work, counted; None unless the question counts."""
    coded = coded_orders(question, artifacts) if _COUNT.search(question) else None
    if coded is None:
        return None
    return f"{coded.total} {coded.words} work order{'s' if coded.total != 1 else ''} on {coded.where}: {coded.codes}."


# "were the PMs done at the same rate each year, or did we slip?": whether the yearly count held steady.
_STEADY_RATE = re.compile(r"\b(?:same|steady|consistent|constant|regular|even) (?:rate|number|pace|count|cadence)\b|"
                          r"\b(?:slip|slipped|slipping|fall(?:en|ing)? behind|fell behind|drop(?:ped)? off)\b", re.I)
_STEADY_WITHIN = 0.1  # yearly counts within 10% of the busiest year: the same rate


def yearly_rate_sentence(question: str, artifacts: list[Artifact]) -> tuple[str, list[str]] | None:
    """Yes (steady) or no (slipped) on one work-order listing's count per complete calendar year, from the orders
    it counted per month; None without such a listing over two or more complete years."""
    if not _STEADY_RATE.search(question):
        return None
    for art in artifacts:
        months = orders_per_month(art)
        if not months:
            continue
        if art.window_end is not None:
            last_complete = (art.window_end - timedelta(days=1)).year - (0 if art.window_end.month == 1 else 1)
        else:  # the whole history: its last year counts when orders reach its December
            last = max(months)
            last_complete = int(last[:4]) - (0 if last.endswith("-12") else 1)
        years: dict[int, int] = {}
        for month, n in months.items():
            years[int(month[:4])] = years.get(int(month[:4]), 0) + n
        complete = {y: n for y, n in sorted(years.items()) if y <= last_complete}
        if len(complete) < 2:
            continue
        kind = {"preventive": "preventive work orders", "corrective": "corrective work orders"}.get(
            listed_kind(art), "work orders")
        where = ", ".join(art.equipment_ids or art.asset_ids)
        top, low = max(complete.values()), min(complete.values())
        per_year = ", ".join(f"{y}: {n}" for y, n in complete.items())
        if top - low <= max(1.0, _STEADY_WITHIN * top):
            first = f"Yes, a steady rate: {low}-{top} {kind} a year on {where} ({per_year})." if low != top else \
                f"Yes, the same rate: {top} {kind} a year on {where} every year from {min(complete)} to {max(complete)}."
        else:
            slipped = [y for y, n in complete.items() if n < top - max(1.0, _STEADY_WITHIN * top)]
            first = f"No, the rate slipped in {join_names([str(y) for y in slipped])}: {kind} on {where} per year " \
                    f"were {per_year}."
        return first, [f"- {where}: {per_year} [{art.id}]"]
    return None


# "mostly the cycling ones?", "were they mainly load low?": whether one rule makes up most of the alerts
_MOSTLY = re.compile(r"\b(?:mostly|mainly|largely|primarily|chiefly|predominantly|majority|most of (?:them|those|it))\b",
                     re.I)


def mostly_rule_sentence(question: str, artifacts: list[Artifact]) -> str | None:
    """"Yes, RUL0022 Chiller Cycling made up 6 of the 9 alerts on CWC04009 (this month)." for a yes/no asking
    whether the alerts listed were mostly of the rule it names; None when it names none or no alerts are here."""
    if not _MOSTLY.search(question):
        return None
    counted = [(a, rules) for a in artifacts if a.kind == "alert_rules" and (rules := alert_rules(a)) is not None]
    every = [r for _, rules in counted for r in rules]
    named = {r.rule_id for r in named_rules(question, every)}
    total = sum(r.count for r in every)
    if not named or not total:
        return None
    share = sum(r.count for r in every if r.rule_id in named)
    shown = join_names(sorted({rule_text(r) for r in every if r.rule_id in named}))
    where = join_names(sorted({", ".join(a.equipment_ids or a.asset_ids) for a, _ in counted}))
    when = window_phrase(counted[0][0])
    top = max(every, key=lambda r: r.count)
    rest = "" if share * 2 > total or top.rule_id in named else f"; the most were {rule_text(top)} ({top.count})"
    return (f"{'Yes' if share * 2 > total else 'No'}, {shown} made up {share} of the {total} alerts on {where}"
            f"{f' {when}' if when else ''}{rest}.")


def alert_change_driver(question: str, artifacts: list[Artifact]) -> tuple[str, list[str]] | None:
    """"The rise on CWC04009 is mostly RUL0017 Load Low: 12 this quarter against 3 last quarter (all alerts: 15
    against 5)." for "why the jump?" after one equipment id's alerts over two periods: the rule that moved most, in
    the direction the total moved. None unless the question asks why a count changed and two periods were read."""
    if not WHY_THE_CHANGE.search(question):
        return None
    counted = list({a.id: (a, rules) for a in artifacts if a.kind == "alert_rules" and a.window_start is not None
                    and (rules := alert_rules(a)) is not None}.values())
    if not counted:
        return None
    where = ", ".join(counted[0][0].equipment_ids or counted[0][0].asset_ids)
    mine = {(a.window_start, a.window_end): (a, rules) for a, rules in counted
            if ", ".join(a.equipment_ids or a.asset_ids) == where}
    if len(mine) < 2:
        return None
    (old, old_rules), (new, new_rules) = [mine[key] for key in sorted(mine, key=lambda k: k[0] or datetime.min)][-2:]
    before = {r.rule_id: r for r in old_rules}
    after = {r.rule_id: r for r in new_rules}
    total_old, total_new = sum(r.count for r in old_rules), sum(r.count for r in new_rules)
    rising = total_new >= total_old

    def moved(rule_id: str) -> int:
        return (after[rule_id].count if rule_id in after else 0) - (before[rule_id].count if rule_id in before else 0)

    ids = sorted(set(before) | set(after), key=lambda r: moved(r) if rising else -moved(r), reverse=True)
    if not ids or moved(ids[0]) == 0:
        return None
    top = (after.get(ids[0]) or before[ids[0]])
    new_when, old_when = window_phrase(new) or "now", window_phrase(old) or "before"
    lead = (f"The {'rise' if rising else 'drop'} on {where} is mostly {rule_text(top)}: "
            f"{after[top.rule_id].count if top.rule_id in after else 0} {new_when} against "
            f"{before[top.rule_id].count if top.rule_id in before else 0} {old_when} "
            f"(all alerts: {total_new} against {total_old}).")
    lines = [f"- {rule_text(after.get(r) or before[r])}: {after[r].count if r in after else 0} {new_when}, "
             f"{before[r].count if r in before else 0} {old_when}" for r in ids if moved(r)]
    return lead, lines[:5]


def other_rules_sentence(question: str, artifacts: list[Artifact]) -> str | None:
    """"Yes, besides RUL0017 Load Low: CWC04006 logged RUL0022 Chiller Cycling (1)." for "anything besides load low
    on them?": the rules other than the one named that fired, per equipment id; None unless a rule is set aside."""
    if not BESIDES.search(question):
        return None
    counted = [(a, rules) for a in artifacts if a.kind == "alert_rules" and (rules := alert_rules(a)) is not None]
    named = {r.rule_id: r for _, rules in counted for r in named_rules(question, rules)}
    if not counted or not named:
        return None
    set_aside = join_names([rule_text(r) for r in named.values()])
    found = []
    for art, rules in counted:
        others = [r for r in rules if r.rule_id not in named and r.count]
        if others:
            found.append(f"{', '.join(art.equipment_ids or art.asset_ids)} logged "
                         + join_names([f"{rule_text(r)} ({r.count})" for r in others]))
    when = window_phrase(counted[0][0])
    if not found:
        return f"No, nothing besides {set_aside}{f' {when}' if when else ''}."
    return f"Yes, besides {set_aside}{f' {when}' if when else ''}: " + "; ".join(found) + "."
