"""What a turn's nodes receive at run time (LangGraph runtime context): never checkpointed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from assetops.domain.events import EventType, TurnEvent
from specialists.base import Emit, ToolRunner

if TYPE_CHECKING:
    from graph.deps import Deps


@dataclass
class TurnContext:
    """The live objects of one turn: dependencies, identity, the event sink and the tool runner."""

    deps: Deps
    session_id: str
    turn_index: int
    reference_date: date
    emit: Emit
    tools: ToolRunner

    async def event(self, type_: EventType, *, specialist: str | None = None, **data: object) -> None:
        """Emit one typed event of this turn."""
        await self.emit(TurnEvent(type=type_, session_id=self.session_id, turn_index=self.turn_index,
                                  specialist=specialist, data=dict(data)))
