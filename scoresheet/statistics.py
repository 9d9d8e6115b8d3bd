"""A player's statistics: each banked match's seat figures kept at bank time, added up per
ruleset for the seats the player claimed, and head to head between two players."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import bindparam, case, func
from sqlalchemy.orm import aliased

from .extensions import db
from .models import Match, Member, Seat, SeatFigure, User
from .rules import MatchState
from .rules.figures import COUNTS, seat_figures


def keep_figures(match: Match, sheet: MatchState, banked_at: datetime) -> None:
    """Store every seat's figures of a match being banked (in the banking transaction)."""
    for f in seat_figures(sheet):
        db.session.add(SeatFigure(match_id=match.id, name=sheet.setup.players[f.seat],
                                  rules=sheet.setup.rules, banked_at=banked_at, **_row(f)))


def _row(f: Any) -> dict[str, Any]:
    """A `SeatFigures` as the columns of its row."""
    return {"seat": f.seat, "place": f.place, "won": f.won,
            **{name: getattr(f, name) for name in COUNTS}}


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


@cache
def _statements() -> tuple[Any, Any]:
    """The two queries of `player_figures`, built once (a player's page is asked for often;
    building a statement costs more than SQLAlchemy's cached compile of it)."""
    user_id = bindparam("user_id")
    rules_of = Match.setup["rules"].as_string().label("rules")
    played = (db.select(rules_of, func.count())  # banked ones are counted from their figures
              .join(Seat, Seat.match_id == Match.id)
              .where(Seat.user_id == user_id, Match.status != "banked").group_by(rules_of))
    columns = [func.max(SeatFigure.bid_made_max) if name == "bid_made_max"
               else func.sum(getattr(SeatFigure, name)) for name in COUNTS]
    figures = (db.select(SeatFigure.rules, func.count(),
                         func.sum(case((SeatFigure.won, 1), else_=0)),
                         func.sum(SeatFigure.place), *columns)
               .join(Seat, (Seat.match_id == SeatFigure.match_id) & (Seat.seat == SeatFigure.seat))
               .where(Seat.user_id == user_id).group_by(SeatFigure.rules))
    return played, figures


def player_figures(user: User) -> list[RulesetFigures]:
    """The user's figures per ruleset, from the seats they claimed (two queries, no replay)."""
    played_query, figures_query = _statements()
    unbanked = dict(db.session.execute(played_query, {"user_id": user.id}).all())
    banked = {r[0]: r for r in db.session.execute(figures_query, {"user_id": user.id}).all()}
    played = {rules: unbanked.get(rules, 0) + (banked[rules][1] if rules in banked else 0)
              for rules in unbanked.keys() | banked.keys()}
    result = []
    for rules in sorted(played, key=lambda r: (-played[r], r)):
        r = banked.get(rules)
        result.append(RulesetFigures(
            rules, played[rules], r[1] if r else 0, int(r[2]) if r else 0,
            int(r[3]) if r else 0,
            {name: int(r[4 + i] or 0) if r else 0 for i, name in enumerate(COUNTS)}))
    return result


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
        db.select(func.count(), func.sum(case((f1.place < f2.place, 1), else_=0)),
                  func.sum(case((f1.place > f2.place, 1), else_=0)))
        .select_from(s1)
        .join(s2, (s2.match_id == s1.match_id) & (s2.user_id == other.id))
        .join(f1, (f1.match_id == s1.match_id) & (f1.seat == s1.seat))
        .join(f2, (f2.match_id == s2.match_id) & (f2.seat == s2.seat))
        .where(s1.user_id == one.id)).one()
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
        db.select(SeatFigure.name, func.count(), func.sum(case((SeatFigure.won, 1), else_=0)),
                  func.sum(SeatFigure.place))
        .join(Member, (Member.match_id == SeatFigure.match_id) & (Member.user_id == user.id))
        .outerjoin(Seat, (Seat.match_id == SeatFigure.match_id) & (Seat.seat == SeatFigure.seat))
        .where(Seat.id.is_(None), SeatFigure.name.is_not(None))
        .group_by(SeatFigure.name)).all()
    found = [GuestFigures(name, n, int(won), int(places)) for name, n, won, places in rows]
    return sorted(found, key=lambda g: (-g.banked, g.name))
