"""Scoring one turn's events: routing through runs or reuse, mentions, absent words and decision kinds."""

from __future__ import annotations

from typing import Any

from assetops.domain.events import TurnEvent
from evaluation.dialog_checks import TurnSpec, score_turn


def _event(type_: str, **data: Any) -> TurnEvent:
    return TurnEvent(type=type_, session_id="s", turn_index=2, data=data)  # type: ignore[arg-type]


def _turn(answer: str, *, ran: list[str], cited: list[str], kind: str = "run") -> list[TurnEvent]:
    events = [_event("supervisor_decision", kind=kind)]
    events += [_event("specialist_started", specialist=s) for s in ran]
    events.append(_event("final_answer", text=answer, kind="answer", artifact_ids=cited))
    events.append(_event("done", status="ok", timings={"wall_ms": 12.5}))
    return events


async def test_a_specialist_counts_as_routed_when_its_earlier_artifact_is_cited() -> None:
    spec = TurnSpec(text="rank them", specialists=["failure", "data"])
    events = _turn("Condenser fouling", ran=["data"], cited=["artifact_fr_0123456789ab"])
    result = await score_turn(None, "H", 2, spec, events)
    assert result.routing is True


async def test_a_specialist_that_neither_ran_nor_was_reused_is_a_routing_miss() -> None:
    spec = TurnSpec(text="rank them", specialists=["failure"])
    result = await score_turn(None, "H", 2, spec, _turn("x", ran=["timeseries"], cited=["artifact_ts_0123456789ab"]))
    assert result.routing is False


async def test_absent_words_count_against_mentions() -> None:
    spec = TurnSpec(text="recent orders?", mentions=["Chiller 4"], absent=["2022"])
    clean = await score_turn(None, "H", 1, spec, _turn("Chiller 4: 3 orders in 2021", ran=[], cited=[]))
    leaky = await score_turn(None, "H", 1, spec, _turn("Chiller 4: 3 orders up to 2022", ran=[], cited=[]))
    assert (clean.mentions, leaky.mentions) == ((2, 2), (1, 2))


async def test_expected_clarification_is_checked_against_the_decision() -> None:
    spec = TurnSpec(text="how is the unit?", kind="clarify")
    asked = await score_turn(None, "H", 1, spec, _turn("Which chiller?", ran=[], cited=[], kind="clarify"))
    guessed = await score_turn(None, "H", 1, spec, _turn("Chiller 3 is fine", ran=["data"], cited=[]))
    assert (asked.kind, guessed.kind) == (True, False)


def test_a_pasted_log_turn_repeats_its_text() -> None:
    assert len(TurnSpec(text="line\n", repeat=3).message) == 15
