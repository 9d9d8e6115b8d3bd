"""A player's statistics: each banked match's seat figures kept at bank time, added up per
ruleset for the seats the player claimed (and kept added up, `player_totals`), and head to head
between two players."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import case, func
from sqlalchemy.orm import aliased

from ...rules import MatchState
from ...rules.figures import COUNTS, seat_figures, seat_scores
from ...storage.extensions import db
from ...storage.models import Match, Member, PlayerTotal, Seat, SeatFigure, User


def keep_figures(match: Match, sheet: MatchState, banked_at: datetime) -> None:
    """Store every seat's figures of a match being banked or imported banked (in its
    transaction), and the totals of the accounts that claimed its seats."""
    db.session.add_all(SeatFigure(**row) for row in figure_rows(match.id, sheet, banked_at))
    db.session.execute(db.update(Seat).where(Seat.match_id == match.id).values(banked=True))
    rebuild_totals_of_match(match.id)


def figure_rows(match_id: str, sheet: MatchState, banked_at: datetime) -> list[dict[str, Any]]:
    """Every seat's figures of a banked match as the rows of `seat_figures` (no query runs):
    all an imported match needs, which no account has claimed a seat of yet."""
    return [
        {"match_id": match_id, "name": sheet.setup.players[f.seat], "rules": sheet.setup.rules, "banked_at": banked_at}
        | _row(f)
        | {"score": s.score, "lowest": s.lowest}
        for f, s in zip(seat_figures(sheet), seat_scores(sheet), strict=True)
    ]


def _row(f: Any) -> dict[str, Any]:
    """A `SeatFigures` as the columns of its row."""
    return {"seat": f.seat, "place": f.place, "won": f.won, **{name: getattr(f, name) for name in COUNTS}}


@dataclass(frozen=True, slots=True)
class RulesetFigures:
    """A player's figures in one ruleset: counts of matches and the figures added up."""

    rules: str
    played: int
    """Matches with a seat the player claimed, in any state."""
    banked: int
    won: int
    places: int
    """Finishing places of the banked matches added up (their average is this over banked)."""
    counts: dict[str, int]
    """Every figure of `rules.figures.COUNTS` added up; `bid_made_max` the highest."""

    @property
    def win_rate(self) -> float | None:
        """Won over banked, or None before the first banked match."""
        return self.won / self.banked if self.banked else None

    @property
    def average_place(self) -> float | None:
        """The average finishing place, or None before the first banked match."""
        return self.places / self.banked if self.banked else None

    @property
    def made_rate(self) -> float | None:
        """Contracts made over hands declared."""
        return self.counts["made"] / self.counts["declared"] if self.counts["declared"] else None

    @property
    def average_bid_made(self) -> float | None:
        """The average bid of a contract made."""
        made = self.counts["made"]
        return self.counts["bid_made_sum"] / made if made else None

    @property
    def barrel_won_rate(self) -> float | None:
        """Times won from the barrel over times on it."""
        on = self.counts["barrel_on"]
        return self.counts["barrel_won"] / on if on else None


_TOTALS_LOCK = 0x5C0_1603
"""PostgreSQL advisory lock key (with an account's id) of `rebuild_totals`."""


def rebuild_totals(user_ids: Iterable[int]) -> None:
    """Write again the `player_totals` of these accounts from their claimed seats' figures
    (in the caller's transaction): after a bank, an import, or a claim that changed."""
    ids = sorted(set(user_ids))
    if not ids:
        return
    db.session.flush()
    if db.session.get_bind().dialect.name == "postgresql":
        # One rebuild of an account's totals at a time (two matches banked at once), always
        # taken before the game's lock in `ratings.rate_from`, in id order: no deadlock.
        for user_id in ids:
            db.session.execute(
                db.text("SELECT pg_advisory_xact_lock(:key, :user_id)"), {"key": _TOTALS_LOCK, "user_id": user_id}
            )
    db.session.execute(db.delete(PlayerTotal).where(PlayerTotal.user_id.in_(ids)))
    sums = [
        func.max(SeatFigure.bid_made_max) if name == "bid_made_max" else func.sum(getattr(SeatFigure, name))
        for name in COUNTS
    ]
    figures = (
        db.select(
            Seat.user_id,
            SeatFigure.rules,
            func.count(),
            func.sum(case((SeatFigure.won, 1), else_=0)),
            func.sum(SeatFigure.place),
            *sums,
        )
        .join(Seat, (Seat.match_id == SeatFigure.match_id) & (Seat.seat == SeatFigure.seat))
        .where(Seat.user_id.in_(ids))
        .group_by(Seat.user_id, SeatFigure.rules)
    )
    db.session.execute(
        db.insert(PlayerTotal).from_select(["user_id", "rules", "banked", "won", "places", *COUNTS], figures)
    )


def rebuild_totals_of_match(match_id: str) -> None:
    """`rebuild_totals` for every member of a match (whoever claimed, left or was given one
    of its seats is one)."""
    rebuild_totals(
        db.session.execute(
            db.select(Member.user_id)
            .where(Member.match_id == match_id)
            .union(db.select(Seat.user_id).where(Seat.match_id == match_id))
        ).scalars()
    )


FIGURE_COLUMNS = ("rules", "unbanked", "banked", "won", "places", *COUNTS)
"""The columns of `figures_sql`'s rows, in order."""


@cache
def figures_sql(dialect: str) -> str:
    """The SQL of a player's figure rows (for `:user_id`): the kept totals of the banked
    matches per ruleset, and beside them a count of the matches not banked (found through the
    seats' index on `banked`: no more work for a player with 500 banked matches than with
    none); the columns `FIGURE_COLUMNS`. SQL text, built once: a fresh process compiles a text
    in microseconds, where the same union built with `select()` took SQLAlchemy's compiler
    about 10 ms the first time (docs/performance.md)."""
    rules = "json_extract(matches.setup, '$.rules')" if dialect == "sqlite" else "matches.setup ->> 'rules'"
    zeros = ", ".join(f"0 AS {name}" for name in FIGURE_COLUMNS[2:])
    return (
        f"SELECT {rules} AS rules, count(*) AS unbanked, {zeros} FROM seats"
        " JOIN matches ON matches.id = seats.match_id"
        f" WHERE seats.user_id = :user_id AND seats.banked = FALSE GROUP BY {rules}"
        f" UNION ALL SELECT rules, 0, {', '.join(FIGURE_COLUMNS[2:])} FROM player_totals"
        " WHERE user_id = :user_id"
    )


def figures_from(rows: Iterable[Sequence[Any]]) -> list[RulesetFigures]:
    """A player's figures per ruleset, most played first, from the rows of `figures_sql`
    (nothing replayed)."""
    found: dict[str, list[int]] = {}
    for rules, *row in rows:
        known = found.setdefault(rules, [0] * len(row))
        for i, value in enumerate(row):
            known[i] += int(value or 0)
    result = [
        RulesetFigures(rules, unbanked + banked, banked, won, places, dict(zip(COUNTS, counts, strict=True)))
        for rules, (unbanked, banked, won, places, *counts) in found.items()
    ]
    return sorted(result, key=lambda r: (-r.played, r.rules))


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Two players' banked matches together and who finished ahead how often."""

    matches: int
    ahead: int
    """Matches the first player finished ahead of the second."""
    behind: int


def head_to_head(one: User, other: User) -> HeadToHead:
    """How `one` and `other` did in the banked matches where both claimed a seat (one query)."""
    s1, s2 = aliased(Seat), aliased(Seat)
    f1, f2 = aliased(SeatFigure), aliased(SeatFigure)
    row = db.session.execute(
        db.select(
            func.count(),
            func.sum(case((f1.place < f2.place, 1), else_=0)),
            func.sum(case((f1.place > f2.place, 1), else_=0)),
        )
        .select_from(s1)
        .join(s2, (s2.match_id == s1.match_id) & (s2.user_id == other.id))
        .join(f1, (f1.match_id == s1.match_id) & (f1.seat == s1.seat))
        .join(f2, (f2.match_id == s2.match_id) & (f2.seat == s2.seat))
        .where(s1.user_id == one.id)
    ).one()
    return HeadToHead(row[0], int(row[1] or 0), int(row[2] or 0))


@dataclass(frozen=True, slots=True)
class GuestFigures:
    """A guest's banked matches at the user's table, by the name on the sheets."""

    name: str
    banked: int
    won: int
    places: int

    @property
    def average_place(self) -> float:
        """The average finishing place."""
        return self.places / self.banked


def guests_of(user: User) -> list[GuestFigures]:
    """Every guest (a seat nobody claimed) of the banked matches the user is a member of,
    by name, most matches first: only the user's own matches, never a stranger's."""
    rows = db.session.execute(
        db.select(
            SeatFigure.name, func.count(), func.sum(case((SeatFigure.won, 1), else_=0)), func.sum(SeatFigure.place)
        )
        .join(Member, (Member.match_id == SeatFigure.match_id) & (Member.user_id == user.id))
        .outerjoin(Seat, (Seat.match_id == SeatFigure.match_id) & (Seat.seat == SeatFigure.seat))
        .where(Seat.id.is_(None), SeatFigure.name.is_not(None))
        .group_by(SeatFigure.name)
    ).all()
    found = [GuestFigures(name, n, int(won), int(places)) for name, n, won, places in rows]
    return sorted(found, key=lambda g: (-g.banked, g.name))
