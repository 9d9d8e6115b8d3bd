"""A player's records: the best of their banked matches, each with the match it was set in
(highest final score and biggest comeback, a Tichu team's apart; longest winning streak, wins
from the barrel, best Tichu calls), read from the figures kept when each match was banked
(nothing replayed)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ...rules.tichu import TICHU
from ...storage.extensions import db
from ...storage.models import Seat, SeatFigure, User


@dataclass(frozen=True, slots=True, kw_only=True)
class Record:
    """One record and the match that set it."""

    value: int
    match_id: str
    """The match it was set in (a streak: the match that ended its run of wins, its last)."""
    banked_at: datetime
    of: int = 0
    """What `value` is out of, where it is a part (Tichu calls made of calls made)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Records:
    """A player's records in their banked matches (None where no match sets one)."""

    matches: int
    """Banked matches in a claimed seat, in the range asked for."""
    tichu_matches: int
    """Of them, the Tichu matches."""
    highest_score: Record | None
    """The highest final score of a Tysiacha match (the player's own)."""
    highest_team_score: Record | None
    """The highest final score of the player's team in a Tichu match (a team's score is not
    the player's own, so its records are kept apart)."""
    comeback: Record | None
    """The lowest score from which a Tysiacha match was won (below zero only: a comeback)."""
    team_comeback: Record | None
    """The lowest score of the player's team from which a Tichu match was won (below zero)."""
    streak: Record | None
    """The most banked matches won one after another, in the order they were banked."""
    barrel_wins: Record | None
    """Matches won from the barrel, in all; its match the latest of them."""
    tichu_calls: Record | None
    """The best share of Tichu calls (any kind) made in one match: `value` made of `of`."""

    @property
    def plays_tysiacha(self) -> bool:
        """Whether Tysiacha's records are this player's to show: a Tysiacha match in the range,
        or no match at all (every record then shows, each empty)."""
        return self.matches > self.tichu_matches or not self.matches

    @property
    def plays_tichu(self) -> bool:
        """Whether Tichu's records are this player's to show (as `plays_tysiacha`)."""
        return self.tichu_matches > 0 or not self.matches


def records_of(user: User, since: datetime | None = None, until: datetime | None = None) -> Records:
    """The user's records in the banked matches of their claimed seats banked in
    [`since`, `until`) (UTC; either open), in bank order (one query)."""
    query = (
        db.select(SeatFigure)
        .join(Seat, (Seat.match_id == SeatFigure.match_id) & (Seat.seat == SeatFigure.seat))
        .where(Seat.user_id == user.id)
        .order_by(SeatFigure.banked_at, SeatFigure.match_id)
    )
    if since is not None:
        query = query.where(SeatFigure.banked_at >= since)
    if until is not None:
        query = query.where(SeatFigure.banked_at < until)
    rows = list(db.session.execute(query).scalars())
    own = [f for f in rows if f.rules != TICHU]
    teams = [f for f in rows if f.rules == TICHU]
    return Records(
        matches=len(rows),
        tichu_matches=len(teams),
        highest_score=_highest_score(own),
        highest_team_score=_highest_score(teams),
        comeback=_comeback(own),
        team_comeback=_comeback(teams),
        streak=_streak(rows),
        barrel_wins=_barrel_wins(rows),
        tichu_calls=_tichu_calls(rows),
    )


def _record(f: SeatFigure, value: int, of: int = 0) -> Record:
    """A record set in the match of this row."""
    return Record(value=value, match_id=f.match_id, banked_at=f.banked_at, of=of)


def _highest_score(rows: list[SeatFigure]) -> Record | None:
    """The highest final score (the earliest of equals)."""
    scored = [f for f in rows if f.score is not None]
    best = max(scored, key=lambda f: f.score or 0, default=None)
    return None if best is None or best.score is None else _record(best, best.score)


def _comeback(rows: list[SeatFigure]) -> Record | None:
    """The lowest score below zero of a match won (the earliest of equals)."""
    won = [f for f in rows if f.won and f.lowest is not None and f.lowest < 0]
    best = min(won, key=lambda f: f.lowest or 0, default=None)
    return None if best is None or best.lowest is None else _record(best, best.lowest)


def _streak(rows: list[SeatFigure]) -> Record | None:
    """The longest run of wins (the earliest of equals), ending at its last match."""
    best: Record | None = None
    run = 0
    for f in rows:
        run = run + 1 if f.won else 0
        if run and (best is None or run > best.value):
            best = _record(f, run)
    return best


def _barrel_wins(rows: list[SeatFigure]) -> Record | None:
    """The number of matches won from the barrel, with the latest of them."""
    won = [f for f in rows if f.barrel_won]
    return _record(won[-1], sum(f.barrel_won for f in won)) if won else None


def _tichu_calls(rows: list[SeatFigure]) -> Record | None:
    """The Tichu match with the best share of its calls made (at least one made), then the
    most made, then the earliest."""
    best: tuple[float, int] | None = None
    found = None
    for f in rows:
        called = f.tichu_called + f.grand_called + f.great_grand_called
        made = f.tichu_made + f.grand_made + f.great_grand_made
        if f.rules != TICHU or not made:
            continue
        if best is None or (made / called, made) > best:
            best, found = (made / called, made), _record(f, made, called)
    return found
