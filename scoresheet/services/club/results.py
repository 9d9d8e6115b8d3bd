"""A table's result and the standings of a club night (CLUB.md §2, §4, §5): read from the
tables' matches (replayed) and the byes every time, never stored as the truth."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from math import ceil

from sqlalchemy.orm import load_only, selectinload

from ...club import Game, Round, StandingsRow, Table, standings_after
from ...rules.figures import game_of
from ...storage.extensions import db
from ...storage.models import Event, EventRound, EventTable, Match
from ..matches.replay_cache import computed


@dataclass(frozen=True, slots=True)
class Result:
    """A table's final scores once its result counts (seat order; Tichu: per team)."""

    scores: tuple[int, ...]
    entered_by: str | None
    """The director who entered them by hand, or None: the match's final sheet."""


def club_game(event: Event) -> Game:
    """The game the event's tables play: `tysiacha` (every ruleset) or `tichu`."""
    return "tichu" if game_of(str(event.game["rules"])) == "tichu" else "tysiacha"


def table_result(event: Event, table: EventTable, matches: Mapping[str, Match] | None = None) -> Result | None:
    """The table's result: scores entered by hand, else its match's final sheet once the match
    is won (banked or not) or ended; None until then (CLUB.md §4). `matches`: the event's
    matches by id, read already (`read_tables`)."""
    if table.entered_scores is not None:
        return Result(tuple(table.entered_scores), table.entered_by)
    match = _match_of(table, matches)
    if match is None:
        return None
    sheet = computed(match).sheet
    if sheet.winner is None and match.status == "open":
        return None
    return Result(tuple(s.score for s in sheet.standings), None)


def _match_of(table: EventTable, matches: Mapping[str, Match] | None) -> Match | None:
    """The table's match: from `matches` if given, else read."""
    if table.match_id is None:
        return None
    return matches.get(table.match_id) if matches is not None else db.session.get(Match, table.match_id)


def live_scores(table: EventTable) -> list[int] | None:
    """The table's scores as its sheet stands now, seat order (Tichu: per team), for the board."""
    match = db.session.get(Match, table.match_id) if table.match_id is not None else None
    return [s.score for s in computed(match).sheet.standings] if match is not None else None


def minutes_left(event: Event, seated_at: datetime, now: datetime) -> int | None:
    """The round's countdown (CLUB.md §1): whole minutes of the time limit left, or None."""
    if event.time_limit is None:
        return None
    start = seated_at if seated_at.tzinfo else seated_at.replace(tzinfo=UTC)
    return max(0, ceil(event.time_limit - (now - start).total_seconds() / 60))


def read_tables(event: Event) -> dict[str, Match]:
    """The event's tables' matches by id, read with the rounds and their tables in three
    queries: a night of 6 rounds of 20 tables is read with 3 queries, not 126
    (bench/club_standings.py)."""
    db.session.execute(
        db.select(EventRound).where(EventRound.event_id == event.id).options(selectinload(EventRound.tables))
    ).scalars().all()
    ids = [t.match_id for r in event.seated for t in r.tables if t.match_id is not None]
    if not ids:
        return {}
    # What a result needs of a match whose replay is kept: its revision and status (its set-up,
    # and the rest, are read only for a replay not kept yet).
    wanted = db.select(Match).where(Match.id.in_(ids)).options(load_only(Match.id, Match.revision, Match.status))
    return {m.id: m for m in db.session.execute(wanted).scalars()}


def engine_rounds(event: Event, matches: Mapping[str, Match] | None = None) -> list[Round]:
    """The event's seated rounds as the engine reads them, each table with its result so far
    (`matches`: what `read_tables` gave, if it was called already)."""
    matches = read_tables(event) if matches is None else matches
    rounds = []
    for round_ in event.seated:
        tables = []
        for table in round_.tables:
            result = table_result(event, table, matches)
            tables.append(Table(players=tuple(table.players), scores=result.scores if result else None))
        rounds.append(Round(tables=tuple(tables), byes=tuple(round_.byes)))
    return rounds


def standings(event: Event, matches: Mapping[str, Match] | None = None) -> tuple[StandingsRow, ...]:
    """Every roster entry in standings order after the results counted so far (CLUB.md §5)."""
    return standings_after(
        [p.name for p in event.roster], engine_rounds(event, matches), game=club_game(event), seed=event.seed
    )
