"""Yes/no on what changed between two windows: "was the gap down to the condenser?", "did the cleaning fix it?".

Pure functions over telemetry windows and anomaly results of this turn and the session:
- attribution: the sensors of the part the question blames (condenser, evaporator, compressor, load),
  their running means in the two windows compared; yes when one moved materially;
- repair: the work order the question refers to (its words, else the latest corrective order), and the
  evidence before and after its date; yes when the after window is clean (anomalies) or better (kW/ton).
No verdict without evidence on both sides: a plan or a protocol is not a measurement.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from artifacts.model import Artifact
from artifacts.readings import (
    OrderRef,
    anomaly_rate,
    hypotheses,
    latest_per_job,
    order_before,
    recent_orders,
    running_mean,
    stats_of,
)
from graph.answering.asked_figures import HIGHER_IS_WORSE, asked_sensors
from graph.answering.compare_terms import window_phrase
from graph.answering.figures import sensor_label
from graph.answering.markdown import number
from graph.answering.yes_no import Answer, Verdict
from graph.understanding.request import BACK_TO_NORMAL
from specialists.maintenance.prioritize import FALSE_ALARM_RATE

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MATERIAL_DEGF = 1.0  # a temperature mean that moved a degree F or more moved materially
MATERIAL_SHARE = 0.05  # any other mean (flow, power, load): 5% or more
BETTER_WITHIN = 0.02  # kW/ton after a repair: 2% lower or more is an improvement
CLEAR_RATE = 2 * FALSE_ALARM_RATE  # anomaly shares up to this are what the detector flags on healthy data
_ATTRIBUTES = re.compile(r"\b(down to|due to|because of|caused? by|causes?|causing|explain\w*|driven by|blame\w*|"
                         r"comes? from|came from|behind|responsible|to do with|from the)\b", re.I)
# The parts a user blames -> the sensors (bare names) that show them.
_PARTS: tuple[tuple[str, re.Pattern[str], Callable[[str], bool]], ...] = (
    ("condenser", re.compile(r"\bcondens\w*|\btowers?\b|\bcooling water\b", re.I),
     lambda bare: bare.startswith("Condenser Water")),
    ("evaporator", re.compile(r"\bevap\w*|\bchilled[- ]water\b", re.I),
     lambda bare: bare in ("Liquid Refrigerant Evaporator Temperature", "Supply Temperature", "Return Temperature")),
    ("refrigerant", re.compile(r"\brefrigerant\b|\bcharge\b", re.I),
     lambda bare: bare == "Liquid Refrigerant Evaporator Temperature"),
    ("compressor", re.compile(r"\bcompressor\b|\bmotor\b", re.I), lambda bare: bare == "Power Input"),
    ("load", re.compile(r"\bload\w*\b|\bdemand\b|\bweather\b|\bheat\b", re.I),
     lambda bare: bare in ("Chiller % Loaded", "Tonnage")),
)
# "Did the cleaning fix it?", "has it improved since the repair?": whether a repair worked.
_REPAIRED = re.compile(r"\b(fix\w*|worked|did (it|that|this|the \w+) (?:work|help)|helped|solv\w*|resolv\w*|cured?|sorted|"
                       r"sort (?:\w+ ){0,3}out|sort (?:it|that|them)\b|"
                       r"improv\w*|ma(k|d)e a difference|d(o|id) the trick)\b", re.I)
_WORDS = re.compile(r"[a-z]{4,}")


@dataclass(frozen=True)
class Moved:
    """One sensor's running mean in the two windows compared."""

    label: str
    asked: float
    other: float
    unit: str

    @property
    def material(self) -> bool:
        delta = self.asked - self.other
        if self.unit == "degF":
            return abs(delta) >= MATERIAL_DEGF
        return abs(delta) >= MATERIAL_SHARE * abs(self.other) if self.other else self.asked != 0

    def text(self, asked_when: str, other_when: str) -> str:
        change = f"{(self.asked - self.other) / abs(self.other):+.0%}" if self.other and self.unit != "degF" \
            else f"{self.asked - self.other:+.1f} degF" if self.unit == "degF" else ""
        return (f"{self.label.lower()} {number(self.asked, self.unit)} {asked_when} against "
                f"{number(self.other, self.unit)} {other_when}" + (f" ({change})" if change else ""))


def _means(window: Artifact, shows: Callable[[str], bool]) -> dict[str, tuple[str, float, str]]:
    """bare sensor -> (label, running mean, unit) for the sensors `shows` selects."""
    asset = window.asset_ids[0] if window.asset_ids else ""
    found = {}
    for name, entry in stats_of(window).items():
        bare = name.removeprefix(f"{asset} ")
        value = running_mean(entry)
        if shows(bare) and value is not None and entry.get("count") != 0:
            found[bare] = (sensor_label(name, asset), value, str(entry.get("unit") or ""))
    return found


def _key(window: Artifact) -> tuple[str, Any, Any]:
    return ",".join(window.asset_ids), window.window_start, window.window_end


def window_pair(turn: list[Artifact], session: list[Artifact]) -> tuple[Artifact, Artifact] | None:
    """The two telemetry windows a difference is between: the turn's two, or the turn's one and the session's
    latest other window of the same asset (else of another asset over the same window); one asset's
    windows come latest first, as "now against then"."""
    mine = list({_key(a): a for a in turn if a.kind == "telemetry_window" and stats_of(a)}.values())
    if not mine:
        return None
    others = mine[1:] or [a for a in reversed(session) if a.kind == "telemetry_window" and stats_of(a)
                          and _key(a) != _key(mine[0])]
    same_asset = [a for a in others if a.asset_ids == mine[0].asset_ids]
    same_window = [a for a in others if (a.window_start, a.window_end) == (mine[0].window_start, mine[0].window_end)]
    other = (same_asset or same_window)[:1]
    if not other:
        return None
    first, second = mine[0], other[0]
    if first.asset_ids == second.asset_ids and (second.window_start or _EPOCH) > (first.window_start or _EPOCH):
        return second, first
    return first, second


def _sides(one: Artifact, two: Artifact) -> tuple[str, str]:
    """How the two windows are told apart: by period for one asset, by asset for one period."""
    if one.asset_ids == two.asset_ids:
        return window_phrase(one), window_phrase(two)
    if (one.window_start, one.window_end) == (two.window_start, two.window_end):
        return f"on {', '.join(one.asset_ids)}", f"on {', '.join(two.asset_ids)}"
    return (f"on {', '.join(one.asset_ids)} {window_phrase(one)}".strip(),
            f"on {', '.join(two.asset_ids)} {window_phrase(two)}".strip())


def attribution_verdict(question: str, turn: list[Artifact], session: list[Artifact]) -> Verdict | None:
    """Was the difference down to <part>? Yes when a sensor of that part moved materially between the two
    windows compared; no when none did. None without a part named or without two windows."""
    if not _ATTRIBUTES.search(question):
        return None
    part = next(((name, shows) for name, pattern, shows in _PARTS if pattern.search(question)), None)
    pair = window_pair(turn, session)
    if part is None or pair is None:
        return None
    name, shows = part
    asked, other = pair
    here, there = _means(asked, shows), _means(other, shows)
    moved = [Moved(here[s][0], here[s][1], there[s][1], here[s][2]) for s in here if s in there]
    if not moved:
        return None
    moved.sort(key=lambda m: -abs(m.asked - m.other) / (abs(m.other) or 1.0))
    a_when, o_when = _sides(asked, other)
    lines = [f"- {m.text(a_when, o_when)}{' (material)' if m.material else ''}" for m in moved]
    kwt_here, kwt_there = _efficiency(asked), _efficiency(other)
    if kwt_here is not None and kwt_there is not None:  # the difference being explained, for scale
        lines.append(f"- the gap itself: {Moved('Efficiency', kwt_here, kwt_there, 'kW/ton').text(a_when, o_when)}")
    lines.append(f"Source: [{asked.id}], [{other.id}]")
    material = [m for m in moved if m.material]
    on = f" on {', '.join(asked.asset_ids)}" if asked.asset_ids == other.asset_ids else ""
    if material:
        return Verdict("Yes", f"Yes, the {name} side differs{on}: {material[0].text(a_when, o_when)}.", lines)
    return Verdict("No", f"No, the {name} readings{on} barely moved: {moved[0].text(a_when, o_when)}.", lines)


def _order_date(order: OrderRef) -> datetime | None:
    try:
        return datetime.fromisoformat(order.date) if order.date else None
    except ValueError:
        return None


def referred_repair(question: str, artifacts: list[Artifact], asset: str) -> OrderRef | None:
    """The work order the question refers to: the corrective one of `asset` sharing a word stem with the
    question ("the cleaning" -> "Evaporator Tube Cleaning"), else its latest corrective order."""
    listed = [[*recent_orders(a), order_before(a)] for a in artifacts
              if a.kind == "work_order_summary" and asset in a.asset_ids]
    dated = [o for group in listed for o in group if o is not None and _order_date(o) is not None]
    orders = [o for o in dated if not o.preventive]
    stems = {w[:5] for w in _WORDS.findall(question.lower())}
    # the job the question names, corrective or planned ("they cleaned its tubes": a cleaning order of any kind)
    said = [o for o in dated if stems & {w[:5] for w in _WORDS.findall(f"{o.description} {o.code}".lower())}]
    if not said and not orders:
        return None
    return max(said or orders, key=lambda o: o.date)


def _local(moment: datetime | None) -> datetime | None:
    return moment.replace(tzinfo=None) if moment is not None else None


def _around(found: list[tuple[Artifact, float]], when: datetime) -> tuple[tuple[Artifact, float], tuple[Artifact, float]] | None:
    day = timedelta(days=1)
    before = [(a, v) for a, v in found if (end := _local(a.window_end)) is not None and end <= when + day]
    after = [(a, v) for a, v in found if (start := _local(a.window_start)) is not None and start >= when]
    if not before or not after:
        return None
    return max(before, key=lambda p: _local(p[0].window_end) or when), min(after, key=lambda p: _local(p[0].window_start) or when)


def _mean_of(window: Artifact, sensor: str) -> float | None:
    means: Mapping[str, tuple[str, float, str]] = _means(window, lambda bare: bare == sensor)
    return next(iter(means.values()))[1] if means else None


def _reading_after_repair(asset: str, sensor: str, done: str,
                          level: tuple[tuple[Artifact, float], tuple[Artifact, float]]) -> Verdict:
    """Yes when the named reading moved the good way after the repair by more than BETTER_WITHIN (lower for power,
    kW/ton and the temperatures that rise with trouble; higher for the rest: flow, tonnage)."""
    (b_art, b), (a_art, a) = level
    lower_is_better = sensor in HIGHER_IS_WORSE
    better = a <= b * (1 - BETTER_WITHIN) if lower_is_better else a >= b * (1 + BETTER_WITHIN)
    answer: Answer = "Yes" if better else "No"
    unit = next(iter(_means(a_art, lambda bare: bare == sensor).values()))[2]
    moved = "better" if better else "about the same" if abs(a - b) <= abs(b) * BETTER_WITHIN else "worse"
    return Verdict(answer, f"{answer}, {asset}'s {sensor_label(sensor, asset).lower()} is {moved} after {done}: "
                           f"{number(a, unit)} while running against {number(b, unit)} before.",
                   [f"- before: {window_phrase(b_art)} [{b_art.id}]", f"- after: {window_phrase(a_art)} [{a_art.id}]"])


def _efficiency(window: Artifact) -> float | None:
    means: Mapping[str, tuple[str, float, str]] = _means(window, lambda bare: bare == "Chiller Efficiency")
    return next(iter(means.values()))[1] if means else None


def _read_around(mine: list[Artifact], when: datetime | None) -> bool:
    """Telemetry windows end before `when` and start after it: the readings around that day were read."""
    windows = [(a, 0.0) for a in mine if a.kind == "telemetry_window"]
    return when is not None and _around(windows, when) is not None


def _order_read_around(pool: list[Artifact], asset: str, mine: list[Artifact]) -> OrderRef | None:
    """The latest listed order of `asset` whose day the turn's readings sit either side of."""
    listed = [o for a in pool if a.kind == "work_order_summary" and asset in a.asset_ids
              for o in [*recent_orders(a), *latest_per_job(a)] if o is not None]
    return max((o for o in listed if _read_around(mine, _order_date(o))), key=lambda o: o.date, default=None)


def repair_verdict(question: str, turn: list[Artifact], session: list[Artifact]) -> Verdict | None:
    """Did the repair fix it? Anomaly shares (else kW/ton) before and after the referred work order's date."""
    if not _REPAIRED.search(question):
        return None
    pool = list({a.id: a for a in [*turn, *session]}.values())
    for asset in dict.fromkeys(x for a in turn for x in a.asset_ids):
        mine = [a for a in pool if asset in a.asset_ids]
        order = referred_repair(question, pool, asset)
        if order is None or not _read_around(mine, _order_date(order)):
            # ("did it make a difference?" names no job: the order the turn read the readings around)
            order = _order_read_around(pool, asset, mine) or order
        when = _order_date(order) if order is not None else None
        if order is None or when is None:
            continue
        rates = _around([(a, r) for a in mine if a.kind == "anomaly_detection" and (r := anomaly_rate(a)) is not None],
                        when)
        kwt = _around([(a, v) for a in mine if a.kind == "telemetry_window" and (v := _efficiency(a)) is not None],
                      when)
        done = f"{order.wo_id} ({order.description or order.code}) on {order.date}"
        named = [x for x in asked_sensors(question) if x != "Chiller Efficiency"][:1]
        level = _around([(a, v) for a in mine if a.kind == "telemetry_window" and (v := _mean_of(a, named[0])) is not None],
                        when) if named else None
        if level is not None:  # "did that sort the flow out?": the reading the question names, before and after
            return _reading_after_repair(asset, named[0], done, level)
        if rates is not None:
            (b_art, b), (a_art, a) = rates
            answer: Answer = "Yes" if a <= CLEAR_RATE and a < b else "No"
            how = "back within what the detector flags on healthy data" if answer == "Yes" else "still flagged"
            return Verdict(answer, f"{answer}, {asset} is {how} after {done}: {a:.1%} of running samples flagged "
                                   f"against {b:.1%} before.", [f"- before: [{b_art.id}]", f"- after: [{a_art.id}]"])
        if kwt is not None:
            (b_art, b), (a_art, a) = kwt
            answer = "Yes" if a <= b * (1 - BETTER_WITHIN) else "No"
            how = "runs more efficiently" if answer == "Yes" else "runs no better"
            return Verdict(answer, f"{answer}, {asset} {how} after {done}: {number(a, 'kW/ton')} while running "
                                   f"against {number(b, 'kW/ton')} before.",
                           [f"- before: {window_phrase(b_art)} [{b_art.id}]", f"- after: {window_phrase(a_art)} [{a_art.id}]"])
    return None



_RECOVERED_WITHIN = 0.10  # after within 10% of before, and nearer to it than the period discussed was
_OVERLAP_ALLOWED = timedelta(days=7)  # an earlier month read may run a few days into the month before


def _found_trouble(session: list[Artifact], asset: str, window: Artifact) -> bool:
    """Whether the session diagnosed a fault (not "no fault") on `asset` over the window of `window`."""
    return any(a.kind == "diagnose" and asset in a.asset_ids and a.window_start == window.window_start
               and (found := hypotheses(a)) and not found[0].failure_mode.lower().startswith("no fault")
               for a in session)


def recovery_verdict(question: str, turn: list[Artifact], session: list[Artifact], reading: str | None) -> Verdict | None:
    """Is the reading discussed (`reading`, bare name) back to normal: its mean since the period discussed against
    the month before it (the turn's two windows), with the period discussed itself said when the session read it."""
    if reading is None or not BACK_TO_NORMAL.search(question):
        return None
    windows = sorted((a for a in turn if a.kind == "telemetry_window" and a.window_start is not None),
                     key=lambda a: a.window_start or _EPOCH)
    for asset in dict.fromkeys(x for a in windows for x in a.asset_ids):
        mine = [(a, m) for a in windows if asset in a.asset_ids
                and (m := _means(a, lambda bare: bare == reading))]
        if len(mine) < 2:
            continue
        (before_art, before), (after_art, after) = mine[0], mine[-1]
        label, was, unit = next(iter(before.values()))
        now = next(iter(after.values()))[1]
        between = [(a, m) for a in session if asset in a.asset_ids and a.kind == "telemetry_window"
                   and a.window_start is not None and before_art.window_end is not None
                   and after_art.window_start is not None
                   and before_art.window_end <= a.window_start < after_art.window_start
                   and (m := _means(a, lambda bare: bare == reading))]
        during = next(iter(between[-1][1].values()))[1] if between else None
        # a level the dialog read earlier, before the month before: when that month was itself off it ("they
        # cleaned the strainer last week, is it back to normal?" after August's flow against July's), the earlier
        # level is the normal one, and the month before is the trouble
        earlier = [(a, m) for a in session if asset in a.asset_ids and a.kind == "telemetry_window"
                   and a.window_end is not None and before_art.window_start is not None
                   and a.window_end <= before_art.window_start + _OVERLAP_ALLOWED
                   and (m := _means(a, lambda bare: bare == reading))]
        earliest, normal = None, None
        if earlier:
            earliest, means = min(earlier, key=lambda p: p[0].window_start or _EPOCH)
            normal = next(iter(means.values()))[1]
        if earliest is not None and normal is not None and during is None \
                and abs(was - normal) > abs(normal) * _RECOVERED_WITHIN:
            answer: Answer = "Yes" if abs(now - normal) <= abs(normal) * _RECOVERED_WITHIN else "No"
            sentence = (f"{answer}, {asset}'s {label.lower()} is {'back to' if answer == 'Yes' else 'still off'} its "
                        f"level before the trouble: {number(now, unit)} while running {window_phrase(after_art)}, "
                        f"against {number(was, unit)} {window_phrase(before_art)} and {number(normal, unit)} "
                        f"{window_phrase(earliest)}.")
            return Verdict(answer, " ".join(sentence.split()), [f"- normal: [{earliest.id}]",
                                                                f"- before: [{before_art.id}]",
                                                                f"- since: [{after_art.id}]"])
        if during is None and _found_trouble(session, asset, before_art):
            # "root cause?" found a fault in June; "has kw/ton come back since? sept vs june": June is the trouble,
            # so coming back is moving away from it, the right way
            better = now < was if reading in HIGHER_IS_WORSE else now > was
            answer = "Yes" if better and abs(now - was) > abs(was) * _RECOVERED_WITHIN else "No"
            sentence = (f"{answer}, {asset}'s {label.lower()} has {'come back' if answer == 'Yes' else 'not come back'}: "
                        f"{number(now, unit)} while running {window_phrase(after_art)} against {number(was, unit)} "
                        f"{window_phrase(before_art)}, when the fault was found.")
            return Verdict(answer, " ".join(sentence.split()), [f"- trouble: [{before_art.id}]",
                                                                f"- since: [{after_art.id}]"])
        close = abs(now - was) <= abs(was) * _RECOVERED_WITHIN
        nearer = during is None or abs(now - was) < abs(during - was)
        answer = "Yes" if close and nearer else "No"
        then = f", against {number(during, unit)} {window_phrase(between[-1][0])}" if during is not None else ""
        sentence = (f"{answer}, {asset}'s {label.lower()} is {'back to' if answer == 'Yes' else 'still off'} its "
                    f"level before: {number(now, unit)} while running "
                    f"{window_phrase(after_art)}{then} and {number(was, unit)} {window_phrase(before_art)}.")
        return Verdict(answer, " ".join(sentence.split()), [f"- before: [{before_art.id}]", f"- since: [{after_art.id}]"])
    return None
