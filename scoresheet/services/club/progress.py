"""How a club night stands for the people in the room: each table of the current round as it is
being played, where a player sits, the nights a player is in, and the night's version that a
phone asks for to know when to show it again (CLUB.md §4). Read only; nothing here is stored."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import bindparam

from ...storage.extensions import db
from ...storage.models import Event, EventDirector, EventPlayer, EventRound, EventTable, Match, User, utcnow
from ..matches.replay_cache import computed
from . import results
from .results import read_tables, table_result

RUNNING_FOR = timedelta(hours=36)
"""How long after it was made a night unfinished is still shown on its players' home page."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TableState:
    """One table of the round as it stands now."""

    table: EventTable
    match: Match | None
    hands: int
    """Hands (Tichu: rounds) played so far."""
    scores: list[int]
    """The scores as they stand, seat order (Tichu: per team); the result once it counts."""
    on_barrel: list[str]
    """The players on the barrel now."""
    done: bool
    """The table's result counts (won, ended, or entered by hand)."""
    entered_by: str | None
    """The director who entered the result by hand, or None."""


@dataclass(frozen=True, slots=True, kw_only=True)
class MySeat:
    """Where a player sits in the current round: a table and seat, or a bye."""

    round: int
    table: int | None
    """The table's number; None: a bye this round."""
    seat: int | None
    """The seat, counted from 0 (seat 0 deals first)."""
    tablemates: list[str]
    """The others at the table, seat order."""
    match_id: str | None
    partner: str | None = None
    """Tichu: the partner across the table (seats 0 and 2, 1 and 3); else None."""
    out: str | None = None
    """Not seated this round (no table, no bye): why, as the roster says (`absent`: marked for
    the next round, `dropped`, or `present`: on the roster since the round was seated), or
    `was_absent`: marked absent for this round, and back for the next; else None."""


@dataclass(frozen=True, slots=True)
class TablePlace:
    """Where a club night's table match is played: its night, round and table (CLUB.md §3 names
    the match "<event> · round r · table t")."""

    event_id: str
    event: str
    round: int
    table: int


def place_of(match: Match) -> TablePlace | None:
    """The night, round and table of a club night's table match (one query); None for any
    other match (no query: the match knows whether it is a table)."""
    if match.event_table_id is None:
        return None
    row = db.session.execute(
        db.select(Event.id, Event.name, EventRound.number, EventTable.number)
        .join(EventRound, EventRound.event_id == Event.id)
        .join(EventTable, EventTable.round_id == EventRound.id)
        .where(EventTable.id == match.event_table_id)
    ).one()
    return TablePlace(*row)


def table_states(event: Event, round_: EventRound) -> list[TableState]:
    """Every table of the round as it stands: hands played, scores, the barrel, done or not
    (the round's matches read at once, `read_tables`, not one query a table)."""
    matches = read_tables(round_)
    states = []
    for table in round_.tables:
        match = matches.get(table.match_id) if table.match_id is not None else None
        result = table_result(table)
        sheet = computed(match).sheet if match is not None else None
        standings = sheet.standings if sheet is not None else ()
        states.append(
            TableState(
                table=table,
                match=match,
                hands=len(sheet.hands) if sheet is not None else 0,
                scores=list(result.scores) if result else [s.score for s in standings],
                on_barrel=[s.name for s in standings if s.barrel],
                done=result is not None,
                entered_by=result.entered_by if result else None,
            )
        )
    return states


def my_seat(event: Event, user: User) -> MySeat | None:
    """Where the user sits in the event's current round (None: not on the roster, or no round
    seated yet); a player not seated this round learns why (`MySeat.out`)."""
    entry = next((p for p in event.roster if p.user_id == user.id), None)
    if entry is None or not event.seated:
        return None
    round_ = event.seated[-1]
    if entry.name in round_.byes:
        return MySeat(round=round_.number, table=None, seat=None, tablemates=[], match_id=None)
    for table in round_.tables:
        if entry.name in table.players:
            seat = table.players.index(entry.name)
            others = [p for p in table.players if p != entry.name]
            partner = table.players[(seat + 2) % 4] if results.club_game(event) == "tichu" else None
            return MySeat(
                round=round_.number,
                table=table.number,
                seat=seat,
                tablemates=others,
                match_id=table.match_id,
                partner=partner,
            )
    missed = entry.name in round_.absent and entry.status == "present"
    out = "was_absent" if missed else entry.status
    return MySeat(round=round_.number, table=None, seat=None, tablemates=[], match_id=None, out=out)


def running_events(user: User) -> list[Event]:
    """The nights the user plays in or directs that are still on: made in the last 36 hours,
    with a round still to seat or a table of the current round still playing."""
    mine = db.select(EventPlayer.event_id).where(EventPlayer.user_id == user.id)
    directed = db.select(EventDirector.event_id).where(EventDirector.user_id == user.id)
    recent = db.session.execute(
        db.select(Event)
        .where(Event.id.in_(mine.union(directed)), Event.created_at >= utcnow() - RUNNING_FOR)
        .order_by(Event.created_at.desc())
    ).scalars()
    return [e for e in recent if _on(e)]


def _on(event: Event) -> bool:
    """The night has a round to seat, or a table of its current round without a result."""
    if len(event.seated) < event.rounds:
        return True
    return any(table_result(t) is None for t in event.seated[-1].tables)


def event_version(event: Event) -> str:
    """A short fingerprint of everything the event's page shows: it changes when a round is
    seated or taken back, a player checks in or is marked, a table's match changes (a hand,
    its end: every change raises the match's revision) or a result is entered; the page and
    the board ask for it and show themselves again. Read as columns in two statements, not as
    the night's objects (a round's tables each, the roster): every player's night page and the
    board ask for it every few seconds."""
    values = {"event_id": event.id}
    parts = [
        event.rounds,
        event.reseats,
        [d.user_id for d in event.directors],
        [tuple(row) for row in db.session.execute(_ROSTER_AS_SHOWN, values)],
        [tuple(row) for row in db.session.execute(_TABLES_AS_SHOWN, values)],  # (a Row's repr is slow)
    ]
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def live_version(event: Event, now: datetime) -> str:
    """The version the night's page and its board follow: the night's (`event_version`) and,
    while the round's countdown runs, its minutes left, so that both show the minute as it
    passes (CLUB.md §1, §4)."""
    left = countdown(event, now)
    return event_version(event) + (f".{left}" if left is not None else "")


def countdown(event: Event, now: datetime) -> int | None:
    """The current round's minutes left while its countdown runs (CLUB.md §1), else None."""
    current = event.seated[-1] if event.seated else None
    if current is None or current.closed_at is not None:
        return None
    return results.minutes_left(event, current.seated_at, now)


_ROSTER_AS_SHOWN = (
    db.select(EventPlayer.name, EventPlayer.status, EventPlayer.team, EventPlayer.user_id)
    .where(EventPlayer.event_id == bindparam("event_id"))
    .order_by(EventPlayer.id)
)
"""The roster as the night's page shows it."""

_TABLES_AS_SHOWN = (
    db.select(
        EventRound.number,
        EventRound.closed_at,
        EventTable.number,
        EventTable.entered_scores,
        EventTable.entered_by,
        EventTable.match_id,
        Match.revision,
    )
    .outerjoin(EventTable, EventTable.round_id == EventRound.id)
    .outerjoin(Match, Match.id == EventTable.match_id)
    .where(EventRound.event_id == bindparam("event_id"))
    .order_by(EventRound.number, EventTable.number)
)
"""Every round seated, each table's result entered by hand (and by whom) and its match's revision."""
