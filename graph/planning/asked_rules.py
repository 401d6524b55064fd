"""The alert rules a turn is about: named by id or by the words of their name, or carried from earlier turns."""

from __future__ import annotations

import re

from assetops.domain.turn import Focus
from graph.planning.context import PlanContext
from graph.understanding import Understanding
from graph.understanding.model import ALERT_WORDS

# Listings of alerts: after one, "the load low ones" names a rule even with no alert word.
ALERT_LISTINGS = frozenset({"alerts", "alert_to_failure"})


def rule_named(understood: Understanding, focus: Focus) -> bool:
    """A rule named by its words in a message about alerts, or right after an alert listing ("are the load low
    ones anything to worry about?")."""
    return bool(understood.named_rules) and (bool(ALERT_WORDS.search(understood.text.joined))
                                             or focus.last_intent in ALERT_LISTINGS)


def asked_rules(ctx: PlanContext) -> list[str]:
    """The alert rules the user asked about: named in this turn, else those named before on the same chillers."""
    named = [*ctx.understanding.rule_ids,
             *(ctx.understanding.named_rules if rule_named(ctx.understanding, ctx.focus) else [])]
    if named:
        return list(dict.fromkeys(named))
    # "did the other chillers get that alert?": the rule asked about before, on whichever chillers are asked now
    pointed = bool(_THAT_RULE.search(ctx.understanding.text.joined))
    return list(ctx.focus.asked_rules) if pointed or set(ctx.assets) == set(ctx.focus.asset_ids) else []


_THAT_RULE = re.compile(r"\b(?:that|this|those|these|the same|same)(?: two| three| \d)? (?:alert|alarm|rule)s?\b")
