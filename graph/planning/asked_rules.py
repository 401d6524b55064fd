"""The alert rules a turn is about: named by id or by the words of their name, or carried from earlier turns."""

from __future__ import annotations

import re

from assetops.domain.turn import Focus
from graph.planning.artifacts import fired_rules_by_count
from graph.planning.context import PlanContext
from graph.understanding import Understanding
from graph.understanding.model import speaks_of_alerts
from graph.understanding.request import asks_every_kind, asks_repeat, read_request

# Listings of alerts: after one, "the load low ones" names a rule even with no alert word.
ALERT_LISTINGS = frozenset({"alerts", "alert_to_failure"})


def rule_named(understood: Understanding, focus: Focus) -> bool:
    """A rule named by its words in a message about alerts, or right after an alert listing ("are the load low
    ones anything to worry about?"), or a symptom the site's rule is named for, asked with no reading named ("did
    any of the units short-cycle in April?": the cycling rule's alerts say which did)."""
    asked = read_request(understood.text.joined)
    strict_symptom = not understood.sensors.canonical and asked.shape == "yes_no" and not asked.asks_cause
    # ("what does frequent cycling usually point to?" asks what causes it, not how often the rule fired)
    return bool(understood.named_rules) and not asked.asks_cause and (
        speaks_of_alerts(understood.text.joined) or focus.last_intent in ALERT_LISTINGS or strict_symptom
        or bool(set(understood.raised_rules) & set(understood.named_rules)))


def asked_rules(ctx: PlanContext) -> list[str]:
    """The alert rules the user asked about: named in this turn, else those named before on the same chillers."""
    named = [*ctx.understanding.rule_ids,
             *(ctx.understanding.named_rules if rule_named(ctx.understanding, ctx.focus) else [])]
    if named:
        return list(dict.fromkeys(named))
    # "did the other chillers get that alert?": the rule asked about before, on whichever chillers are asked now
    text = ctx.understanding.text.joined
    pointed = _THAT_RULE.search(text)
    if asks_every_kind(text):
        return []  # "which chiller had the most alerts overall that year?": every rule, not the one asked before
    if ctx.focus.asked_rules:
        # "is 9 doing the same?", "what about 3 and 4": the same question of other chillers, the rule with it
        again = ctx.focus.last_intent in ALERT_LISTINGS and (asks_repeat(text) or (
            not ctx.understanding.intents
            and (bool(_THE_SAME.search(text)) or len(ctx.understanding.text.tokens) <= _ELLIPTICAL_TOKENS)))
        return list(ctx.focus.asked_rules) if pointed or again or set(ctx.assets) == set(ctx.focus.asset_ids) else []
    # none named yet: "that same alarm" is the one the last listing found most, "any of those" every one it found
    those = pointed is not None or (ctx.focus.last_intent in ALERT_LISTINGS and bool(_THOSE_ALONE.search(text)))
    fired = fired_rules_by_count(ctx.artifacts, ctx.focus.asset_ids) if those else []
    singular = pointed is not None and not pointed.group(0).endswith("s") and not _THOSE_ALONE.search(text)
    return fired[:1] if singular else fired


_THE_SAME = re.compile(r"\b(?:the )?same(?: thing)?\b|\btoo\b|\bas well\b|\beither\b")
_ELLIPTICAL_TOKENS = 6
_THOSE_ALONE = re.compile(r"\b(?:any|some|one|more|all|none|many) of (?:those|these|them)\b")
_THAT_RULE = re.compile(r"\b(?:that|this|those|these|the same|same)(?: two| three| \d)? (?:alert|alarm|rule)s?\b")
