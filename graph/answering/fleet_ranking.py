"""Compare and rank several chillers (or equipment ids) on the turn's results: the odd one out first.

Pure: per-asset artifacts of one kind (anomaly shares, diagnoses, efficiency, work orders, alerts)
become a headline ("Chiller 6 stands out: ...; Chillers 3, 4 and 9 look normal.") and a Markdown
table, one row per asset, sorted so the asset that matters comes first.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from artifacts.model import Artifact
from artifacts.readings import (
    RankingRow,
    alert_rules,
    anomaly_rate,
    asked_rules,
    conditional,
    hypotheses,
    running_mean,
    stats_of,
    sustained_shifts,
    work_order_counts,
)
from graph.answering.compare_terms import window_phrase
from graph.answering.figures import KEY_SENSORS, sensor_label
from graph.answering.markdown import chillers, join_names, number, table
from graph.understanding.model import speaks_of_alerts
from graph.understanding.request import ranking_end
from specialists.maintenance.prioritize import FALSE_ALARM_RATE

STANDS_OUT_RATE = 2 * FALSE_ALARM_RATE
_FEWEST = re.compile(r"\b(?:fewest|least|lowest number|quietest|smallest number)\b", re.I)
MAX_ROWS = 12  # the site has 11 equipment ids


@dataclass(frozen=True)
class AssetRow:
    """One asset's line in a comparison: its key figure (sort key and text) and what it means."""

    asset: str
    value: float  # higher = more attention
    figure: str  # "31.0% of running samples"
    finding: str
    stands_out: bool
    artifact_id: str


@dataclass(frozen=True)
class Comparison:
    """A ranked comparison: the opening sentence and the table lines under it."""

    headline: str
    lines: list[str]
    rows: list[AssetRow]


def _anomaly_row(art: Artifact) -> AssetRow | None:
    rate = anomaly_rate(art)
    if rate is None or not art.asset_ids:
        return None
    what = "off its expected power-load relation" if conditional(art) else "flagged anomalous"
    shifts = sustained_shifts(art)
    out = rate > STANDS_OUT_RATE or bool(shifts)
    finding = "sustained shift" if shifts else "stands out" if out else "normal" if rate <= FALSE_ALARM_RATE \
        else "slightly above the false-alarm rate"
    return AssetRow(art.asset_ids[0], rate, f"{rate:.1%} of running samples {what}", finding, out, art.id)


def _diagnosis_row(art: Artifact) -> AssetRow | None:
    hyps = hypotheses(art)
    if not hyps or not art.asset_ids:
        return None
    mode, p = hyps[0].failure_mode, hyps[0].probability
    fault = not mode.lower().startswith("no fault")
    return AssetRow(art.asset_ids[0], p if fault else 0.0, f"{mode} ({p:.2f})",
                    "fault suspected" if fault else "no fault", fault and p >= 0.5, art.id)


def _efficiency_row(art: Artifact) -> AssetRow | None:
    if not art.asset_ids:
        return None
    value = running_mean(stats_of(art).get(f"{art.asset_ids[0]} Chiller Efficiency") or {})
    if value is None or value <= 0:
        return None  # 0 kW/ton: no running sample to rate (an idle chiller is not the most efficient)
    return AssetRow(art.asset_ids[0], value, f"{value:.2f} kW/ton while running", "", False, art.id)


def _work_order_row(art: Artifact) -> AssetRow | None:
    counts = work_order_counts(art)
    total = counts.total
    if total is None:
        return None
    name = ", ".join(art.asset_ids) or ", ".join(art.equipment_ids)
    if art.asset_ids and art.equipment_ids:
        name = f"{art.asset_ids[0]} ({art.equipment_ids[0]})"
    orders = "work order" if total == 1 else "work orders"
    return AssetRow(name, float(total), f"{total} {orders}, {counts.corrective} corrective", "", False, art.id)


def _alert_row(art: Artifact) -> AssetRow | None:
    rules = alert_rules(art) or []
    name = ", ".join(art.equipment_ids or art.asset_ids)
    if not name:
        return None
    asked = asked_rules(art)
    if asked:  # "which one had the most?" after a question about one rule: that rule's alerts rank them
        counted = [r for r in rules if r.rule_id in asked]
        count = sum(r.count for r in counted)
        label = " ".join(dict.fromkeys(asked)) if len(asked) > 1 else asked[0]
        return AssetRow(name, float(count), f"{count} {label} alert{'' if count == 1 else 's'}",
                        f"of {sum(r.count for r in rules)} alerts in all", False, art.id)
    count = sum(r.count for r in rules)
    # The two busiest rules: "what rules are those mostly?" is answered from the table itself.
    busiest = sorted((r for r in rules if r.count), key=lambda r: -r.count)[:2]
    finding = "mostly " + ", then ".join(f"{r.rule_id} ({r.count})" for r in busiest) if busiest else "no alerts"
    return AssetRow(name, float(count), f"{count} alerts", finding, False, art.id)


# kind -> (row builder, header of the figure column, ranked by count rather than by a finding)
ROWS: dict[str, tuple[Callable[[Artifact], AssetRow | None], str, bool]] = {
    "anomaly_detection": (_anomaly_row, "Anomalous share", False),
    "diagnose": (_diagnosis_row, "Most likely cause", False),
    "work_order_summary": (_work_order_row, "Work orders", True),
    "alert_rules": (_alert_row, "Alerts", True),
    "telemetry_window": (_efficiency_row, "Efficiency", False),
}


def ranking_lines(rows: list[RankingRow], limit: int = 6) -> list[str]:
    """A priority ranking as evidence lines: each asset's score and its first reason."""
    return [f"- {r.asset_id}: score {r.score}" + (f", {r.reasons[0]}" if r.reasons else "") for r in rows[:limit]]


def _latest_per_asset(artifacts: list[Artifact], kind: str) -> list[Artifact]:
    by_asset: dict[str, Artifact] = {}
    for art in artifacts:
        if art.kind == kind:
            key = ",".join(art.asset_ids or art.equipment_ids)
            if key not in by_asset or (art.turn_index or 0) >= (by_asset[key].turn_index or 0):
                by_asset[key] = art
    return list(by_asset.values())


def _natural(name: str) -> tuple[str, int]:
    """'Chiller 10' after 'Chiller 9'."""
    head, _, tail = name.rpartition(" ")
    return (head, int(tail)) if tail.isdigit() else (name, 0)


def _headline(kind: str, rows: list[AssetRow], best_first: bool = False, fewest: bool = False,
              period: str = "") -> str:
    """The ranking's first sentence; a count says over which `period` ("in July 2016"), so a ranking asked again
    for another month says which month it is."""
    if ROWS[kind][2]:  # counts: the largest first (the smallest when the fewest are asked for)
        first = rows[0]
        unit = "work orders" if kind == "work_order_summary" else "alerts"
        when = f" {period}" if period else ""
        if all(r.value == 0 for r in rows):  # nothing to rank: none had any
            return f"None of the {len(rows)} equipment ids has any {unit}{when or ' in this period'}."
        if fewest:
            return f"{first.asset} has the fewest {unit}{when}: {first.figure}; {len(rows) - 1} other equipment id(s) " \
                   "above it."
        return (f"{first.asset} has the most {unit}{when}: {first.figure}; "
                f"{len(rows) - 1} other equipment id(s) below it.")
    if kind == "telemetry_window":
        worst, best = rows[0], rows[-1]
        if best_first:  # "and the best?", "which got more cooling per kW?": the good end leads
            return f"{best.asset} runs most efficiently: {best.figure} (worst: {worst.asset}, {worst.figure})."
        return f"{worst.asset} runs least efficiently: {worst.figure} (best: {best.asset}, {best.figure})."
    out = [r for r in rows if r.stands_out]
    rest = sorted((r.asset for r in rows if not r.stands_out), key=_natural)
    normal = f"{chillers(rest)} {'looks' if len(rest) == 1 else 'look'} normal" if rest else ""
    if not out:
        return f"None of {chillers([r.asset for r in rows])} stands out: {rows[0].asset} is highest at {rows[0].figure}."
    if len(out) == 1:
        return f"{out[0].asset} stands out: {out[0].figure}" + (f"; {normal}." if normal else ".")
    figures = "; ".join(f"{r.asset} {r.figure}" for r in out)
    return f"{chillers([r.asset for r in out])} stand out ({figures})" + (f"; {normal}." if normal else ".")


MAX_SENSOR_COLUMNS = 5


def _telemetry_table(windows: list[Artifact], rows: list[AssetRow]) -> list[str]:
    """Side by side telemetry: one column per sensor the windows share (running means, with units)."""
    by_asset = {a.asset_ids[0]: a for a in windows if a.asset_ids}
    stats = {asset: {sensor_label(name, asset): entry for name, entry in stats_of(art).items()}
             for asset, art in by_asset.items()}
    key_order = [sensor_label(k, "") for k in KEY_SENSORS]
    common = set.intersection(*(set(s) for s in stats.values())) if stats else set()
    shared = sorted(common, key=lambda label: (key_order.index(label) if label in key_order else len(key_order),
                                               label))[:MAX_SENSOR_COLUMNS]

    def cell(asset: str, label: str) -> str:
        entry = stats[asset].get(label) or {}
        value = running_mean(entry)
        mean = entry.get("mean")
        shown = value if value is not None else mean if isinstance(mean, int | float) else None
        return "-" if shown is None else number(float(shown), str(entry.get("unit") or ""))

    lines = table(["Asset", *shared], [[r.asset, *(cell(r.asset, label) for label in shared)] for r in rows
                                       if r.asset in stats])
    return [*lines, "(means while running)"]


def compare_assets(artifacts: list[Artifact], question: str = "") -> Comparison | None:
    """A ranked comparison of the first kind (in `ROWS` order) with results for two or more assets (an efficiency
    ranking leads with the best one when the question asks for the good end)."""
    best_first = ranking_end(question.lower()) == "good"
    for kind, (build, header, _) in ROWS.items():
        windows = _latest_per_asset(artifacts, kind)
        rows = [r for r in (build(a) for a in windows) if r is not None]
        if len(rows) < 2:
            continue
        rows.sort(key=lambda r: (-r.value, r.asset))
        fewest = ROWS[kind][2] and bool(_FEWEST.search(question))
        if fewest:  # "which one needed the fewest corrective jobs?": the quiet end leads
            rows.sort(key=lambda r: (r.value, r.asset))
        shown = rows[:MAX_ROWS]
        if kind == "telemetry_window":
            if best_first:
                rows.reverse()
            return Comparison(_headline(kind, rows[::-1] if best_first else rows, best_first),
                              _telemetry_table(windows, rows[:MAX_ROWS]), rows)
        both = _with_alerts(kind, rows, artifacts, question)
        lines = both if both is not None else \
            table(["Asset", header, "Finding"], [[r.asset, r.figure, r.finding or "-"] for r in shown])
        if len(rows) > MAX_ROWS:
            lines.append(f"and {len(rows) - MAX_ROWS} more: {join_names([r.asset for r in rows[MAX_ROWS:]])}.")
        periods = {window_phrase(a) for a in windows}
        headline = _headline(kind, rows, fewest=fewest, period=periods.pop() if len(periods) == 1 else "")
        if ROWS[kind][2]:  # "Chiller 6 (CWC04006) has the most alerts": the chiller by name, its records' id beside
            headline = headline.replace(rows[0].asset, _named_row(rows[0], {a.id: a for a in windows}), 1)
        if both is not None:  # the other record kind's leader beside: "...; CWC04009 has the most alerts: 79."
            alert_rows = sorted((r for a in _latest_per_asset(artifacts, "alert_rules") if (r := _alert_row(a))),
                                key=lambda r: (-r.value, r.asset))
            headline = f"{headline.rstrip('.')}; {alert_rows[0].asset} has the most alerts: {alert_rows[0].figure}."
        return Comparison(headline, lines, rows)
    return None


def _with_alerts(kind: str, rows: list[AssetRow], artifacts: list[Artifact], question: str) -> list[str] | None:
    """"alerts and corrective WOs per chiller": one table of both records, a row per equipment id in the work
    orders' order, when the question asks for alerts beside the work orders and both were counted."""
    if kind != "work_order_summary" or not speaks_of_alerts(question.lower()):
        return None
    alerts = {",".join(a.equipment_ids or a.asset_ids): row for a in _latest_per_asset(artifacts, "alert_rules")
              if (row := _alert_row(a)) is not None}
    if len(alerts) < 2:
        return None
    by_id = {a.id: a for a in artifacts}

    def alert_cell(row: AssetRow) -> str:
        art = by_id.get(row.artifact_id)
        found = alerts.get(",".join(art.equipment_ids)) if art is not None else None
        return found.figure if found is not None else "-"

    return table(["Asset", "Work orders", "Alerts", "Alerts mostly"],
                 [[r.asset, r.figure, alert_cell(r), _alert_finding(r, by_id, alerts)] for r in rows[:MAX_ROWS]])


def _alert_finding(row: AssetRow, by_id: dict[str, Artifact], alerts: dict[str, AssetRow]) -> str:
    art = by_id.get(row.artifact_id)
    found = alerts.get(",".join(art.equipment_ids)) if art is not None else None
    return (found.finding or "-") if found is not None else "-"


def _named_row(row: AssetRow, artifacts: dict[str, Artifact]) -> str:
    """"Chiller 6 (CWC04006)" for a row of an equipment id whose listing maps to one chiller."""
    art = artifacts.get(row.artifact_id)
    chiller = art.asset_ids[0] if art is not None and len(art.asset_ids) == 1 else ""
    return f"{chiller} ({row.asset})" if chiller and chiller not in row.asset else row.asset


def same_pick_sentence(artifacts: list[Artifact], subject: str) -> tuple[str, list[str]] | None:
    """"Was it the same unit last year?": whether `subject` (the one picked before) tops the same count of records
    over this turn's period, with the one that does and both figures. None without two equipment ids counted."""
    by_id = {a.id: a for a in artifacts}
    for kind, (build, _header, counted) in ROWS.items():
        if not counted:
            continue
        rows = [r for r in (build(a) for a in _latest_per_asset(artifacts, kind)) if r is not None]
        if len(rows) < 2:
            continue
        rows.sort(key=lambda r: (-r.value, r.asset))
        mine = next((r for r in rows if subject in _named_row(r, by_id)), None)
        if mine is None:
            return None
        top = rows[0]
        lines = [f"- {_named_row(r, by_id)}: {r.figure} [{r.artifact_id}]" for r in rows[:MAX_ROWS]]
        if top.value == mine.value:
            return f"Yes, {_named_row(mine, by_id)} had the most again: {mine.figure}.", lines
        return f"No, {_named_row(top, by_id)} had the most: {top.figure}, against {mine.figure} on {subject}.", lines
    return None
