"""What a match's own commands ask about a match that is a club night's table (CLUB.md §1, §4),
and the table's result they keep with every change of it.

Kept apart from `events` (storage only), so that `services.matches.commands` can ask it
without importing the club's commands, which create matches through it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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


def result_of(status: str, summary: Mapping[str, Any]) -> list[int] | None:
    """A table's result as its match's summary (`replay_cache.summary_of`) says it: the final
    scores once the match is won (banked or not) or ended, else None (CLUB.md §4)."""
    return list(summary["scores"]) if summary["winner"] is not None or status != "open" else None


def keep_result(match: Match) -> None:
    """Keep the match's result on its club night's table, if it is one, with the change being
    recorded (its summary stored already): the standings read it instead of replaying the
    match. Nothing is flushed here (a hand added is flushed only at the commit, which tells a
    number taken meanwhile)."""
    with db.session.no_autoflush:
        table = db.session.execute(db.select(EventTable).where(EventTable.match_id == match.id)).scalar_one_or_none()
    if table is not None:
        assert match.summary is not None, "stored with every change, before this"
        table.match_result = result_of(match.status, match.summary)
