"""Wiring of the supervisor graph: supervisor -> dispatch -> supervisor ... -> respond -> END.

Routing is declared by the nodes themselves (`Command[Literal[...]]`), so the edges here are only
the entry point; the same graph serves the offline and the LLM mode.
"""

from __future__ import annotations

from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import START, StateGraph

from graph.context import TurnContext
from graph.nodes.dispatch import dispatch
from graph.nodes.respond import respond
from graph.nodes.supervisor import supervisor
from graph.state import SupervisorState


def build_graph(checkpointer: BaseCheckpointSaver | None = None) -> Any:
    """The compiled supervisor graph (thread = chat session when a checkpointer is given)."""
    builder = StateGraph(SupervisorState, context_schema=TurnContext)
    builder.add_node("supervisor", supervisor)
    builder.add_node("dispatch", dispatch)
    builder.add_node("respond", respond)
    builder.add_edge(START, "supervisor")
    return builder.compile(checkpointer=checkpointer, name="assetops_supervisor")
