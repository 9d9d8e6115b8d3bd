"""Reading a player: who may see whom, and everything their page and the API show.

A player is visible to themself and to the people who shared a match with them, nobody else:
to a stranger a player answers exactly like one who is not there (404).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from sqlalchemy import Integer, Row, String, column

from ...rules.figures import GAMES
from ...storage.extensions import db
from ...storage.models import User, fold, lookup_name
from ...words import _
from ..errors import NotFound
from . import ratings, statistics
from .periods import ALL_TIME, Period

CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 300, 80, 6


@cache
def _visible() -> Any:
    """The query of `visible_player`, built once, as SQL text (a fresh process compiles it at
    once; see `statistics.figures_sql`): the id of the account of that folded name if it is the
    viewer or shares a match with them (its column declared, as in `_figures_and_ratings`)."""
    return db.text(
        "SELECT id FROM users WHERE username_folded = :folded AND (id = :viewer OR id IN"
        " (SELECT user_id FROM members WHERE match_id IN"
        " (SELECT match_id FROM members WHERE user_id = :viewer))) LIMIT 1"
    ).columns(column("id", Integer))


def visible_player(viewer: User, username: str) -> User:
    """The account of that name if the viewer is it or shared a match with it, else 404 (one
    query, none for one's own page; the account itself is then the session's, or read by its
    id as a log-in reads it)."""
    folded = lookup_name(username)
    if folded == fold(viewer.username):
        return viewer
    found = None if folded is None else db.session.execute(_visible(), {"viewer": viewer.id, "folded": folded}).scalar()
    user = None if found is None else db.session.get(User, found)
    if user is None:
        raise NotFound(_("There is no such player."))
    return user


@dataclass(frozen=True, slots=True)
class GameRating:
    """A player's rating in one game, and how it went."""

    game: str
    history: list[ratings.Point]

    @property
    def current(self) -> ratings.Point:
        """The rating after the last banked match."""
        return self.history[-1]

    @property
    def matches(self) -> int:
        """How many banked matches of the game rated the player."""
        return self.history[-1].number

    @property
    def low(self) -> float:
        """The lowest point of the chart (0 before the first match counts)."""
        return min(0.0, *(p.rating for p in self.history))

    @property
    def high(self) -> float:
        """The highest point of the chart (0 before the first match counts)."""
        return max(0.0, *(p.rating for p in self.history))

    @property
    def chart(self) -> str:
        """The SVG polyline `points` of the rating over the matches (from 0 before the first)."""
        values = [(0, 0.0)] + [(p.number, p.rating) for p in self.history]
        low, high = min(v for _, v in values), max(v for _, v in values)
        span = (high - low) or 1.0
        step = (CHART_WIDTH - 2 * CHART_PAD) / self.matches
        return " ".join(
            f"{CHART_PAD + n * step:.1f},{CHART_PAD + (high - v) / span * (CHART_HEIGHT - 2 * CHART_PAD):.1f}"
            for n, v in values
        )


@dataclass(frozen=True, slots=True)
class Profile:
    """Everything a player's page shows."""

    username: str
    rulesets: list[statistics.RulesetFigures]
    ratings: list[GameRating]
    head_to_head: statistics.HeadToHead | None
    """The viewer against this player (None on one's own page)."""
    played: list[statistics.PairFigures] | None = None
    """Everyone the player played with (only on one's own page, else None: a tablemate's
    opponents may be strangers to the viewer)."""
    period: Period = ALL_TIME


Rows = tuple[Row[Any], ...]
"""What a player's figures and ratings are made from, as read (`figure_rows`): hashable."""


def profile(viewer: User, user: User, period: Period = ALL_TIME, *, everyone: bool = True) -> Profile:
    """A visible player's figures, ratings, head to head with the viewer and (their own
    page, unless `everyone` is False) everyone they played with, over the period."""
    played = played_by(viewer, user, period) if everyone else None
    if period.all_time:
        return profile_of(user.username, figure_rows(user), versus(viewer, user, period), played)
    found = {g: ratings.ratings_between(g, period).get(user.id) for g in GAMES}
    return Profile(
        user.username,
        statistics.figures_between(user, period),
        [GameRating(g, ratings.thinned(r.history)) for g, r in found.items() if r is not None],
        versus(viewer, user, period),
        played,
        period,
    )


def profile_of(
    username: str,
    rows: Rows,
    head_to_head: statistics.HeadToHead | None,
    played: list[statistics.PairFigures] | None = None,
) -> Profile:
    """The all-time profile made from what was read for it, and from nothing else: a
    player's page keeps its rendered body by these, so the body of the same reads the same."""
    figures = statistics.figures_from(r[1:-1] for r in rows if r.part == "figures")
    found = ratings.histories_from((r.rules, r.points) for r in rows if r.part == "rating")
    return Profile(username, figures, [GameRating(g, found[g]) for g in GAMES if g in found], head_to_head, played)


def figure_rows(user: User) -> Rows:
    """A player's figure rows and rating histories as read, in a fixed order and in one
    statement (on PostgreSQL one more costs this process about a third of a `GET /healthz`,
    docs/performance.md); hashable, so that a player's page keeps its body by them."""
    return tuple(db.session.execute(_figures_and_ratings(db.session.get_bind().dialect.name), {"user_id": user.id}))


def played_by(viewer: User, user: User, period: Period = ALL_TIME) -> list[statistics.PairFigures] | None:
    """Everyone the player played with over the period, on their own page only (else None)."""
    return statistics.pairs(user, period) if viewer.id == user.id else None


def versus(viewer: User, user: User, period: Period = ALL_TIME) -> statistics.HeadToHead | None:
    """The viewer against the player over the period, None on one's own page."""
    return statistics.head_to_head(viewer, user, period) if viewer.id != user.id else None


@cache
def _figures_and_ratings(dialect: str) -> Any:
    """`statistics.figures_sql`'s rows and `ratings.HISTORY_SQL`'s in one statement, told apart
    by their first column (`part`), in a fixed order; a rating row has its game in `rules`, its
    points in `points`, zeros between. Its columns are declared in order, so that SQLAlchemy
    matches them to the result once, not at every read (0.05 ms on PostgreSQL)."""
    zeros = ", ".join(["0"] * (len(statistics.FIGURE_COLUMNS) - 1))
    return db.text(
        f"SELECT 'figures' AS part, figures.*, CAST(NULL AS TEXT) AS points"
        f" FROM ({statistics.figures_sql(dialect)}) AS figures"
        f" UNION ALL SELECT 'rating', game, {zeros}, points"
        f" FROM ({ratings.HISTORY_SQL}) AS rated ORDER BY 1, 2, 3"
    ).columns(
        column("part", String),
        column("rules", String),
        *(column(name, Integer) for name in statistics.FIGURE_COLUMNS[1:]),
        column("points", String),
    )
