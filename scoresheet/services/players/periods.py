"""A period of a player's figures and of a leaderboard: which banked matches count.

A period is a half-open range of banking times, [since, until) in UTC; a bound that is None
is open. A match belongs to a period by the time it was banked (`seat_figures.banked_at`); a
match not banked yet belongs to none.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from ...words import _
from ..errors import Invalid

NAMES = ("all", "month", "year")
"""The periods named in a URL (`?period=month`); a chosen range is `?from=…&to=…`."""
EARLIEST = datetime(1, 1, 1, tzinfo=UTC)
LATEST = datetime(9999, 12, 31, tzinfo=UTC)
"""What an open bound is compared as (`Period.bounds`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Period:
    """The banked matches that count: those banked at `since` or later and before `until`."""

    since: datetime | None = None
    """The first moment that counts (UTC), None for no start."""
    until: datetime | None = None
    """The first moment that no longer counts (UTC), None for no end."""
    name: str = "all"
    """`all`, `month`, `year`, or `range` for dates chosen (`first`, `last`)."""
    first: date | None = None
    last: date | None = None
    """The dates chosen, both counting (`until` is the day after `last`)."""

    @property
    def all_time(self) -> bool:
        """Every banked match counts (the figures kept at banking are read as they are)."""
        return self.since is None and self.until is None

    def bounds(self) -> dict[str, datetime]:
        """`since` and `until` as a query's parameters, an open bound as a far date."""
        return {"since": self.since or EARLIEST, "until": self.until or LATEST}

    def query(self) -> dict[str, str]:
        """The URL's query that names this period (empty for all time)."""
        if self.name == "range":
            found = {"from": self.first, "to": self.last}
            return {k: v.isoformat() for k, v in found.items() if v is not None}
        return {} if self.name == "all" else {"period": self.name}


ALL_TIME = Period()
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def period_from(args: Mapping[str, str], now: datetime) -> Period:
    """The period a request asks for: `period=month|year|all` (this UTC month or year, `now`
    being in it), or `from`/`to` dates (YYYY-MM-DD, both counting, either may be left out);
    nothing: all time. Refused with the field at fault: a name or a date that is not one, or
    `from` after `to`."""
    first, last = _date(args, "from"), _date(args, "to")
    if first is not None or last is not None:
        if first is not None and last is not None and first > last:
            raise Invalid(_("The last day comes before the first."), "to")
        return Period(
            since=None if first is None else _midnight(first),
            until=None if last is None else _midnight(last + timedelta(days=1)),
            name="range",
            first=first,
            last=last,
        )
    name = args.get("period") or "all"
    if name not in NAMES:
        raise Invalid(_("Choose this month, this year or all time."), "period")
    if name == "month":
        since = datetime(now.year, now.month, 1, tzinfo=UTC)
        return Period(since=since, until=(since + timedelta(days=32)).replace(day=1), name=name)
    if name == "year":
        since = datetime(now.year, 1, 1, tzinfo=UTC)
        return Period(since=since, until=since.replace(year=now.year + 1), name=name)
    return ALL_TIME


def _date(args: Mapping[str, str], field: str) -> date | None:
    """A date of the query (YYYY-MM-DD), None if left out or empty."""
    text = (args.get(field) or "").strip()
    if not text:
        return None
    try:
        found = date.fromisoformat(text) if _DATE.fullmatch(text) else None
    except ValueError:
        found = None
    if found is None:
        raise Invalid(_("Enter a date as YYYY-MM-DD, for example 2026-12-05."), field)
    if not 1900 <= found.year <= 9998:  # a far bound of the database's columns is 9999
        raise Invalid(_("Enter a date from 1900-01-01 to 9998-12-31."), field)
    return found


def _midnight(day: date) -> datetime:
    """The first moment of a day, UTC."""
    return datetime(day.year, day.month, day.day, tzinfo=UTC)
