"""Date arguments: one parser and one order check, with errors that name the argument."""

from __future__ import annotations

from datetime import UTC, datetime

from tools.framework.errors import ToolError

EXPECTED_FORMAT = "a date YYYY-MM-DD or an ISO-8601 datetime (e.g. 2020-06-01 or 2020-06-01T00:00:00-04:00)"


def parse_date_arg(name: str, value: str | None) -> datetime | None:
    """Parse a date argument (YYYY-MM-DD, or ISO datetime with or without offset / `Z`).

    Returns None for None, a naive datetime when no offset was given (a date means its midnight),
    an aware one otherwise. Raises `ToolError` naming the argument on anything else.
    """
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ToolError(f"Argument '{name}' must be {EXPECTED_FORMAT}, got {value!r}.")
    text = value.strip()
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        raise ToolError(f"Argument '{name}' must be {EXPECTED_FORMAT}, got '{value}'.") from None


def comparable(moment: datetime) -> datetime:
    """An aware UTC version of `moment`; naive values are taken as UTC (only for ordering checks)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def check_order(
    start: datetime | None,
    end: datetime | None,
    *,
    start_name: str = "start_date",
    end_name: str = "end_date",
    allow_equal: bool = False,
) -> None:
    """Raise `ToolError` when `end` is before `start` (or equal, unless `allow_equal`)."""
    if start is None or end is None:
        return
    a, b = comparable(start), comparable(end)
    if b < a or (b == a and not allow_equal):
        relation = "after or equal to" if allow_equal else "after"
        raise ToolError(
            f"Argument '{end_name}' ({end.isoformat()}) must be {relation} '{start_name}' ({start.isoformat()})."
        )
