"""Ratings that are really computed: openskill's Plackett-Luce model over the banked matches
of each game, in the order they were banked.

A match counts once banked (an ended one never). Each claimed seat plays with its account's
rating so far; a guest seat (nobody claimed it) plays with a new rating for that match only
and is kept nowhere. Tichu is rated as two teams, partners together. A seat claimed after its
match was banked recomputes the game's ratings from that match on (`rate_from`), so the
ratings always read as if every claim had been there at bank time.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from itertools import groupby
from typing import Any, NamedTuple

from openskill.models import PlackettLuce
from sqlalchemy import Float, Integer, String, column

from ...rules.figures import GAMES, game_of
from ...rules.tichu import TEAMS, TICHU
from ...storage.extensions import db
from ...storage.models import Member, Rating, RatingSummary, Seat, SeatFigure, User
from . import statistics
from .periods import Period

_MODEL = PlackettLuce()
_LOCK_KEYS = {"tysiacha": 0x5C0_1601, "tichu": 0x5C0_1602}
"""PostgreSQL advisory lock keys, one per game (the migration lock in `database` is another)."""


def shown(mu: float, sigma: float) -> float:
    """The rating a person reads: openskill's ordinal (mu − 3σ), one decimal: it starts at 0
    and grows as the player wins and as the model grows sure of them."""
    return round(mu - 3 * sigma, 1)


def _is_game(game: str) -> Any:
    """The figures' rows of one game's rulesets."""
    return SeatFigure.rules == TICHU if game == "tichu" else SeatFigure.rules != TICHU


def rate_from(game: str, since: datetime) -> None:
    """Recompute the game's ratings of every match banked at `since` or later, in bank order
    (the ratings of earlier matches stand)."""
    db.session.flush()
    if db.session.get_bind().dialect.name == "postgresql":
        # One recomputation of a game at a time: a match banked meanwhile waits here, then
        # reads the ratings this one wrote (and recomputes them too if it was banked earlier).
        db.session.execute(db.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK_KEYS[game]})
    rewritten = set(
        db.session.execute(db.select(Rating.user_id).where(Rating.game == game, Rating.banked_at >= since)).scalars()
    )
    db.session.execute(db.delete(Rating).where(Rating.game == game, Rating.banked_at >= since))
    rows = db.session.execute(
        db.select(SeatFigure.match_id, SeatFigure.banked_at, SeatFigure.seat, SeatFigure.place, Seat.user_id)
        .outerjoin(Seat, (Seat.match_id == SeatFigure.match_id) & (Seat.seat == SeatFigure.seat))
        .where(_is_game(game), SeatFigure.banked_at >= since)
        .order_by(SeatFigure.banked_at, SeatFigure.match_id, SeatFigure.seat)
    ).all()
    current: dict[int, Any] = {}
    for (match_id, banked_at), seats in groupby(rows, key=lambda r: (r[0], r[1])):
        _rate_match(game, match_id, banked_at, list(seats), current, since)
    summarize(game, rewritten | current.keys())


def _rate_match(
    game: str, match_id: str, banked_at: datetime, seats: list[Any], current: dict[int, Any], since: datetime
) -> None:
    """Rate one banked match and store the new rating of each claimed seat."""

    def rating_of(user_id: int | None) -> Any:
        if user_id is None:
            return _MODEL.rating()
        if user_id not in current:
            last = db.session.execute(
                db.select(Rating.mu, Rating.sigma)
                .where(Rating.user_id == user_id, Rating.game == game, Rating.banked_at < since)
                .order_by(Rating.banked_at.desc(), Rating.id.desc())
                .limit(1)
            ).first()
            current[user_id] = _MODEL.rating(*last) if last else _MODEL.rating()
        return current[user_id]

    for user_id, new in _rated(game, seats, rating_of):
        current[user_id] = new
        db.session.add(
            Rating(user_id=user_id, game=game, match_id=match_id, banked_at=banked_at, mu=new.mu, sigma=new.sigma)
        )


def _rated(game: str, seats: list[Any], rating_of: Callable[[int | None], Any]) -> list[tuple[int, Any]]:
    """One banked match rated (its seats' `seat`, `place` and `user_id`, each claimed seat
    playing with `rating_of` its account): each claimed seat's account and new rating."""
    if game == "tichu":  # two teams, partners opposite; a team's place is its players'
        sides = [[s for s in seats if s.seat % TEAMS == t] for t in range(TEAMS)]
    else:
        sides = [[s] for s in seats]
    teams = _MODEL.rate(
        [[rating_of(s.user_id) for s in side] for side in sides], ranks=[side[0].place for side in sides]
    )
    return [
        (s.user_id, new)
        for side, team in zip(sides, teams, strict=True)
        for s, new in zip(side, team, strict=True)
        if s.user_id is not None
    ]


def rerate_match(rules: str, match_id: str) -> None:
    """A banked match's claims changed: recompute the ratings from it on, and the totals of
    its members (`statistics.rebuild_totals`); nothing if it is not banked."""
    banked_at = db.session.execute(
        db.select(SeatFigure.banked_at).where(SeatFigure.match_id == match_id).limit(1)
    ).scalar()
    if banked_at is not None:  # the totals first: they lock accounts before the game's lock
        statistics.rebuild_totals_of_match(match_id)
        rate_from(game_of(rules), banked_at)


class Point(NamedTuple):
    """A player's rating after one banked match (a named tuple: a page reads many)."""

    number: int
    """Which of the player's rated matches of the game, from 1."""
    match_id: str
    rating: float
    """The rating a person reads (`shown`)."""


HISTORY_POINTS = 120
"""At most about this many points of a history are read (a chart has room for no more):
every k-th match of a longer one, and always the last."""


def thinned(ratings: list[tuple[str, float]]) -> list[Point]:
    """A history of (match id, rating shown), oldest first, as at most about
    `HISTORY_POINTS` points: every k-th, and always the last."""
    total = len(ratings)
    step = (total + HISTORY_POINTS - 1) // HISTORY_POINTS
    return [
        Point(n, match_id, rating)
        for n, (match_id, rating) in enumerate(ratings, start=1)
        if n % step == 0 or n == total
    ]


def summarize(game: str, user_ids: set[int]) -> None:
    """Write again the `rating_summaries` of these accounts in this game from their ratings."""
    if not user_ids:
        return
    db.session.flush()
    db.session.execute(db.delete(RatingSummary).where(RatingSummary.game == game, RatingSummary.user_id.in_(user_ids)))
    rows = db.session.execute(
        db.select(Rating.user_id, Rating.match_id, Rating.mu, Rating.sigma)
        .where(Rating.game == game, Rating.user_id.in_(user_ids))
        .order_by(Rating.user_id, Rating.banked_at, Rating.id)
    ).all()
    for user_id, found in groupby(rows, key=lambda r: r[0]):
        rated = [(match_id, mu, sigma) for _, match_id, mu, sigma in found]
        history = [(match_id, shown(mu, sigma)) for match_id, mu, sigma in rated]
        last, mu, sigma = rated[-1]
        db.session.add(
            RatingSummary(
                user_id=user_id,
                game=game,
                matches=len(history),
                points=[list(p) for p in thinned(history)],
                mu=mu,
                sigma=sigma,
                match_id=last,
            )
        )


HISTORY_SQL = "SELECT game, CAST(points AS TEXT) AS points FROM rating_summaries WHERE user_id = :user_id"
"""The SQL of a player's kept rating histories (for `:user_id`): a row per game, its points
thinned to at most about `HISTORY_POINTS` ending with the latest, as JSON text (a player's
page is kept by the rows it was made from, and text compares and hashes at once)."""


def histories_from(rows: Iterable[tuple[str, str]]) -> dict[str, list[Point]]:
    """The rating history per game, oldest first, from the rows of `HISTORY_SQL`."""
    return {game: [Point(*p) for p in json.loads(points)] for game, points in rows}


@dataclass(frozen=True, slots=True)
class PeriodRating:
    """A player's rating computed from the banked matches of a period alone."""

    mu: float
    sigma: float
    history: list[tuple[str, float]]
    """(match id, rating shown) after each rated match of the period, oldest first."""
    name: str
    """The name the sheet of the player's latest match of the period gave them."""


def ratings_between(game: str, period: Period) -> dict[int, PeriodRating]:
    """The game's openskill ratings as if the period's banked matches were the only ones:
    every account starts new at the period's first match (computed when asked, from the kept
    seat figures of every match of the game banked in the period, in bank order)."""
    rows = db.session.execute(_seats_between(game), period.bounds()).all()
    current: dict[int, Any] = {}
    found: dict[int, PeriodRating] = {}
    for (match_id, _banked_at), seats in groupby(rows, key=lambda r: (r.match_id, r.banked_at)):
        played = list(seats)
        names = {s.user_id: s.name for s in played}
        for user_id, new in _rated(game, played, lambda u: (None if u is None else current.get(u)) or _MODEL.rating()):
            current[user_id] = new
            history = found[user_id].history if user_id in found else []
            history.append((match_id, shown(new.mu, new.sigma)))
            found[user_id] = PeriodRating(new.mu, new.sigma, history, names[user_id] or "")
    return found


@cache
def _seats_between(game: str) -> Any:
    """Every seat of the game's matches banked in a period (`:since`, `:until`), in bank order,
    with the account that claimed it (None: a guest)."""
    return (
        db.select(
            SeatFigure.match_id, SeatFigure.banked_at, SeatFigure.seat, SeatFigure.place, SeatFigure.name, Seat.user_id
        )
        .outerjoin(Seat, (Seat.match_id == SeatFigure.match_id) & (Seat.seat == SeatFigure.seat))
        .where(
            _is_game(game),
            SeatFigure.banked_at >= db.bindparam("since"),
            SeatFigure.banked_at < db.bindparam("until"),
        )
        .order_by(SeatFigure.banked_at, SeatFigure.match_id, SeatFigure.seat)
    )


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of a leaderboard."""

    username: str
    rating: float
    mu: float
    sigma: float
    matches: int
    name: str = ""
    """The name the table wrote on the sheet of the player's latest banked match (the account's
    name if that match named none)."""
    ambiguous: bool = False
    """Another line of the board shows the same name: the account's name tells them apart."""


@cache
def _boards() -> Any:
    """Everyone of a viewer's table (`:viewer`: everyone who shares a match with them, and
    they) with a kept rating, a row per game: username, mu, sigma, matches rated and the name
    on the sheet of their latest rated match, as SQL text built once (one statement for both
    games; its columns declared, so that SQLAlchemy matches them once)."""
    return db.text(
        "SELECT rating_summaries.game, users.id, users.username, rating_summaries.mu, rating_summaries.sigma,"
        " rating_summaries.matches, seat_figures.name FROM rating_summaries"
        " JOIN users ON users.id = rating_summaries.user_id"
        " LEFT JOIN seats ON seats.match_id = rating_summaries.match_id AND seats.user_id = users.id"
        " LEFT JOIN seat_figures ON seat_figures.match_id = seats.match_id AND seat_figures.seat = seats.seat"
        " WHERE rating_summaries.user_id IN (SELECT user_id FROM members WHERE match_id IN"
        " (SELECT match_id FROM members WHERE user_id = :viewer))"
    ).columns(
        column("game", String),
        column("id", Integer),
        column("username", String),
        column("mu", Float),
        column("sigma", Float),
        column("matches", Integer),
        column("name", String),
    )


def leaderboards(user: User, period: Period) -> dict[str, list[Entry]]:
    """Per game, the user's table (everyone they played with, and they) by rating, best first;
    only accounts that have a rating (a deleted account has none left, a guest never had one).
    All time reads the kept ratings; a period computes them from its matches alone
    (`ratings_between`)."""
    found: dict[str, list[tuple[str, float, float, int, str]]] = {game: [] for game in GAMES}
    if period.all_time:
        for game, _id, username, mu, sigma, matches, name in db.session.execute(_boards(), {"viewer": user.id}):
            found[game].append((username, mu, sigma, matches, name or username))
        return {game: _board(lines) for game, lines in found.items()}
    table = {user_id: name for user_id, name in db.session.execute(_table_of(user))} | {user.id: user.username}
    for game in GAMES:
        for user_id, rated in ratings_between(game, period).items():
            if user_id in table:
                name = table[user_id]
                found[game].append((name, rated.mu, rated.sigma, len(rated.history), rated.name or name))
    return {game: _board(lines) for game, lines in found.items()}


def _table_of(user: User) -> Any:
    """The id and username of everyone who shares a match with the user, the user included."""
    mine = db.select(Member.match_id).where(Member.user_id == user.id)
    table = db.select(Member.user_id).where(Member.match_id.in_(mine))
    return db.select(User.id, User.username).where(User.id.in_(table))


def _board(lines: list[tuple[str, float, float, int, str]]) -> list[Entry]:
    """A game's lines (username, mu, sigma, matches, name shown) as a leaderboard."""
    twice = {n for n, times in Counter(line[4].casefold() for line in lines).items() if times > 1}
    entries = [
        Entry(username, shown(mu, sigma), mu, sigma, n, name=name, ambiguous=name.casefold() in twice)
        for username, mu, sigma, n, name in lines
    ]
    return sorted(entries, key=lambda e: (-e.rating, -e.mu, e.username))
