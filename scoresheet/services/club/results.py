"""A table's result and the standings of a club night (CLUB.md §2, §4, §5): read from the
tables' results and the byes every time, never stored as the truth. A table's result is the
scores a director entered, else its match's, kept on the table with every change of the match
(`tables.keep_result`): nothing here replays a match but the board's live scores."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from math import ceil

from sqlalchemy.orm import load_only

from ...club import Game, Round, StandingsRow, Table, standings_after
from ...rules.figures import game_of
from ...storage.extensions import db
from ...storage.models import Event, EventPlayer, EventRound, EventTable, Match
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


def table_result(table: EventTable) -> Result | None:
    """The table's result: scores entered by hand, else its match's final scores once the
    match is won (banked or not) or ended (kept with the match); None until then, or once its
    match is deleted (CLUB.md §4)."""
    scores = _result_scores(table.entered_scores, table.match_id, table.match_result)
    if scores is None:
        return None
    return Result(tuple(scores), table.entered_by if table.entered_scores is not None else None)


def _result_scores(entered: list[int] | None, match_id: str | None, kept: list[int] | None) -> list[int] | None:
    """A table's result from its row: the scores entered by hand, else its match's kept result
    (none once the match is deleted)."""
    if entered is not None:
        return entered
    return kept if match_id is not None else None


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


def read_tables(round_: EventRound) -> dict[str, Match]:
    """The round's tables' matches by id, read at once (one query, not one a table), for their
    live sheets: the board's cards and the director's view of the round."""
    ids = [t.match_id for t in round_.tables if t.match_id is not None]
    if not ids:
        return {}
    # What a live sheet needs of a match whose replay is kept: its revision and status (its
    # set-up, and the rest, are read only for a replay not kept yet).
    wanted = db.select(Match).where(Match.id.in_(ids)).options(load_only(Match.id, Match.revision, Match.status))
    return {m.id: m for m in db.session.execute(wanted).scalars()}


def engine_rounds(event: Event) -> list[Round]:
    """The event's seated rounds as the engine reads them, each table with its result so far:
    the rounds' byes in one query, every table's players and result in another, no match read
    (bench/club_standings.py)."""
    where = EventRound.event_id == event.id
    byes = db.session.execute(db.select(EventRound.number, EventRound.byes).where(where)).all()
    tables: dict[int, list[Table]] = {number: [] for number, _ in byes}
    for number, players, match_id, entered, kept in db.session.execute(
        db.select(
            EventRound.number,
            EventTable.players,
            EventTable.match_id,
            EventTable.entered_scores,
            EventTable.match_result,
        )
        .join(EventTable, EventTable.round_id == EventRound.id)
        .where(where)
        .order_by(EventTable.number)
    ):
        scores = _result_scores(entered, match_id, kept)
        tables[number].append(Table(players=tuple(players), scores=tuple(scores) if scores is not None else None))
    return [Round(tables=tuple(tables[number]), byes=tuple(names)) for number, names in sorted(byes)]


def standings(event: Event, rounds: list[Round] | None = None) -> tuple[StandingsRow, ...]:
    """Every roster entry in standings order after the results counted so far (CLUB.md §5);
    `rounds`: what `engine_rounds` gave, if it was called already."""
    roster = db.select(EventPlayer.name).where(EventPlayer.event_id == event.id).order_by(EventPlayer.id)
    return standings_after(
        list(db.session.execute(roster).scalars()),  # names only: no roster entry made an object
        engine_rounds(event) if rounds is None else rounds,
        game=club_game(event),
        seed=event.seed,
    )
