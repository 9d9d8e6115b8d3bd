"""The result a club night's table keeps with every change of its match (CLUB.md §4), and the
night's standings after a match is deleted. (Whether a match is a table, and its hand limit,
the match says itself: `Match.event_table_id`, `Match.event_hand_limit`.)

Kept apart from `events` (storage only), so that `services.matches.commands` can call it
without importing the club's commands, which create matches through it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from ...storage.extensions import db
from ...storage.models import EventRound, EventTable, Match
from . import results


def result_of(status: str, summary: Mapping[str, Any]) -> list[int] | None:
    """A table's result as its match's summary (`replay_cache.summary_of`) says it: the final
    scores once the match is won (banked or not) or ended, else None (CLUB.md §4)."""
    return list(summary["scores"]) if summary["winner"] is not None or status != "open" else None


def keep_result(match: Match) -> None:
    """Keep the match's result on its club night's table, if it is one, with the change being
    recorded (its summary stored already): the standings read it instead of replaying the
    match. When the result changes (the match won, ended, corrected once it counts), the
    night's standings are ranked again and kept (`results.keep_standings`); an ordinary hand of
    a table still playing costs the one query that reads the table, and ranks nothing. Nothing
    is flushed here (a hand added is flushed only at the commit, which tells a number taken
    meanwhile)."""
    with db.session.no_autoflush:
        found = db.session.execute(
            db.select(EventTable, EventRound.event_id)
            .join(EventRound, EventRound.id == EventTable.round_id)
            .where(EventTable.match_id == match.id)
        ).first()
        if found is None:
            return
        table, event_id = found
        assert match.summary is not None, "stored with every change, before this"
        result = result_of(match.status, match.summary)
        if table.match_result == result:
            return
        table.match_result = result
        results.keep_standings(event_id, {table.id: result})


def events_of(match_ids: Sequence[str]) -> list[str]:
    """The ids of the nights whose tables play any of these matches."""
    if not match_ids:
        return []
    found = db.session.execute(
        db.select(EventRound.event_id)
        .join(EventTable, EventTable.round_id == EventRound.id)
        .where(EventTable.match_id.in_(match_ids))
        .distinct()
    )
    return sorted(found.scalars())


@contextmanager
def deleting(match_ids: Sequence[str]) -> Iterator[None]:
    """A block that deletes these matches (its last member gone, an account deleted): a night
    they were tables of loses their results (the table keeps no match), and its standings are
    ranked again and kept at the end of the block."""
    nights = events_of(match_ids)
    yield
    if nights:
        db.session.flush()
        for event_id in nights:
            results.keep_standings(event_id)
