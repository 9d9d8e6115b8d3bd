"""A player's statistics: each banked match's seat figures kept at bank time, added up per
ruleset for the seats the player claimed (and kept added up, `player_totals`), and head to head
between two players."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import Boolean, DateTime, Integer, String, case, column, func
from sqlalchemy.orm import aliased

from ...rules import MatchState
from ...rules.figures import COUNTS, seat_figures, seat_scores
from ...rules.tichu import TEAMS, TICHU
from ...storage.extensions import db
from ...storage.models import Match, Member, PairTotal, PlayerTotal, Seat, SeatFigure, User
from ...words import _
from ..errors import Invalid
from .periods import ALL_TIME, Period


def keep_figures(match: Match, sheet: MatchState, banked_at: datetime) -> None:
    """Store every seat's figures of a match being banked or imported banked (in its
    transaction), and the totals of the accounts that claimed its seats."""
    db.session.add_all(SeatFigure(**row) for row in figure_rows(match.id, sheet, banked_at))
    db.session.execute(db.update(Seat).where(Seat.match_id == match.id).values(banked=True))
    rebuild_totals_of_match(match.id)


def figure_rows(match_id: str, sheet: MatchState, banked_at: datetime) -> list[dict[str, Any]]:
    """Every seat's figures of a banked match as the rows of `seat_figures` (no query runs):
    all an imported match needs, which no account has claimed a seat of yet. A seat's score is
    its side's final score and the lowest it had during the match (Tichu: its team's)."""
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
    """Write again the `player_totals` and `pair_totals` of these accounts from their claimed
    seats' figures (in the caller's transaction): after a bank, an import, or a claim that
    changed (a pair's rows change only with a match both are members of, so both are here)."""
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
    figures = _totals().where(Seat.user_id.in_(ids))
    db.session.execute(
        db.insert(PlayerTotal).from_select(["user_id", "rules", "banked", "won", "places", *COUNTS], figures)
    )
    db.session.execute(db.delete(PairTotal).where(PairTotal.user_id.in_(ids)))
    db.session.execute(db.insert(PairTotal).from_select(PAIR_COLUMNS, _pairs().where(_s1.user_id.in_(ids))))


@cache
def _totals() -> Any:
    """The sums of `player_totals` over the seat figures, a row per account and ruleset, for
    the caller to narrow (`where`) to the accounts and banked matches wanted."""
    sums = [
        func.max(SeatFigure.bid_made_max) if name == "bid_made_max" else func.sum(getattr(SeatFigure, name))
        for name in COUNTS
    ]
    return (
        db.select(
            Seat.user_id,
            SeatFigure.rules,
            func.count(),
            func.sum(case((SeatFigure.won, 1), else_=0)),
            func.sum(SeatFigure.place),
            *sums,
        )
        .join(Seat, (Seat.match_id == SeatFigure.match_id) & (Seat.seat == SeatFigure.seat))
        .group_by(Seat.user_id, SeatFigure.rules)
    )


@cache
def _totals_between() -> Any:
    """`_totals` of one account (`:user_id`) over the banked matches of a period (`:since`,
    `:until`)."""
    return _totals().where(
        Seat.user_id == db.bindparam("user_id"),
        SeatFigure.banked_at >= db.bindparam("since"),
        SeatFigure.banked_at < db.bindparam("until"),
    )


def figures_between(user: User, period: Period) -> list[RulesetFigures]:
    """A player's figures per ruleset over the banked matches of a period (not all time: a
    match not banked belongs to no period, so `played` is `banked` here)."""
    rows = db.session.execute(_totals_between(), {"user_id": user.id} | period.bounds()).all()
    return figures_from((rules, 0, *sums) for _user_id, rules, *sums in rows)


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


@dataclass(frozen=True, slots=True)
class PairFigures:
    """How a player did beside one other account (a row of `pair_totals`, or the same sums
    over a period): as opponents, or as Tichu partners."""

    username: str
    """The other account."""
    partner: bool
    matches: int
    won: int
    """Matches the player won (partners: won together)."""
    ahead: int
    """Matches the player finished ahead of the other (partners never do)."""
    behind: int
    score_difference: int
    """The player's final scores less the other's, added up."""
    calls_made: int
    calls: int
    """The partners' Tichu and Grand Tichu calls (both players'), made and called."""
    last_banked_at: datetime

    @property
    def average_score_difference(self) -> float:
        """The player's final score less the other's, on average."""
        return self.score_difference / self.matches


_s1, _s2 = aliased(Seat, name="s1"), aliased(Seat, name="s2")
_f1, _f2 = aliased(SeatFigure, name="f1"), aliased(SeatFigure, name="f2")
PAIR_COLUMNS = (
    "user_id",
    "other_id",
    "partner",
    "matches",
    "won",
    "ahead",
    "behind",
    "score_difference",
    "calls_made",
    "calls",
    "last_banked_at",
)
"""The columns of `pair_totals`, in the order `_pairs` gives them."""


@cache
def _pairs() -> Any:
    """The sums of `pair_totals` over the seat figures, a row per account, other account
    and role, for the caller to narrow (`where`) to the accounts and banked matches wanted:
    every pair of claimed seats of a banked match, partners being the same Tichu team."""
    partner = (_f1.rules == TICHU) & (_s1.seat % TEAMS == _s2.seat % TEAMS)
    calls = [f"{call}_{part}" for call in ("tichu", "grand", "great_grand") for part in ("made", "called")]
    made = sum(getattr(f, name) for f in (_f1, _f2) for name in calls if name.endswith("made"))
    called = sum(getattr(f, name) for f in (_f1, _f2) for name in calls if name.endswith("called"))
    return (
        db.select(
            _s1.user_id,
            _s2.user_id,
            partner,
            func.count(),
            func.sum(case((_f1.won, 1), else_=0)),
            func.sum(case((_f1.place < _f2.place, 1), else_=0)),
            func.sum(case((_f1.place > _f2.place, 1), else_=0)),
            func.sum(_f1.score - _f2.score),
            func.sum(case((partner, made), else_=0)),
            func.sum(case((partner, called), else_=0)),
            func.max(_f1.banked_at),
        )
        .select_from(_s1)
        .join(_s2, (_s2.match_id == _s1.match_id) & (_s2.user_id != _s1.user_id))
        .join(_f1, (_f1.match_id == _s1.match_id) & (_f1.seat == _s1.seat))
        .join(_f2, (_f2.match_id == _s2.match_id) & (_f2.seat == _s2.seat))
        .group_by(_s1.user_id, _s2.user_id, partner)
    )


_PAIR_ROW = (
    column("username", String),
    column("partner", Boolean),
    *(column(name, Integer) for name in PAIR_COLUMNS[3:-1]),
    column("last_banked_at", DateTime(timezone=True)),
)
"""The columns of a player's pair rows, declared (SQLAlchemy matches them once)."""


@cache
def _kept_pairs() -> Any:
    """The kept pair rows of one account (`:user_id`) with the other's username, the latest
    played first: SQL text, built once (a fresh process compiles a text in microseconds, a
    `select()` of this shape in milliseconds, docs/performance.md)."""
    return db.text(
        f"SELECT users.username, {', '.join(f'pair_totals.{name}' for name in PAIR_COLUMNS[2:])}"
        " FROM pair_totals JOIN users ON users.id = pair_totals.other_id WHERE pair_totals.user_id = :user_id"
        " ORDER BY pair_totals.last_banked_at DESC, users.username"
    ).columns(*_PAIR_ROW)


@cache
def _pairs_between() -> Any:
    """`_pairs` of one account (`:user_id`) over the banked matches of a period (`:since`,
    `:until`), with the other's username, in the order of `_kept_pairs`."""
    found = (
        _pairs()
        .where(
            _s1.user_id == db.bindparam("user_id"),
            _f1.banked_at >= db.bindparam("since"),
            _f1.banked_at < db.bindparam("until"),
        )
        .subquery()
    )
    columns = list(found.c)
    return (
        db.select(User.username, *columns[2:])
        .join(found, User.id == columns[1])
        .order_by(columns[-1].desc(), User.username)
    )


def pairs(user: User, period: Period) -> list[PairFigures]:
    """Everyone the user played with in the period (claimed seats of banked matches), an
    opponent and a Tichu partner apart, the latest played first: all time reads the kept
    `pair_totals`, a period adds up its matches' seat figures."""
    if period.all_time:
        rows = db.session.execute(_kept_pairs(), {"user_id": user.id}).all()
    else:
        rows = db.session.execute(_pairs_between(), {"user_id": user.id} | period.bounds()).all()
    return [
        PairFigures(name, bool(partner), int(n), int(won), int(ahead), int(behind), int(diff), int(made), int(calls), t)
        for name, partner, n, won, ahead, behind, diff, made, calls, t in rows
    ]


def head_to_head(one: User, other: User, period: Period = ALL_TIME) -> HeadToHead:
    """How `one` and `other` did in the banked matches of the period where both claimed a
    seat (their pair rows, partners and opponents together); a player against themself is
    refused (`Invalid` on `other`: the page's second name, the API's)."""
    if one.id == other.id:
        raise Invalid(_("Choose two different players."), "other")
    found = [p for p in pairs(one, period) if p.username == other.username]
    return HeadToHead(sum(p.matches for p in found), sum(p.ahead for p in found), sum(p.behind for p in found))


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
