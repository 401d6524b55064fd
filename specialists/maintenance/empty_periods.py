"""An empty period is an answer: the one call that says what surrounds it, and the sentence it gives.

The `wo` listing tools report "nothing in this period" as an error ("No corrective work orders found
for equipment_id 'CWC04009' between ..."). For the person asking that is a finding, and the next
question is always "so when was the last one?": the same listing up to the start of the period
answers it. With no period to look before (or nothing before it either), the equipment's event log
says whether anything at all is on record for it. The follow-up runs in the same task, so the empty
listing's failed call is followed by a successful call of the same specialist, which is also what the
harness counts as recovery (ROLLOUT_FORMAT.md 2.4).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from specialists.base import SpecialistContext, ToolOutcome, found_nothing
from specialists.maintenance.history import summarise_work_orders

EVENTS_TOOL = "wo.get_events"
GROUP_WORDS = {"WORK_ORDER": "work orders", "ALERT": "alerts", "ANOMALY": "anomalies"}


@dataclass
class Lookback:
    """One follow-up call after an empty listing: its outcome, the sentence for the answer, and the
    latest record it found before the period (None when it found none or was not a look back)."""

    outcome: ToolOutcome
    text: str
    latest: dict[str, Any] | None = None


def _event_time(event: dict[str, Any]) -> datetime | None:
    try:
        return datetime.fromisoformat(str(event.get("event_time"))).replace(tzinfo=None)
    except ValueError:
        return None


def latest_event(events: list[dict[str, Any]], group: str | None = None) -> dict[str, Any] | None:
    """The newest event (of one `event_group` when given), or None."""
    dated = [(when, e) for e in events if (group is None or str(e.get("event_group", "")).upper() == group)
             and (when := _event_time(e)) is not None]
    return max(dated, key=lambda pair: pair[0])[1] if dated else None


def event_text(event: dict[str, Any]) -> str:
    """"an alert of RUL0017 (Chiller - Load Low) on 2019-12-30" and the like."""
    when = _event_time(event)
    day = when.date().isoformat() if when else "an unknown date"
    group = str(event.get("event_group", "")).upper()
    kind, what = event.get("event_type") or "", event.get("description") or ""
    if group == "ALERT":
        return f"an alert of {kind} ({what}) on {day}"
    if group == "WORK_ORDER":
        return f"work order {event.get('event_id')} ({kind} {what}) on {day}"
    return f"{'an anomaly' if group == 'ANOMALY' else 'an event'} ({kind or what}) on {day}"


def event_log_line(events: list[dict[str, Any]]) -> str:
    """"27 events: 27 work orders; the latest work order WO155577 (...) on 2020-12-22"."""
    groups = Counter(str(e.get("event_group", "")).upper() for e in events)
    parts = ", ".join(f"{n} {GROUP_WORDS.get(g, g.lower() or 'other events')}" for g, n in sorted(groups.items()))
    latest = latest_event(events)
    return f"{len(events)} events ({parts})" + (f"; the latest is {event_text(latest)}" if latest else "")


def order_text(order: dict[str, Any]) -> str:
    """"WO3 on 2020-05-01 (L001 Refrigerant Leak)": a row of `summarise_work_orders(...).recent`."""
    code = f" ({order.get('code')} {order.get('description')})" if order.get("code") else ""
    return f"{order.get('wo_id')} on {order.get('date')}{code}"


async def last_before(ctx: SpecialistContext, tool: str, equipment_id: str, args: dict[str, str], *,
                      noun: str = "one", group: str | None = None) -> Lookback | None:
    """The same listing up to the start of the period and the latest record in it (of `group` for
    events); None when the period has no start."""
    start = args.get("start_date")
    if start is None:
        return None
    (earlier,) = await ctx.tools.run([(tool, {"equipment_id": equipment_id, "end_date": start})],
                                     specialist="maintenance")
    if not earlier.ok and not found_nothing(earlier.error):
        return Lookback(earlier, f"The records before {start} could not be read ({earlier.error}).")
    if tool == EVENTS_TOOL:
        latest = latest_event(earlier.output.get("events", []) if earlier.ok else [], group)
        text = f"The last {noun} before the period was {event_text(latest)}." if latest else ""
    else:
        orders = earlier.output.get("work_orders", []) if earlier.ok else []
        latest = summarise_work_orders(orders, recent=1).recent[0] if orders else None
        text = f"The last {noun} before the period was {order_text(latest)}." if latest else ""
    nothing = f"None on record before {start} either." if noun == "one" else f"No {noun} on record before {start}."
    return Lookback(earlier, text or nothing, latest)


async def event_log(ctx: SpecialistContext, equipment_id: str, end_date: str, *, missing: str) -> Lookback:
    """Nothing of `missing` on record: the equipment's event log up to `end_date` says what there is."""
    (log,) = await ctx.tools.run([(EVENTS_TOOL, {"equipment_id": equipment_id, "end_date": end_date})],
                                 specialist="maintenance")
    if log.ok:
        text = (f"No {missing} on record for {equipment_id} up to {end_date}; its event log holds "
                f"{event_log_line(log.output.get('events', []))}.")
    elif found_nothing(log.error):
        text = f"Nothing at all is on record for {equipment_id} up to {end_date}."
    else:
        text = f"The event log of {equipment_id} could not be read ({log.error})."
    return Lookback(log, text)


async def explain_empty(ctx: SpecialistContext, tool: str, equipment_id: str, args: dict[str, str], *,
                        missing: str, noun: str = "one", group: str | None = None) -> list[Lookback]:
    """The follow-ups of an empty listing, in order: the latest record before the period; when the
    period has no start or nothing is on record before it either, the equipment's event log (not for
    an event listing: that would be the listing again)."""
    found: list[Lookback] = []
    before = await last_before(ctx, tool, equipment_id, args, noun=noun, group=group)
    if before is not None:
        found.append(before)
        if before.latest is not None or not (before.outcome.ok or found_nothing(before.outcome.error)):
            return found
    if tool != EVENTS_TOOL:
        found.append(await event_log(ctx, equipment_id, args["end_date"], missing=missing))
    return found
