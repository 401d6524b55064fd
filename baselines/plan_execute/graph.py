"""Wiring of the plan-execute baseline: plan -> execute -> respond -> END (one thread per session)."""

from __future__ import annotations

from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import START, StateGraph

from baselines.plan_execute.nodes import execute, plan
from graph.context import TurnContext
from graph.nodes.respond import respond
from graph.state import SupervisorState


def build_plan_execute_graph(checkpointer: BaseCheckpointSaver | None = None) -> Any:
    """The compiled baseline graph over the same state, context and checkpointer as the supervisor's."""
    builder = StateGraph(SupervisorState, context_schema=TurnContext)
    builder.add_node("plan", plan)
    builder.add_node("execute", execute)
    builder.add_node("respond", respond)
    builder.add_edge(START, "plan")
    return builder.compile(checkpointer=checkpointer, name="assetops_plan_execute")


def baseline_overrides() -> dict[str, Any]:
    """The `open_deps` overrides that select the baseline: its graph, and no tool memo across turns."""
    return {"graph_factory": build_plan_execute_graph, "cross_turn_memo": False}
