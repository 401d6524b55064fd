"""Answers to questions that ask one statistic of a telemetry window: the peak or the low of a reading
("what's the peak tonnage it hit?"), and how long the chiller ran ("how many hours did it run?").

The window's summary leads with the mean; these questions ask for another figure, so it is said first.
Pure: the question and the turn's artifacts in, a sentence (or None) out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import datetime

from artifacts.model import Artifact
from artifacts.readings import (
    alert_rules,
    alerts_per_month,
    asked_rules,
    labor_hours,
    latest_per_job,
    listed_kind,
    orders_per_month,
    recent_orders,
    running_share,
    stats_of,
    work_order_counts,
)
from graph.answering.asked_figures import (
    asked_figure_lines,
    asked_sensors,
    figure_text,
    named_rules,
    rule_text,
    sensor_figures,
)
from graph.answering.compare_terms import comparison_sense, window_phrase
from graph.answering.markdown import join_names, number
from graph.answering.period_verdict import period_change_sentence
from graph.understanding.request import (
    ASKS_IDLE,
    LAST_RAN,
    MOSTLY_IDLE,
    RAN_AT_ALL,
    WHEN_LAST,
    names_both_periods,
)
from specialists.common.frames import LOAD, RUNNING_LOAD_PCT

_PEAK = re.compile(r"\b(peak\w*|max(?:imum)?|highest|top out|topped out|get up to|got up to)\b", re.I)
_LOW = re.compile(r"\b(min(?:imum)?|lowest|bottom\w* out|get down to|got down to)\b", re.I)
_RUN_TIME = re.compile(r"\bhow (?:many|much) (?:hours|time|days)\b.*\b(?:run|ran|running|operat\w*|on)\b|"
                       r"\b(?:run|running|operating) (?:hours|time)\b|\bhours (?:run|of running|on)\b", re.I)
_HOURS_PER_DAY = 24
# "running hours only", "only the running hours": which samples to average, not a question about run time.
_RUNNING_ONLY = re.compile(r"\b(?:running|run|operating) (?:hours|time) only\b|\bonly (?:the )?(?:running|run|operating) "
                           r"(?:hours|time)\b|"
                           # "when they're actually running, which one puts out the most tons?": a mean's samples
                           r"\b(?:when|while) (?:they'?re|they are|it'?s|it is|its) (?:actually |really )?(?:running|"
                           r"on|operating)\b", re.I)


def _windows(artifacts: list[Artifact]) -> list[Artifact]:
    return [a for a in artifacts if a.kind == "telemetry_window" and a.asset_ids and stats_of(a)]


def extreme_sentence(question: str, artifacts: list[Artifact]) -> str | None:
    """"Chiller 4 peaked at 591.4 tons of tonnage in June 2021 (383.8 tons on average while running)." for a
    question asking the peak (or the low) of one named reading."""
    peak, low = bool(_PEAK.search(question)), bool(_LOW.search(question))
    named = asked_sensors(question)
    if peak == low or len(named) != 1:
        return None
    for art in _windows(artifacts):
        asset = art.asset_ids[0]
        for name, entry in stats_of(art).items():
            if name.removeprefix(f"{asset} ") != named[0]:
                continue
            value = entry.get("max" if peak else "min")
            if not isinstance(value, (int, float)):
                continue
            unit = str(entry.get("unit") or "")
            mean = entry.get("running_mean")
            average = f" ({number(float(mean), unit)} on average while running)" if isinstance(mean, (int, float)) else ""
            when = window_phrase(art)
            return (f"{asset} {'peaked at' if peak else 'bottomed out at'} {number(float(value), unit)} of "
                    f"{named[0].lower()}{f' {when}' if when else ''}{average}.")
    return None


def run_time_sentence(question: str, artifacts: list[Artifact]) -> str | None:
    """"Chiller 4 ran about 389 hours in June 2021 (54% of the time)." for "how many hours did it run?"."""
    if not _RUN_TIME.search(question) or _RUNNING_ONLY.search(question):
        return None
    parts = []
    for art in _windows(artifacts):
        share = running_share(art)
        if share is None or art.window_start is None or art.window_end is None:
            continue
        hours = share * (art.window_end - art.window_start).total_seconds() / 3600
        when = window_phrase(art)
        parts.append(f"{art.asset_ids[0]} ran about {hours:,.0f} hours{f' {when}' if when else ''} "
                     f"({share:.0%} of the time, {hours / _HOURS_PER_DAY:.1f} days)")
    return "; ".join(parts) + "." if parts else None


def ran_at_all_sentence(question: str, artifacts: list[Artifact]) -> str | None:
    """"No, Chiller 6 did not run over the weekend of 2020-11-14 (no running samples)." for "was it running at all
    last weekend?": yes or no on the running share of each window read. A question about idling is answered the
    other way round, and over several chillers ("did any of them sit idle?") names the ones that did."""
    windows = [a for a in _windows(artifacts) if running_share(a) is not None]
    if not RAN_AT_ALL.search(question) or not windows:
        return None
    idle_asked = ASKS_IDLE.search(question) is not None or MOSTLY_IDLE.search(question) is not None
    # ("at all": any running sample counts; "mostly off": it ran less than half the time)
    least = 0.5 if MOSTLY_IDLE.search(question) else 0.0

    def ran(art: Artifact) -> bool:
        return (running_share(art) or 0.0) > least

    def hours(art: Artifact) -> str:
        assert art.window_start is not None and art.window_end is not None
        share = running_share(art) or 0.0
        return f"about {share * (art.window_end - art.window_start).total_seconds() / 3600:,.0f} hours ({share:.0%} of the time)"

    when = window_phrase(windows[0])
    where = f" {when}" if when else ""
    idle_note = f"no running samples: load never above {RUNNING_LOAD_PCT:g}%"
    if len(windows) == 1:
        art = windows[0]
        answer = ("No" if ran(art) else "Yes") if idle_asked else ("Yes" if ran(art) else "No")
        if least and not ran(art):  # "mostly off?": yes, it ran only this share of the time
            return f"{answer}, {art.asset_ids[0]} was mostly off{where}: it ran only {hours(art)}."
        return (f"{answer}, {art.asset_ids[0]} ran {hours(art)}{where}." if ran(art)
                else f"{answer}, {art.asset_ids[0]} did not run{where} ({idle_note}).")
    idle = [a.asset_ids[0] for a in windows if not ran(a)]
    running = [f"{a.asset_ids[0]} {hours(a)}" for a in windows if ran(a)]
    if idle_asked:
        if not idle:
            return f"No, every chiller ran{where}: " + "; ".join(running) + "."
        return (f"Yes, {join_names(idle)} did not run{where} ({idle_note})"
                + (f"; the others ran: {'; '.join(running)}." if running else "."))
    if not running:
        return f"No, none of {join_names(idle)} ran{where} ({idle_note})."
    return f"Yes, {'; '.join(running)}{where}" + (f"; {join_names(idle)} did not run." if idle else ".")


def last_ran_sentence(question: str, artifacts: list[Artifact]) -> str | None:
    """"Chiller 4 last ran on 2020-01-31 23:00 (load above 10%)." for "when did it last run?", from each window
    read; a window it never ran in says so."""
    if not LAST_RAN.search(question):
        return None
    said = []
    for art in [a for a in artifacts if a.kind == "telemetry_window" and a.asset_ids and "last_sample" in a.results]:
        ran = art.results.get("last_running")
        when = window_phrase(art)
        said.append(f"{art.asset_ids[0]} last ran on {str(ran)[:16].replace('T', ' ')} (load above {RUNNING_LOAD_PCT:g}%)"
                    if isinstance(ran, str) else f"{art.asset_ids[0]} did not run{f' {when}' if when else ''}")
    return "; ".join(said) + "." if said else None


# (not "ran more efficiently", "runs less smoothly": a comparative of how it ran is a measure, not its time)
_MOST_RUN = re.compile(r"\b(?:ran|run|running|operated)\b.*\b(?:most|least|longest|fewest|more|less)\b"
                       r"(?! (?:\w+ly|efficient|economical|smooth|stable|reliable|hot|warm|cool|cold)\b)|"
                       r"\b(?:most|fewest|more|fewer) (?:hours|run time|running)\b", re.I)
_LEAST = re.compile(r"\b(?:least|fewest|less|fewer|shortest)\b", re.I)


def run_time_ranking(question: str, artifacts: list[Artifact]) -> tuple[str, list[str]] | None:
    """"Which chiller ran the most hours last month?": the chillers ranked on their running share."""
    question = _RUNNING_ONLY.sub(" ", question)  # "worst kW/ton? running hours only": a mean's samples, not a pick
    if not (_MOST_RUN.search(question) or _RUN_TIME.search(question)):
        return None
    shares = [(a.asset_ids[0], s, a) for a in _windows(artifacts) if (s := running_share(a)) is not None]
    if len({asset for asset, _, _ in shares}) < 2:
        return None
    least = bool(_LEAST.search(question))
    ranked = sorted(shares, key=lambda row: (row[1] if least else -row[1], row[0]))

    def hours(art: Artifact, share: float) -> str:
        if art.window_start is None or art.window_end is None:
            return f"{share:.0%} of the time"
        return f"about {share * (art.window_end - art.window_start).total_seconds() / 3600:,.0f} hours ({share:.0%})"

    top_asset, top_share, top_art = ranked[0]
    when = window_phrase(top_art)
    first = (f"{top_asset} ran the {'least' if least else 'most'}: {hours(top_art, top_share)}"
             f"{f' {when}' if when else ''}.")
    return first, [f"- {asset}: {hours(art, share)} [{art.id}]" for asset, share, art in ranked]


_MORE_TIME = re.compile(r"\b(?:more|longer)\b", re.I)
_LESS_TIME = re.compile(r"\b(?:fewer|less|shorter)\b", re.I)


def run_time_change(question: str, artifacts: list[Artifact]) -> tuple[str, list[str]] | None:
    """"Is it on for more hours this sept than last sept?", "was it running more hours this year or fewer?": one
    chiller's running time in two periods, the later against the earlier (as a share of each, so periods of unequal
    length compare): yes or no to the direction asked, or the direction itself when both are offered."""
    question = _RUNNING_ONLY.sub(" ", question)
    more_asked, less_asked = bool(_MORE_TIME.search(question)), bool(_LESS_TIME.search(question))
    if not (_MOST_RUN.search(question) or _RUN_TIME.search(question)) or not (more_asked or less_asked):
        return None
    windows = {(a.window_start, a.window_end): (a, s) for a in _windows(artifacts)
               if (s := running_share(a)) is not None and a.window_start and a.window_end}
    if len(windows) != 2 or len({a.asset_ids[0] for a, _ in windows.values()}) != 1:
        return None
    (old, old_share), (new, new_share) = sorted(windows.values(), key=lambda pair: pair[0].window_start or 0)

    def said(art: Artifact, share: float) -> str:
        assert art.window_start is not None and art.window_end is not None
        hours = share * (art.window_end - art.window_start).total_seconds() / 3600
        return f"{window_phrase(art) or 'then'} (about {hours:,.0f} hours, {share:.0%} of the time)"

    more = new_share > old_share
    if more_asked and less_asked:
        answer = "More" if more else "Fewer"
    else:
        answer = "Yes" if more == more_asked else "No"
    first = (f"{answer}, {new.asset_ids[0]} ran {'more' if more else 'fewer'} hours {said(new, new_share)} than "
             f"{said(old, old_share)}.")
    return first, [f"- {a.asset_ids[0]} {said(a, s)} [{a.id}]" for a, s in ((new, new_share), (old, old_share))]


_LAST_N = re.compile(r"\blast (\d+|two|three|four|five|few|couple of)\b.*\b(?:jobs?|work orders?|orders?|repairs?|"
                     r"tickets?|wos?|wo's)\b|\blist\b.*\b(?:jobs|work orders|orders|repairs|tickets)\b", re.I)
_COUNT_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "few": 3, "couple of": 2}
_LISTED_MAX = 5  # a summary keeps its five latest orders


def order_listing(question: str, artifacts: list[Artifact]) -> tuple[str, list[str]] | None:
    """"What were the last three corrective jobs on it?", "list its work orders": the latest orders, one a line."""
    match = _LAST_N.search(question)
    if match is None:
        return None
    for art in artifacts:
        orders = recent_orders(art) if art.kind == "work_order_summary" else []
        if not orders:
            continue
        wanted = match.group(1).lower() if match.group(1) else ""
        count = min(int(wanted) if wanted.isdigit() else _COUNT_WORDS.get(wanted, _LISTED_MAX), _LISTED_MAX)
        kind = listed_kind(art)
        noun = f"{kind} work orders" if kind in ("corrective", "preventive") else "work orders"
        where = ", ".join(art.asset_ids or art.equipment_ids)
        shown = orders[:count]
        return (f"The last {len(shown)} {noun} on {where}: "
                + "; ".join(f"{o.wo_id} on {o.date}" for o in shown) + ".",
                [f"- {o.wo_id}, {o.date}: {o.code} {o.description}".rstrip() for o in shown])
    return None


# "that vibration one, what happened?", "the seal job": one record of the listing pointed at by a word of its name
_POINTED_RECORD = re.compile(r"\b(?:that|the|this) ([a-z][\w-]+(?: [a-z][\w-]+)?) (?:one|order|wo|job|ticket)\b", re.I)
_NOT_NAMING = frozenset({"last", "first", "latest", "other", "same", "next", "big", "odd", "weird", "corrective",
                         "preventive", "old", "new", "recent", "open"})


def pointed_order_sentence(question: str, artifacts: list[Artifact]) -> tuple[str, list[str]] | None:
    """The order of the turn's listing a question points at by a word of its name ("that vibration one, what
    happened?"): its id, date, code and what it was; None unless exactly one listing has such an order."""
    pointed = _POINTED_RECORD.search(question)
    if pointed is None or set(pointed.group(1).lower().split()) & _NOT_NAMING:
        return None
    words = {w[:5] for w in re.findall(r"[a-z]+", pointed.group(1).lower())}
    found = [(art, o) for art in artifacts if art.kind == "work_order_summary" for o in latest_per_job(art)
             if words <= {w[:5] for w in re.findall(r"[a-z]+", f"{o.code} {o.description}".lower())}]
    if not found or len({a.id for a, _ in found}) != 1:
        return None
    found.sort(key=lambda pair: pair[1].preventive)  # (a breakdown is what "happened"; the routine check after it)
    art, order = found[0]
    where = ", ".join(art.asset_ids or art.equipment_ids)
    kind = "preventive" if order.preventive else "corrective"
    hours = f", {order.labor_hours:g} h of labour" if order.labor_hours else ""
    return (f"{order.wo_id} on {order.date} on {where}: {order.code} {order.description}, a {kind} order{hours}."
            .replace("  ", " "), [f"- {o.wo_id}, {o.date}: {o.code} {o.description}" for _, o in found[1:4]])


_COMPARES = re.compile(r"\b(?:compar\w*|vs|versus|against|than|stack\w* up|differ\w*)\b", re.I)


def comparison_sentence(question: str, artifacts: list[Artifact], fetched: list[str] | None = None) -> str | None:
    """"How does its efficiency this summer compare with last summer?": the named reading side by side
    (`fetched`: the readings the turn fetched, for a question that names none)."""
    # ("power input, same two periods?": the two periods discussed, set side by side again)
    if not _COMPARES.search(question) and not names_both_periods(question.lower()):
        return None
    changed = period_change_sentence(question, artifacts, fetched)
    if changed is not None:  # one chiller over two periods: the later figure and how far it moved
        return changed
    lines = [line for line in asked_figure_lines(question, artifacts) if ";" in line]
    return lines[0].removeprefix("- ").rstrip(".") + "." if lines else None


_IDLE_SHARE = 0.01  # under 1% of samples running: the chiller was off, its temperatures are idle water


def _idle_point_values(art: Artifact) -> bool | None:
    """Whether a point-value read shows the chiller off (its load never above the running threshold); None
    when the load was not read."""
    values = art.results.get("values")
    loads = [v for k, v in values.items() if k.endswith(LOAD) and isinstance(v, Mapping)] \
        if isinstance(values, Mapping) else []
    peaks = [v.get("max", v.get("value")) for v in loads]
    if not peaks or not all(isinstance(p, (int, float)) for p in peaks):
        return None
    return all(p <= RUNNING_LOAD_PCT for p in peaks)


def idle_sentence(artifacts: list[Artifact]) -> str | None:
    """"Chiller 9 was not running on 2021-06-15 (0% of samples): ..." when every telemetry window (or point-value
    read with the load) of the turn is of a chiller that was off, whose readings say nothing about how it
    holds setpoint or runs."""
    windows = _windows(artifacts)
    if not windows:
        points = [a for a in artifacts if a.kind == "point_values" and a.asset_ids]
        if points and all(_idle_point_values(a) for a in points):
            return _idle_text(points)
        return None
    shares = [running_share(a) for a in windows]
    if any(share is None or share >= _IDLE_SHARE for share in shares):
        return None
    return _idle_text(windows, barely=any(share for share in shares))


def _idle_text(windows: list[Artifact], *, barely: bool = False) -> str:
    """`barely`: a few running samples (under 1%): said so, since the figures while running that follow exist."""
    names = sorted({a.asset_ids[0] for a in windows})
    when = window_phrase(windows[0])
    state = "barely ran" if barely else f"{'was' if len(names) == 1 else 'were'} not running"
    why = "under 1% of samples running" if barely else "no running samples"
    return (f"{' and '.join(names)} {state}{f' {when}' if when else ''} ({why}): the readings are mostly those of "
            "an idle chiller, so they say little about how it holds setpoint or performs." if barely else
            f"{' and '.join(names)} {state}{f' {when}' if when else ''} ({why}): the readings are those of an idle "
            "chiller, so they say nothing about how it holds setpoint or performs.")


# "what's the worst month for alarms?", "which month had the most alerts?": a month picked by its alert count.
# ("the most alarms last month" names a period, not a pick among months: "last/this/that month" never picks)
_BUSIEST_MONTH = re.compile(r"\b(?:worst|busiest|heaviest|noisiest|highest|peak|most|best|quietest|calmest|"
                            r"lowest|least|fewest)\b(?: (?!last\b|this\b|that\b|next\b|past\b|previous\b)\w+){0,2}? "
                            r"(?<!last )(?<!this )(?<!that )(?<!next )(?<!past )(?<!previous )months?\b|"
                            r"\b(?:which|what) months?\b", re.I)
_QUIETEST = re.compile(r"\b(?:best|quietest|calmest|lowest|least|fewest)\b", re.I)




def rule_last_fired_sentence(question: str, artifacts: list[Artifact]) -> str | None:
    """"RUL0021 ... last fired on CWC04704 on 2021-05-23.": the latest alert of the rule the question names (or
    the one asked about before), for "when did it last log ...?"; None otherwise."""
    if not WHEN_LAST.search(question):
        return None
    said = []
    for art in artifacts:
        rules = alert_rules(art) if art.kind == "alert_rules" else None
        if not rules:
            continue
        asked = named_rules(question, rules) or [r for r in rules if r.rule_id in asked_rules(art)]
        where = ", ".join(art.equipment_ids or art.asset_ids)
        said += [f"{rule_text(r)} last fired on {where} on {r.last}" if r.last and r.count
                 else f"{rule_text(r)} has not fired on {where} {window_phrase(art) or 'on record'}".rstrip()
                 for r in asked]
    return join_names(said) + "." if said else None


def _months_of_rules(rule_ids: set[str]) -> Callable[[Artifact], dict[str, int]]:
    """Alerts per month of the given rules only, from a listing's per-rule months."""
    def counted(art: Artifact) -> dict[str, int]:
        months: dict[str, int] = {}
        for rule in alert_rules(art) or []:
            for month, count in rule.months if rule.rule_id in rule_ids else ():
                months[month] = months.get(month, 0) + count
        return dict(sorted(months.items()))
    return counted


def busiest_month_sentence(question: str, artifacts: list[Artifact]) -> tuple[str, list[str]] | None:
    """"March 2021 was the busiest month for alerts on CWC04006: 25 of 62." for a question picking a month by
    its alerts, from the alert-rule reads' monthly counts (None when it picks no month or none was counted)."""
    if not _BUSIEST_MONTH.search(question):
        return None
    quiet = bool(_QUIETEST.search(question))
    reads = [a for a in artifacts if a.kind == "alert_rules" and alerts_per_month(a)]
    per_month: Callable[[Artifact], dict[str, int]] = alerts_per_month
    what = "alerts"
    asked = {r.rule_id: r for a in reads for r in alert_rules(a) or []
             if r.rule_id in asked_rules(a) or r in named_rules(question, alert_rules(a) or [])}
    if asked:  # "which month was worst?" after the cycling alerts were counted: that rule's own months
        per_month = _months_of_rules(set(asked))
        what = f"{join_names([rule_text(r) for r in asked.values()])} alerts"
    if not reads:  # "which month had the most of them?" after a count of work orders: the orders' months
        reads = [a for a in artifacts if orders_per_month(a)]
        per_month = orders_per_month
        kinds = {listed_kind(a) for a in reads}
        what = "corrective work orders" if kinds == {"corrective"} else "work orders"
    if not reads:
        return None
    months: dict[str, int] = {}
    for art in reads:
        for month, count in per_month(art).items():
            months[month] = months.get(month, 0) + count
    pick = (min if quiet else max)(sorted(months), key=lambda m: months[m])
    where = ", ".join(x for a in reads for x in (a.equipment_ids or a.asset_ids))
    total = sum(months.values())
    said = datetime.strptime(pick, "%Y-%m").strftime("%B %Y")
    unit = "alerts" if what.endswith("alerts") else "work orders"
    lines = [f"- {datetime.strptime(m, '%Y-%m'):%B %Y}: {n} {unit if n != 1 else unit[:-1]}" for m, n in months.items()]
    return (f"{said} was the {'quietest' if quiet else 'busiest'} month for {what} on {where}: {months[pick]} of "
            f"{total} {window_phrase(reads[0])}.".replace("  ", " "), lines)


# "which year was the worst then?", "what was its worst year?", "the busiest year for breakdowns": a year picked
_YEAR_PICKED = re.compile(r"\b(?:which|what) year\b.*\b(?:worst|busiest|heaviest|most|highest|peak|best|quietest|"
                          r"calmest|lowest|least|fewest)\b|\b(?:worst|busiest|heaviest|best|quietest|calmest)\b"
                          r"(?: \w+){0,2}? years?\b(?! ago)", re.I)


def worst_year_sentence(question: str, artifacts: list[Artifact]) -> tuple[str, list[str]] | None:
    """"2020 was the worst year for corrective work orders on CWC04006: 14 (2019: 11 ...)." for a question picking a
    year, from the corrective orders per year a summary counted (the year under way apart: it is not over)."""
    if not _YEAR_PICKED.search(question):
        return None
    # (the summary covering the most years: a year's own summary counts that year, and the one after it as zero)
    counted = [(a, c) for a in artifacts if len((c := work_order_counts(a)).corrective_per_year) > 2]
    if not counted:
        return None
    art, counts = max(counted, key=lambda pair: len(pair[1].corrective_per_year))
    years = dict(counts.corrective_per_year)
    quiet = bool(_QUIETEST.search(question))
    pick = (min if quiet else max)(sorted(years), key=lambda y: years[y])
    where = ", ".join(art.equipment_ids or art.asset_ids)
    others = "; ".join(f"{y}: {years[y]}" for y in sorted(years, reverse=True) if y != pick)
    if counts.partial_year and counts.partial_year_corrective is not None:
        others += f"; {counts.partial_year} so far: {counts.partial_year_corrective}"
    lines = [f"- {y}: {years[y]} corrective work order{'s' if years[y] != 1 else ''}" for y in sorted(years)]
    return (f"{pick} was the {'best' if quiet else 'worst'} year for corrective work orders on {where}: "
            f"{years[pick]} ({others}).", lines)


_LABOUR = re.compile(r"\blabou?r\b|\bman[- ]?hours\b|\bcrew hours\b|\bhours of work\b|\bwrench time\b", re.I)


def labour_sentence(question: str, artifacts: list[Artifact]) -> str | None:
    """"The 3 work orders on CWC04006 in August 2020 took 7.5 labour hours (6.0 on corrective orders)." for a
    question about the labour the orders took; None when it asks none or no listing counted it."""
    if not _LABOUR.search(question):
        return None
    parts = []
    for art in artifacts:
        booked = labor_hours(art) if art.kind == "work_order_summary" else None
        if booked is None:
            continue
        count = work_order_counts(art).total or 0
        where = ", ".join(art.equipment_ids or art.asset_ids)
        orders = f"{count} work order{'s' if count != 1 else ''}"
        split = f" ({booked[1]:g} on corrective orders)" if booked[1] and booked[1] != booked[0] else ""
        parts.append(f"the {orders} on {where} {window_phrase(art)} took {booked[0]:g} labour hours{split}"
                     .replace("  ", " "))
    if not parts:
        return None
    first = "; ".join(parts[:4])
    return first[:1].upper() + first[1:] + "."


# "what was the plant's total power draw yesterday?", "combined tonnage": the readings summed over the chillers.
_TOTAL = re.compile(r"\b(?:total|combined|sum|altogether|all together|plant[- ]wide|site[- ]wide|whole plant|"
                    r"(?:plant|site) as a whole)\b", re.I)
# "did the plant use less this summer?": what a plant uses is its energy (power over time)
_USES = re.compile(r"\b(?:use[sd]?|using|consum\w*|burn\w*|draw\w*|drew)\b", re.I)
_SUMMABLE = {"Power Input": ("kW", "kWh"), "Tonnage": ("tons", "ton-hours")}


def total_sentence(question: str, artifacts: list[Artifact]) -> str | None:
    """"The 4 chillers drew 612 kW on average yesterday (about 14,700 kWh): ..." for a question asking a total of
    a summable reading (power, tonnage) over several chillers: each chiller's mean over all samples (off hours
    count as zero draw), summed, and the energy over the window."""
    if not _TOTAL.search(question):
        return None
    sensor = next((s for s in asked_sensors(question) if s in _SUMMABLE), None)
    if sensor is None:
        return None
    # one window for every chiller: the window most of the turn's reads share (a point read before a window)
    by_window: dict[tuple[object, object], dict[str, tuple[float, Artifact]]] = {}
    for art in sorted(artifacts, key=lambda a: a.kind != "point_values"):
        value = _mean_entry(art, sensor) if art.asset_ids else None
        if value is not None:
            by_window.setdefault((art.window_start, art.window_end), {}).setdefault(art.asset_ids[0], (value, art))
    if not by_window:
        return None
    chosen = max(by_window.values(), key=len)
    if len(chosen) < 2:
        return None
    per_asset = {asset: value for asset, (value, _) in chosen.items()}
    first = next(iter(chosen.values()))[1]
    hours = (first.window_end - first.window_start).total_seconds() / 3600 \
        if first.window_start is not None and first.window_end is not None else None
    rate, amount = _SUMMABLE[sensor]
    total = sum(per_asset.values())
    when = window_phrase(first)
    energy = f" (about {number(total * hours)} {amount})" if hours else ""
    parts = ", ".join(f"{asset} {number(value, rate)}" for asset, value in sorted(per_asset.items(),
                                                                                  key=lambda kv: -kv[1]))
    verb = "drew" if sensor == "Power Input" else "delivered"
    return (f"The {len(per_asset)} chillers {verb} {number(total, rate)} in all on average {when}{energy}: "
            f"{parts}.").replace("  ", " ")


def _totals_by_window(artifacts: list[Artifact], sensor: str) -> dict[tuple[object, object], dict[str, tuple[float, Artifact]]]:
    by_window: dict[tuple[object, object], dict[str, tuple[float, Artifact]]] = {}
    for art in artifacts:
        value = _mean_entry(art, sensor) if art.asset_ids and art.kind == "telemetry_window" else None
        if value is not None:
            by_window.setdefault((art.window_start, art.window_end), {}).setdefault(art.asset_ids[0], (value, art))
    return by_window


def total_change(question: str, artifacts: list[Artifact]) -> tuple[str, list[str]] | None:
    """"Did the plant as a whole use less this summer than last, y/n?": the chillers' summed mean (off hours count
    as zero draw) in the later period against the earlier, over the same chillers; yes or no to the direction
    asked."""
    if not _TOTAL.search(question):
        return None
    sensor = next((s for s in asked_sensors(question) if s in _SUMMABLE), None) \
        or ("Power Input" if _USES.search(question) else None)
    sense = comparison_sense(question, higher_is_worse=False)  # the direction asked, read as every comparison is
    if sensor is None or sense is None:
        return None
    less = sense == "lower"
    groups = [g for g in _totals_by_window(artifacts, sensor).values() if len(g) >= 2]
    if len(groups) != 2 or set(groups[0]) != set(groups[1]):
        return None
    old, new = sorted(groups, key=lambda g: next(iter(g.values()))[1].window_start or 0)
    rate = _SUMMABLE[sensor][0]
    old_total, new_total = sum(v for v, _ in old.values()), sum(v for v, _ in new.values())
    went_down = new_total < old_total
    answer = "Yes" if went_down == bool(less) else "No"
    new_when, old_when = window_phrase(next(iter(new.values()))[1]), window_phrase(next(iter(old.values()))[1])
    first = (f"{answer}, the {len(new)} chillers together {'used less' if went_down else 'used more'} {new_when}: "
             f"{number(new_total, rate)} on average against {number(old_total, rate)} {old_when} (every hour "
             f"counted, off hours as zero).")
    lines = [f"- {asset}: {number(new[asset][0], rate)} {new_when}, {number(old[asset][0], rate)} {old_when}"
             for asset in sorted(new)]
    return first, lines


def _mean_entry(art: Artifact, sensor: str) -> float | None:
    """A sensor's mean over all samples of a telemetry window or a point-value read (None when absent)."""
    if art.kind == "telemetry_window":
        for name, entry in stats_of(art).items():
            if name.endswith(sensor) and isinstance(entry.get("mean"), int | float):
                return float(entry["mean"])
    if art.kind == "point_values" and isinstance(art.results.get("values"), Mapping):
        for name, entry in art.results["values"].items():
            if name.endswith(sensor) and isinstance(entry, Mapping) and isinstance(entry.get("mean"), int | float):
                return float(entry["mean"])
    return None


# "which of those took the most hours?", "which job took longest?": the order with the most labour booked.
_MOST_LABOUR = re.compile(r"\b(?:most|longest|biggest|highest) (?:hours|labou?r|time|effort)\b|\btook (?:the )?(?:most|"
                          r"longest)\b|\bmost (?:man[- ]?)?hours\b", re.I)


def most_labour_sentence(question: str, artifacts: list[Artifact]) -> str | None:
    """"WO150914 on 2019-08-18 (M006 Overheating) took the most labour: 6 h of the 9 h booked on the 3 listed."
    for a pick among listed work orders by the labour they took; None when it asks no such pick."""
    if not _MOST_LABOUR.search(question):
        return None
    orders = [o for a in artifacts if a.kind == "work_order_summary" for o in recent_orders(a)]
    if not orders or not any(o.labor_hours for o in orders):
        return None
    top = max(orders, key=lambda o: o.labor_hours)
    total = sum(o.labor_hours for o in orders)
    what = f" ({top.code} {top.description})".replace(" )", ")") if top.code else ""
    return (f"{top.wo_id} on {top.date}{what} took the most labour: {top.labor_hours:g} h of the {total:g} h booked "
            f"on the {len(orders)} listed.")


# "What was the kW doing in the week before?", "how did its supply temp behave?": the course of one reading.
_COURSE = re.compile(r"\bwhat (?:was|were|is|are|has|have)\b.*\bdoing\b|\bhow (?:was|did|has)\b.*\b(?:behav\w*|trend\w*|"
                     r"mov\w*|go|going)\b", re.I)


def reading_course_sentence(question: str, artifacts: list[Artifact]) -> str | None:
    """The named reading of one chiller over the turn's window: its mean and the range it moved in."""
    if not _COURSE.search(question):
        return None
    for sensor in asked_sensors(question)[:1]:
        window = next((a for a in artifacts if a.kind == "telemetry_window" and a.asset_ids
                       and any(name.endswith(sensor) for name in stats_of(a))), None)
        figure = next(iter(sensor_figures(sensor, [window])), None) if window is not None else None
        if window is None or figure is None:
            continue
        entry = next(v for k, v in stats_of(window).items() if k.endswith(sensor))
        low, high = entry.get("min"), entry.get("max")
        # the range, not the all-sample slope: starts and stops would make a slope of the load, not the reading
        spread = f", between {number(low, figure.unit)} and {number(high, figure.unit)}" \
            if isinstance(low, (int, float)) and isinstance(high, (int, float)) else ""
        return (f"{figure.asset}'s {figure.label.lower()} averaged {figure_text(figure)} "
                f"{window_phrase(window)}{spread}.")
    return None


# "when did they happen?", "when were those alarms?": the dates of the alerts listed.
_WHEN_ALERTS = re.compile(r"\bwhen (?:did|do|were|was|have|had) (?:they|those|these|them|the|it)\b", re.I)
_MONTHS_LISTED = 6  # months named in the sentence; the rest are in the lines


def alert_dates_sentence(question: str, artifacts: list[Artifact]) -> tuple[str, list[str]] | None:
    """"The 3 RUL0021 Excessive Power use in chiller that is off alerts on CWC04704 came in January 2021 (1),
    April 2021 (1) and May 2021 (1)." for a question asking when the listed alerts fired, from the rules the user
    asked about (all rules when none); None when it asks no date or no alert read counted them by month."""
    if not _WHEN_ALERTS.search(question):
        return None
    parts, lines = [], []
    for art in artifacts:
        rules = alert_rules(art) if art.kind == "alert_rules" else None
        if not rules:
            continue
        asked = set(asked_rules(art)) | {r.rule_id for r in named_rules(question, rules)}
        chosen = [r for r in rules if r.count and (not asked or r.rule_id in asked)]
        months: dict[str, int] = {}
        for rule in chosen:
            for month, n in rule.months:
                months[month] = months.get(month, 0) + n
        if not months:
            continue
        total = sum(months.values())
        what = rule_text(chosen[0]) + " " if len(chosen) == 1 else ""
        where = ", ".join(art.equipment_ids or art.asset_ids)
        said = join_names([f"{datetime.strptime(m, '%Y-%m'):%B %Y} ({n})" for m, n in sorted(months.items())]
                          [:_MONTHS_LISTED])
        more = f" and {len(months) - _MONTHS_LISTED} more months" if len(months) > _MONTHS_LISTED else ""
        parts.append(f"the {total} {what}alert{'s' if total != 1 else ''} on {where} came in {said}{more}")
        lines += [f"- {r.rule_id} on {where}: " + ", ".join(f"{m} ({n})" for m, n in r.months) for r in chosen]
    if not parts:
        return None
    sentence = "; ".join(parts)
    return sentence[:1].upper() + sentence[1:] + ".", lines
