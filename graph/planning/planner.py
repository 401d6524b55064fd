"""The offline planner as the supervisor sees it: one callable, injected or the default one
(`graph.planning.offline.plan_turn`)."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from datetime import date
from typing import Any

from artifacts.model import Artifact
from assetops.domain.actions import action_of_kind
from assetops.domain.turn import Decision, Focus, TimeWindow
from graph.planning.artifacts import ArtifactSummary

Planner = Callable[[str, Focus, date, list[ArtifactSummary]], Decision | Awaitable[Decision]]

def summarise_artifact(artifact: Artifact) -> ArtifactSummary:
    """The planner's view of an artifact: producer, action-named kind, assets, window, sensors, results."""
    window = None
    if artifact.window_start is not None and artifact.window_end is not None:
        window = TimeWindow(artifact.window_start, artifact.window_end)
    kind = str(artifact.results.get("action") or action_of_kind(artifact.kind))
    return ArtifactSummary(id=artifact.id, producer=artifact.producer, kind=kind,  # type: ignore[arg-type]
                           asset_ids=tuple(artifact.asset_ids), window=window, sensors=tuple(artifact.sensors),
                           summary=artifact.summary, key_results=artifact.results)


async def call_planner(planner: Planner, message: str, focus: Focus, reference_date: date,
                       artifacts: list[Artifact]) -> Decision:
    """Run a sync or async planner and return its decision."""
    outcome: Any = planner(message, focus, reference_date, [summarise_artifact(a) for a in artifacts])
    if inspect.isawaitable(outcome):
        outcome = await outcome
    if not isinstance(outcome, Decision):
        raise TypeError(f"planner returned {type(outcome).__name__}, expected Decision")
    return outcome
