"""The error responses every authenticated route may give, documented once for the OpenAPI schema."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


class ErrorBody(BaseModel):
    """An error in words: what went wrong and what to do about it."""

    detail: str


def _doc(text: str) -> dict[str, Any]:
    return {"model": ErrorBody, "description": text}


# On every route behind an API key.
AUTHENTICATED: dict[int | str, dict[str, Any]] = {
    401: _doc("Missing or unknown API key."),
    404: _doc("No such id for this API key (another user's resource looks exactly like a missing one)."),
    429: _doc("Rate limit reached; retry after the Retry-After seconds."),
}
# On every route that takes a JSON body.
WITH_BODY: dict[int | str, dict[str, Any]] = {
    400: _doc("The body could not be parsed (invalid UTF-8, or JSON nested too deeply)."),
    413: _doc("Body over the size limit."),
}
