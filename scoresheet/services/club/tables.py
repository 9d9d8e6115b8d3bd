"""What a match's own commands ask about a match that is a club night's table (CLUB.md §1, §4).

Kept apart from `events` (storage only), so that `services.matches.commands` can ask it
without importing the club's commands, which create matches through it.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from sqlalchemy import bindparam

from ...storage.extensions import db
from ...storage.models import Event, EventRound, EventTable, Match


def is_event_table(match: Match) -> bool:
    """The match is a table of a club night: a correction is taken at any time (CLUB.md §4)."""
    found = db.session.execute(db.select(EventTable.id).where(EventTable.match_id == match.id)).first()
    return found is not None


def hand_limit(match: Match) -> int | None:
    """The hand limit of the event this match is a table of (CLUB.md §1), or None."""
    limit: int | None = db.session.execute(_hand_limit(), {"match_id": match.id}).scalar_one_or_none()
    return limit


@cache
def _hand_limit() -> Any:
    """The query of `hand_limit`, built once: every added hand asks it."""
    return (
        db.select(Event.hand_limit)
        .join(EventRound, EventRound.event_id == Event.id)
        .join(EventTable, EventTable.round_id == EventRound.id)
        .where(EventTable.match_id == bindparam("match_id"))
    )
