"""Reading a player: who may see whom, and everything their page and the API show.

A player is visible to themself and to the people who shared a match with them, nobody else:
to a stranger a player answers exactly like one who is not there (404).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from flask import abort
from flask_babel import gettext as _
from sqlalchemy import bindparam

from . import ratings, statistics
from .extensions import db
from .models import Member, User, fold
from .rules.figures import GAMES

CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 300, 80, 6


@cache
def _visible() -> Any:
    """The query of `visible_player`, built once."""
    viewer = bindparam("viewer")
    mine = db.select(Member.match_id).where(Member.user_id == viewer)
    tablemates = db.select(Member.user_id).where(Member.match_id.in_(mine))
    return db.select(User).where(User.username_folded == bindparam("folded"),
                                 User.id.in_(tablemates) | (User.id == viewer)).limit(1)


def visible_player(viewer: User, username: str) -> User:
    """The account of that name if the viewer is it or shared a match with it, else 404."""
    user = db.session.execute(
        _visible(), {"viewer": viewer.id, "folded": fold(username)}
    ).scalar_one_or_none() if username.isascii() and len(username) <= 40 else None
    if user is None:
        abort(404, _("There is no such player."))
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
    def chart(self) -> str:
        """The SVG polyline `points` of the rating over the matches (from 0 before the first)."""
        values = [(0, 0.0)] + [(p.number, p.rating) for p in self.history]
        low, high = min(v for _, v in values), max(v for _, v in values)
        span = (high - low) or 1.0
        step = (CHART_WIDTH - 2 * CHART_PAD) / self.matches
        return " ".join(
            f"{CHART_PAD + n * step:.1f},"
            f"{CHART_PAD + (high - v) / span * (CHART_HEIGHT - 2 * CHART_PAD):.1f}"
            for n, v in values)


@dataclass(frozen=True, slots=True)
class Profile:
    """Everything a player's page shows."""

    user: User
    rulesets: list[statistics.RulesetFigures]
    ratings: list[GameRating]
    head_to_head: statistics.HeadToHead | None
    """The viewer against this player (None on one's own page)."""


def profile(viewer: User, user: User) -> Profile:
    """A visible player's figures, ratings and head to head with the viewer."""
    found = ratings.histories(user)
    games = [GameRating(g, found[g]) for g in GAMES if g in found]
    versus = statistics.head_to_head(viewer, user) if viewer.id != user.id else None
    return Profile(user, statistics.player_figures(user), games, versus)
