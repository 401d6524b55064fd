"""Wiring of the supervisor graph: supervisor -> dispatch -> supervisor ... -> respond -> END.

Routing is declared by the nodes themselves (`Command[Literal[...]]`), so the edges here are only
the entry point; the same graph serves the offline and the LLM mode.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import START, StateGraph
from langgraph.runtime import Runtime

from assetops.profiling import timed_stage
from graph.context import TurnContext
from graph.nodes.dispatch import dispatch
from graph.nodes.respond import respond
from graph.nodes.supervisor import supervisor
from graph.state import SupervisorState


def timed_node(name: str, node: Callable[..., Awaitable[Any]]) -> Any:  # Any: add_node's overloads
    """The node, timed as a profile stage (the dashboard's routing time is the supervisor's, measured)."""

    @functools.wraps(node)  # keeps the signature: LangGraph injects `runtime` by parameter name
    async def run(state: SupervisorState, runtime: Runtime[TurnContext]) -> Any:
        with timed_stage(name):
            return await node(state, runtime)

    return run


def build_graph(checkpointer: BaseCheckpointSaver | None = None) -> Any:
    """The compiled supervisor graph (thread = chat session when a checkpointer is given)."""
    builder = StateGraph(SupervisorState, context_schema=TurnContext)
    builder.add_node("supervisor", timed_node("supervisor", supervisor))
    builder.add_node("dispatch", timed_node("dispatch", dispatch))
    builder.add_node("respond", timed_node("respond", respond))
    builder.add_edge(START, "supervisor")
    return builder.compile(checkpointer=checkpointer, name="assetops_supervisor")
