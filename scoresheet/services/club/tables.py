"""What a match's own commands ask about a match that is a club night's table (CLUB.md §1, §4).

Kept apart from `events` (storage only), so that `services.matches.commands` can ask it
without importing the club's commands, which create matches through it.
"""

from __future__ import annotations

from ...storage.extensions import db
from ...storage.models import EventTable, Match


def is_event_table(match: Match) -> bool:
    """The match is a table of a club night: a correction is taken at any time (CLUB.md §4)."""
    found = db.session.execute(db.select(EventTable.id).where(EventTable.match_id == match.id)).first()
    return found is not None


def hand_limit(match: Match) -> int | None:
    """The hand limit of the event this match is a table of (CLUB.md §1), or None: read with
    the match's row where it was read for adding a hand (`queries.get_match_and_members`),
    else now."""
    return match.event_hand_limit
