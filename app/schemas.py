"""Request and response models of the REST API (XCreate / XPublic families)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from assetops.settings import get_settings


class SessionCreate(BaseModel):
    """Start a session; relative periods ("past month") resolve against `reference_date`."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "examples": [{"title": "Chiller 4 power", "reference_date": "2021-07-01"}]})

    title: str | None = Field(default=None, max_length=200)
    reference_date: date | None = Field(default=None, description="Defaults to today.")


class SessionPublic(BaseModel):
    id: str
    title: str
    reference_date: date
    created_at: datetime
    updated_at: datetime


class TurnPublic(BaseModel):
    id: str
    index: int
    user_message: str
    answer: str
    status: str
    error: str | None = Field(default=None, description="Why the turn failed (e.g. interrupted by a restart).")
    timings: dict[str, Any]
    started_at: datetime
    finished_at: datetime | None


class SessionDetail(SessionPublic):
    turns: list[TurnPublic]


class MessageCreate(BaseModel):
    """One user message."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "examples": [{"content": "Chiller 4 at MAIN has been drawing more power than usual this spring. "
                                 "What's going on?"}]})

    content: str = Field(min_length=1)

    @field_validator("content")
    @classmethod
    def _within_limit(cls, value: str) -> str:
        # The same error as `max_length`, but the limit is the service setting, not a constant here.
        limit = get_settings().max_message_chars
        if len(value) > limit:
            raise PydanticCustomError("string_too_long", "String should have at most {max_length} characters "
                                      "(the max_message_chars limit); paste only the relevant part",
                                      {"max_length": limit})
        return value


class TurnReply(BaseModel):
    """The outcome of a turn: the answer, every event, the artifacts it made or used, timings."""

    turn_id: str | None
    turn_index: int
    answer: str
    status: str
    events: list[dict[str, Any]]
    artifacts: list[dict[str, Any]]
    timings: dict[str, Any]


class DraftPublic(BaseModel):
    id: str
    session_id: str
    equipment_id: str
    asset_id: str | None
    title: str
    scope: str
    primary_code: str | None
    secondary_code: str | None
    priority: int
    status: str
    details: dict[str, Any]
    created_at: datetime
