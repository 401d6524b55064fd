"""Yes/no from the maintenance records' analyses: do a rule's alerts lead to work orders, could repairs have
shared a visit.

Pure functions over `alert_to_failure` and `bundles` artifacts. The share of alerts followed by a work
order is judged by the triage rule the analysis states (specialists/maintenance/alerts.py): meaningful
from MEANINGFUL_P, likely spurious under SPURIOUS_P; between them a rule leads to work "sometimes".
"""

from __future__ import annotations

import re

from artifacts.model import Artifact
from artifacts.readings import (
    AlertOutcome,
    RuleCount,
    alert_outcomes,
    alert_rules,
    order_groups,
    stated_rule,
    work_order_counts,
)
from graph.answering.asked_figures import named_rules, rule_text
from graph.answering.compare_terms import mention_position, window_phrase
from graph.answering.markdown import join_names
from graph.answering.yes_no import Verdict
from specialists.maintenance.alerts import MEANINGFUL_P, SPURIOUS_P

TOO_FEW = "too few alerts"
MAX_GROUPS_SHOWN = 4
# "do THEY / these alerts lead to ...": every rule together; "does THAT ONE": the rule being discussed.
_PLURAL = re.compile(r"\b(ones|they|them|these|those|alerts|alarms|rules|any of)\b", re.I)
_WINDOW_DAYS = re.compile(r"within (\d+) days")


def _rule_names(artifacts: list[Artifact]) -> dict[str, str]:
    return {r.rule_id: r.rule_name for a in artifacts if a.kind == "alert_rules" for r in alert_rules(a) or []}


def _rule(outcome: AlertOutcome, names: dict[str, str]) -> RuleCount:
    return RuleCount(outcome.rule_id, outcome.alerts, names.get(outcome.rule_id, ""))


def _share(outcome: AlertOutcome, names: dict[str, str], where: str) -> str:
    """`26% of the 46 RUL0017 Load Low alerts on CWC04009`."""
    return f"{outcome.p_work_order:.0%} of the {outcome.alerts} {rule_text(_rule(outcome, names))} alerts on {where}"


def _one_rule(outcome: AlertOutcome, names: dict[str, str], where: str, when: str) -> Verdict:
    share = _share(outcome, names, where) + (f" {when}" if when else "")
    later = f", {outcome.hours_to_work_order:.0f} h later on average" if outcome.hours_to_work_order else ""
    if outcome.verdict == TOO_FEW or outcome.alerts == 0:
        return Verdict("Not clearly", f"Not clearly: {rule_text(_rule(outcome, names))} fired only {outcome.alerts} "
                                      f"time{'s' if outcome.alerts != 1 else ''} on {where}, too few to tell.")
    if outcome.p_work_order >= MEANINGFUL_P:
        return Verdict("Yes", f"Yes, a work order followed {share}{later}.")
    if outcome.p_work_order == 0:
        return Verdict("No", f"No, none of the {outcome.alerts} {rule_text(_rule(outcome, names))} alerts on {where} "
                             f"was followed by a work order.")
    if outcome.p_work_order < SPURIOUS_P:
        return Verdict("No", f"No, rarely: a work order followed only {share}.")
    return Verdict("Partly", f"Sometimes: a work order followed {share}{later}, below the {MEANINGFUL_P:.0%} that "
                             f"makes a rule meaningful.")


def _all_rules(found: list[tuple[Artifact, AlertOutcome]], names: dict[str, str], when: str) -> Verdict:
    where = join_names(sorted({", ".join(a.equipment_ids or a.asset_ids) for a, _ in found}))
    counted = [o for _, o in found if o.verdict != TOO_FEW]
    total = sum(o.alerts for o in counted)
    share = sum(o.p_work_order * o.alerts for o in counted) / total if total else 0.0
    leading = [o for o in counted if o.p_work_order >= MEANINGFUL_P]
    figures = f"a work order followed {share:.0%} of the {total} alerts on {where}" + (f" {when}" if when else "")
    if not counted:
        return Verdict("Not clearly", f"Not clearly: too few alerts on {where} to tell.")
    led = join_names([f"{rule_text(_rule(o, names))} ({o.p_work_order:.0%} of {o.alerts})" for o in leading])
    if share >= MEANINGFUL_P:
        return Verdict("Yes", f"Yes, {figures}" + (f", most often after {led}." if leading else "."))
    if leading:
        return Verdict("Partly", f"Partly: {figures}; {led} {'leads' if len(leading) == 1 else 'lead'} to work, "
                                 f"the other rules mostly do not.")
    if share < SPURIOUS_P:
        return Verdict("No", f"No, rarely: {figures}.")
    return Verdict("Partly", f"Sometimes: {figures}; no rule reaches the {MEANINGFUL_P:.0%} that makes it meaningful.")


def alert_outcome_verdict(artifacts: list[Artifact], question: str = "",
                          session: list[Artifact] | None = None) -> Verdict | None:
    """Do the alerts (of the rule the question names or points at) lead to work orders? From the share
    of alerts followed by one; "that one" is the rule with the most alerts, "they" all of them."""
    found = [(a, o) for a in artifacts if a.kind == "alert_to_failure" for o in alert_outcomes(a)]
    if not found:
        return None
    names = _rule_names([*artifacts, *(session or [])])
    named_ids = {r.rule_id for r in named_rules(question, [_rule(o, names) for _, o in found])}
    picked = [(a, o) for a, o in found if o.rule_id in named_ids]
    if not picked and len(found) > 1 and not _PLURAL.search(question):
        picked = [max(found, key=lambda p: (p[1].alerts, -len(p[1].rule_id)))]
    picked = picked or found
    rule = next((stated_rule(a) for a, _ in found if stated_rule(a)), "")
    lines = [f"- {rule_text(_rule(o, names))} on {', '.join(a.equipment_ids or a.asset_ids)}: work order after "
             f"{o.p_work_order:.0%} of {o.alerts} alerts ({o.verdict}) [{a.id}]" for a, o in found]
    lines += [f"Triage rule: {rule}"] if rule else []
    when = window_phrase(picked[0][0])
    if len(picked) == 1:
        art, outcome = picked[0]
        verdict = _one_rule(outcome, names, ", ".join(art.equipment_ids or art.asset_ids), when)
    else:
        verdict = _all_rules(picked, names, when)
    return Verdict(verdict.answer, verdict.sentence, lines)


def bundle_verdict(artifacts: list[Artifact], question: str = "") -> Verdict | None:
    """Could repairs have been done in one visit? Yes with the groups the bundling rule found, or no."""
    found = [(a, order_groups(a)) for a in artifacts if a.kind == "bundles"]
    if not found:
        return None
    where = join_names([", ".join(a.equipment_ids or a.asset_ids) for a, _ in found])
    when = window_phrase(found[0][0])
    rule = next((stated_rule(a) for a, _ in found if stated_rule(a)), "")
    groups = [(a, g) for a, gs in found for g in gs]
    lines = [f"- {g.start} to {g.end}: {join_names([f'{w} ({c})' if c else w for w, c in zip(g.wo_ids, g.codes, strict=False)])}"
             f" on {g.equipment_id} [{a.id}]" for a, g in groups[:MAX_GROUPS_SHOWN]]
    lines += [f"Rule: {rule}"] if rule else []
    if not groups:
        days = _WINDOW_DAYS.search(rule)
        reason = f"no two finished within {days.group(1)} days of each other" if days else "none fits the bundling rule"
        return Verdict("No", f"No, not on {where}{' ' + when if when else ''}: {reason}.", lines)
    visits = sum(g.visits_saved for _, g in groups)
    hours = sum(g.hours_saved for _, g in groups)
    saving = f"saving {visits} visit{'s' if visits != 1 else ''}" + (f" (~{hours:g} h)" if hours else "")
    if len(groups) == 1:
        group = groups[0][1]
        sentence = (f"Yes, {len(group.wo_ids)} corrective orders on {group.equipment_id} between {group.start} and "
                    f"{group.end} could have been one visit, {saving}.")
    else:
        sentence = (f"Yes, {len(groups)} groups of corrective orders on {where}{' ' + when if when else ''} could "
                    f"each have been one visit, {saving}.")
    return Verdict("Yes", sentence, lines)



# "How does chiller 9 compare over the same years?": corrective orders per year, side by side.
_COMPARES_YEARS = re.compile(r"\b(compar\w*|vs\.?|versus|against|stack\w* up|same years|each year|per year|"
                             r"year by year)\b", re.I)


def per_year_comparison(question: str, artifacts: list[Artifact]) -> str | None:
    """The asset the question names first, then the others: corrective orders a year over the complete years
    both summaries cover, with their totals. None unless two or more summaries break their orders down by year
    and the question compares."""
    if not _COMPARES_YEARS.search(question):
        return None
    summaries = [(a, counts.corrective_per_year) for a in artifacts if a.kind == "work_order_summary"
                 and (counts := work_order_counts(a)).corrective_per_year and (a.asset_ids or a.equipment_ids)]
    if len(summaries) < 2:
        return None
    partial = {str(work_order_counts(a).partial_year or "") for a, _ in summaries}
    years = sorted(set.intersection(*(set(per) for _, per in summaries)) - partial)
    if not years:
        return None

    def key(art: Artifact) -> str:
        return (art.asset_ids or art.equipment_ids)[0]

    def named_at(art: Artifact) -> int:
        position = mention_position(question, [*art.asset_ids, *art.equipment_ids])
        return position if position is not None else len(question)

    ordered = sorted(summaries, key=lambda pair: named_at(pair[0]))
    span = f"{years[0]}-{years[-1]}" if len(years) > 1 else years[0]

    def counts_text(per: dict[str, int]) -> str:
        return join_names([str(per[y]) for y in years])

    first, *rest = ordered
    others = "; ".join(f"{counts_text(per)} on {key(art)} ({sum(per[y] for y in years)})" for art, per in rest)
    return (f"{key(first[0])} had {counts_text(first[1])} corrective work orders a year in {span} "
            f"({sum(first[1][y] for y in years)} in all), against {others}.")


def _record_count(art: Artifact, corrective: bool) -> int | None:
    """An artifact's count of records: the orders of a work-order summary (its corrective ones when those were
    listed), the alerts of an alert-rule listing."""
    if art.kind == "work_order_summary":
        counts = work_order_counts(art)
        return counts.corrective if corrective and counts.corrective is not None else counts.total
    rules = alert_rules(art) if art.kind == "alert_rules" else None
    return sum(r.count for r in rules) if rules is not None else None


def records_rank_verdict(artifacts: list[Artifact], subject: str | None) -> Verdict | None:
    """"Is it the worst chiller on site for that this year?" after a count of its work orders: yes when the subject
    has the most of those records among the chillers counted, no with the one that has more."""
    listings = [a for a in artifacts if a.kind in ("work_order_summary", "alert_rules") and a.asset_ids]
    corrective = any(a.results.get("kind") == "corrective" for a in listings)
    counted = {a.asset_ids[0]: n for a in listings if (n := _record_count(a, corrective)) is not None}
    if subject is None or subject not in counted or len(counted) < 2:
        return None
    ranked = sorted(counted.items(), key=lambda kv: (-kv[1], kv[0]))
    what = ("corrective work orders" if corrective else "work orders") if listings[0].kind == "work_order_summary" \
        else "alerts"
    when = window_phrase(listings[0])
    mine, (top, most) = counted[subject], ranked[0]
    others = [f"{a} {n}" for a, n in ranked if a != subject][:3]
    if mine == most and [a for a, n in ranked if n == most] == [subject]:
        sentence = f"Yes, {subject} has the most {what} on site {when}: {mine} (next: {join_names(others)})."
        answer = "Yes"
    else:
        leader = top if top != subject else next(a for a, n in ranked if a != subject and n == most)
        sentence = f"No, {leader} has {most} {what} {when} against {mine} on {subject}."
        answer = "No"
    lines = [f"- {a}: {n} {what}" for a, n in ranked[:6]]
    return Verdict(answer, " ".join(sentence.split()), lines)  # type: ignore[arg-type]


# "and the one on 9, same rule as those?": the rules one chiller's alerts came from, set against another's
_SAME_RULE = re.compile(r"\bsame (?:rules?|alerts?|alarms?|kind|type)(?: \w+)? as\b|\bthe same (?:rules?|ones)\b", re.I)


def same_rule_verdict(question: str, turn: list[Artifact], session: list[Artifact]) -> Verdict | None:
    """Yes when the rules that fired on the turn's chiller all fired on the chiller discussed before it too; the
    rules of each, said. None unless the question asks "same rule as" and both have alert counts."""
    if not _SAME_RULE.search(question):
        return None
    here = next((a for a in turn if a.kind == "alert_rules" and alert_rules(a)), None)
    if here is None:
        return None
    where = ", ".join(here.asset_ids or here.equipment_ids)
    before = next((a for a in reversed(session) if a.kind == "alert_rules" and alert_rules(a)
                   and ", ".join(a.asset_ids or a.equipment_ids) != where), None)
    if before is None:
        return None
    fired = {r.rule_id: r for r in alert_rules(here) or [] if r.count}
    earlier = {r.rule_id: r for r in alert_rules(before) or [] if r.count}
    if not fired or not earlier:
        return None
    other = ", ".join(before.asset_ids or before.equipment_ids)
    same = set(fired) <= set(earlier)
    said = join_names([rule_text(r) for r in fired.values()])
    if same:
        return Verdict("Yes", f"Yes, {where}'s alerts came from {said}, as {other}'s did.", [])
    theirs = join_names([rule_text(r) for r in earlier.values()])
    return Verdict("No", f"No, {where}'s alerts came from {said}; {other}'s from {theirs}.", [])
