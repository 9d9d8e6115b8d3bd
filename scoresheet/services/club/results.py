"""A table's result and the standings of a club night (CLUB.md §2, §4, §5). A table's result is
the scores a director entered, else its match's, kept on the table with every change of the
match (`tables.keep_result`); the standings are ranked from the tables' results and the byes
by every change that alters them, in its transaction, and kept on the event
(`keep_standings`): reading them ranks nothing, and nothing here replays a match but the
board's live scores."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from math import ceil
from typing import Any

from sqlalchemy.orm import load_only

from ...club import TWELFTHS, ClubError, Game, Round, StandingsRow, Table, standings_after
from ...rules.figures import game_of
from ...storage.extensions import db
from ...storage.models import Event, EventPlayer, EventRound, EventTable, Match


@dataclass(frozen=True, slots=True)
class Result:
    """A table's final scores once its result counts (seat order; Tichu: per team)."""

    scores: tuple[int, ...]
    entered_by: str | None
    """The director who entered them by hand, or None: the match's final sheet."""


def club_game(event: Event) -> Game:
    """The game the event's tables play: `tysiacha` (every ruleset) or `tichu`."""
    return _game(event.game)


def _game(game: Mapping[str, Any]) -> Game:
    """The club's game of an event's `game` (its rules and options)."""
    return "tichu" if game_of(str(game["rules"])) == "tichu" else "tysiacha"


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
    the rounds' byes in one query, every table's players and result in another, no match read."""
    return _engine_rounds(event.id, {})


def _engine_rounds(event_id: str, pending: Mapping[int, list[int] | None]) -> list[Round]:
    """`engine_rounds` of the event of this id; `pending`: tables' kept results (by table id)
    changed in this transaction and not flushed yet, read as they are now."""
    where = EventRound.event_id == event_id
    byes = db.session.execute(db.select(EventRound.number, EventRound.byes).where(where)).all()
    tables: dict[int, list[Table]] = {number: [] for number, _ in byes}
    for number, table_id, players, match_id, entered, kept in db.session.execute(
        db.select(
            EventRound.number,
            EventTable.id,
            EventTable.players,
            EventTable.match_id,
            EventTable.entered_scores,
            EventTable.match_result,
        )
        .join(EventTable, EventTable.round_id == EventRound.id)
        .where(where)
        .order_by(EventTable.number)
    ):
        scores = _result_scores(entered, match_id, pending.get(table_id, kept))
        tables[number].append(Table(players=tuple(players), scores=tuple(scores) if scores is not None else None))
    return [Round(tables=tuple(tables[number]), byes=tuple(names)) for number, names in sorted(byes)]


def standings(event: Event, rounds: list[Round] | None = None) -> tuple[StandingsRow, ...]:
    """Every roster entry in standings order after the results counted so far (CLUB.md §5),
    ranked afresh; `rounds`: what `engine_rounds` gave, if it was called already."""
    return _ranked(event.id, event.seed, club_game(event), engine_rounds(event) if rounds is None else rounds)


def _ranked(event_id: str, seed: int, game: Game, rounds: list[Round]) -> tuple[StandingsRow, ...]:
    """The engine's standings of the event of this id after these rounds."""
    roster = db.select(EventPlayer.name).where(EventPlayer.event_id == event_id).order_by(EventPlayer.id)
    names = list(db.session.execute(roster).scalars())  # names only: no roster entry made an object
    return standings_after(names, rounds, game=game, seed=seed)


def kept_form(rows: tuple[StandingsRow, ...], rounds: int) -> dict[str, Any]:
    """The standings as the event keeps them (`Event.standings`): the round, and a list a row,
    its three sums in whole twelfths (exact, as the engine adds them up)."""
    return {
        "round": rounds,
        "rows": [
            [
                r.place,
                r.name,
                _in_twelfths(r.match_points),
                _in_twelfths(r.table_score),
                _in_twelfths(r.opponents_points),
                r.firsts,
                r.rounds_played,
                r.byes,
            ]
            for r in rows
        ],
    }


def _in_twelfths(value: Fraction) -> int:
    """A sum of the standings in whole twelfths (every one is, `club.points.TWELFTHS`)."""
    twelfths = value * TWELFTHS
    assert twelfths.denominator == 1, "match points and table scores are whole twelfths"
    return twelfths.numerator


NO_STANDINGS: dict[str, Any] = {"round": 0, "rows": []}
"""The standings of an event just made: no round, nobody on the roster."""

_LATER = "club.standings_later"
"""The session's note of the nights whose standings are kept at the end of `standings_later`."""


def keep_standings(event_id: str, pending: Mapping[int, list[int] | None] | None = None) -> None:
    """Rank the night's standings afresh from its tables' results and byes, and keep them on
    the event (`Event.standings`), in the transaction of the change that alters them: a table's
    result (`tables.keep_result`), a round seated, taken back, closed or entered by hand, the
    roster, an import, a table's match deleted. The event's row is locked first (PostgreSQL),
    so two tables ending at one moment are ranked one after the other, each seeing the other's.
    `pending`: tables' results changed and not flushed (read as they are now); inside
    `standings_later`, the night is only noted, and ranked once at its end.

    The lock is FOR NO KEY UPDATE: a row referring to the event written first in the same
    transaction (a roster entry: its foreign key holds FOR KEY SHARE) does not block another
    transaction's lock, so two players checking in at one moment queue instead of deadlocking."""
    later: set[str] | None = db.session.info.get(_LATER)
    if later is not None:
        later.add(event_id)
        return
    locked = db.select(Event).where(Event.id == event_id).with_for_update(key_share=True)
    # Read afresh: the request may hold the event as it was before another change committed.
    event = db.session.execute(locked.execution_options(populate_existing=True)).scalar_one()
    rounds = _engine_rounds(event_id, pending or {})
    try:
        kept: dict[str, Any] | None = kept_form(_ranked(event_id, event.seed, _game(event.game), rounds), len(rounds))
    except ClubError:  # a night from before the checks whose tables name a player off its roster
        kept = None  # (migration 0020): its changes are taken, its standings ranked when read
    if event.standings != kept:  # a round closed with its tables' results kept already: no write
        event.standings = kept


@contextmanager
def standings_later() -> Iterator[None]:
    """A block that changes many tables of a night (a round closed, a paper result): each
    change notes the night, whose standings are ranked and kept once at the end of the block
    (nothing is kept if it raises)."""
    if _LATER in db.session.info:  # inside one already: its end keeps them
        yield
        return
    noted: set[str] = set()
    db.session.info[_LATER] = noted
    try:
        yield
    finally:
        del db.session.info[_LATER]
    for event_id in sorted(noted):
        keep_standings(event_id)
