"""From how a message asks to what the turn does: confirmations, verdicts and the write gate.

The intent classifier reads what a message is about; `graph.understanding.request` reads how it asks.
This module combines them into the turn's intents:
- "yes, draft it" after an offer takes the offered action;
- "so what's the verdict?" summarises the findings so far instead of running anything new;
- a write (a drafted work order) happens only when the user commands it: "would it be worth planning
  an inspection?" or a follow-up that merely continues the dialog gets a recommendation and an offer.
Pure functions over the reading, the focus and the classified intents.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assetops.domain.turn import Focus, QuestionShape
from graph.understanding.request import RequestReading, named_job

# Intents that write a record (a drafted work order, a saved fine-tuned model) when they run.
WRITE_INTENTS = frozenset({"draft_wo", "plan_fix", "finetune"})
# What a write intent becomes when the user did not command it: advice with an offer to act ("would
# fine-tuning make it better?" scores the base model against actuals and offers the fine-tune).
ADVICE_FOR = {"draft_wo": "recommend_wo", "plan_fix": "fix_procedure", "finetune": "evaluate_forecast"}
# The action the advice offers in place of each write.
OFFER_FOR = {"draft_wo": "draft_wo", "plan_fix": "draft_wo", "finetune": "finetune"}
# Advice is a side step: the dialog's subject (the step before it) stays the focus's last request, so
# "yes, draft it" drafts what that step found (a recalibration after a drift check).
ADVICE_INTENTS = frozenset(ADVICE_FOR.values()) | {"verdict"}
# The shape an advice intent's answer takes when the message itself did not ask in a particular way.
ADVICE_SHAPE: dict[str, QuestionShape] = {"recommend_wo": "recommend", "fix_procedure": "how_to"}


# The record a commanded write names: a work order (the clause is normalised: "WO" reads "work order").
_ORDER_NAMED = re.compile(r"\bwork orders?\b|\btickets?\b")
# Listings of existing orders a commanded draft replaces (the draft checks for a duplicate itself).
_LOOKS_AT_ORDERS = frozenset({"resolution", "work_orders"})


@dataclass(frozen=True)
class ActReading:
    """The turn's intents after the request's act and shape are applied."""

    intents: list[str]
    shape: QuestionShape
    writes_allowed: bool
    offer: str | None = None  # the action the answer offers ("draft_wo"), kept in the focus
    declined: bool = False  # "no, not now" to a pending offer
    note: str = ""


def _with_advice(intents: list[str], shape: QuestionShape) -> tuple[list[str], QuestionShape, str | None]:
    """Write intents replaced by their advice; the answer offers the write instead."""
    replaced = [ADVICE_FOR.get(intent, intent) for intent in intents]
    offer = next((OFFER_FOR[i] for i in intents if i in WRITE_INTENTS), None)
    if offer and shape == "open":
        first = next((i for i in replaced if i in ADVICE_SHAPE), None)
        shape = ADVICE_SHAPE[first] if first else shape
    return list(dict.fromkeys(replaced)), shape, offer


def apply_request(intents: list[str], reading: RequestReading, focus: Focus) -> ActReading:
    """The turn's intents given how the message asks (see the module docstring)."""
    if focus.pending_offer and reading.act == "confirm":
        return ActReading([focus.pending_offer], "open", writes_allowed=True,
                          note=f"Taking your reply as a yes to the offer ({focus.pending_offer.replace('_', ' ')}).")
    if focus.pending_offer and reading.act == "decline" and not intents:
        return ActReading([], reading.shape, writes_allowed=False, declined=True)
    if reading.shape == "verdict" and focus.asset_ids:
        return ActReading(["verdict"], "verdict", writes_allowed=False)
    if reading.preview and not reading.writes:  # "what would the work order say?": shown, not written
        return ActReading(["recommend_wo"], "recommend", writes_allowed=False, offer="draft_wo")
    if reading.writes:
        if _ORDER_NAMED.search(reading.clause) and (not WRITE_INTENTS & set(intents) or "draft_wo" in intents):
            # "draft a calibration WO for that sensor": the order commanded is the request, whatever else its
            # words score ("work order for that" also reads as "was one raised?", "a preventive work order" as the
            # preventive orders on file); "write it up" is no order
            intents = ["draft_wo", *(i for i in intents if i not in _LOOKS_AT_ORDERS and i != "draft_wo")]
        return ActReading(intents, reading.shape, writes_allowed=True)
    advised, shape, offer = _with_advice(intents, reading.shape)
    if offer is None and reading.shape == "recommend" and named_job(reading.clause):
        offer = "draft_wo"  # "should I book an oil analysis on it?": the answer offers to draft that job
    return ActReading(advised, shape, writes_allowed=False, offer=offer)
