"""The one exception tools raise on purpose; the call path turns it into `{"error": message}`."""

from __future__ import annotations


class ToolError(Exception):
    """An application error with a message a person can act on (never reaches the caller raised)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
