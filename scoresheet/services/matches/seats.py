"""Seats and people: a member claims their seat ("I am Anna"), the match's creator assigns
seats to members, and a seat nobody claimed stays a guest name. Each change is written to the
match's history (`audit`) in its own transaction.

A seat someone claimed is theirs: nobody, the creator neither, claims or gives it to another
(409) until its holder makes it a guest again (or the creator does). A holder whose seat
someone else changed is told on their next page (`notices`).

A player's history is their claimed seats; a claim that changes on a banked match
recomputes the ratings from that match on (`ratings.rerate_match`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from sqlalchemy import bindparam, func
from sqlalchemy.exc import IntegrityError

from ...rules import Refused
from ...rules.figures import game_of
from ...storage.database import read_locked, read_locked_in_order
from ...storage.extensions import db
from ...storage.models import Match, Member, Seat, SeatFigure, User
from ...words import _
from .. import notices
from ..errors import Conflict, Forbidden, NotFound
from ..players import ratings, statistics
from . import audit, members


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat of a match as the pages and the API show it."""

    seat: int
    name: str
    """The name on the sheet."""
    username: str | None
    """The account that claimed it, or None: a guest."""


def seats_of(match: Match) -> list[SeatView]:
    """Every seat of the match in order, with the account that claimed it (one query)."""
    claimed = dict(db.session.execute(_claimed_seats(), {"match_id": match.id}).all())
    return [SeatView(i, name, claimed.get(i)) for i, name in enumerate(match.setup["players"])]


@cache
def _claimed_seats() -> Any:
    """The query of `seats_of`, built once: every match page asks it."""
    claimed = db.select(Seat.seat, User.username).join(User, User.id == Seat.user_id)
    return claimed.where(Seat.match_id == bindparam("match_id"))


def table_names(match: Match) -> dict[str, str]:
    """The name the table wrote on the sheet for each account that claimed a seat (account
    name → seat name): notices and the history say `Аня`, not `anna1`."""
    return {s.username: s.name for s in seats_of(match) if s.username}


def claim(match: Match, user: User, seat: int) -> None:
    """The user (a member) takes this seat as theirs, leaving any other seat of the match."""
    _place(match, user, user, _checked(match, seat))


def assign(match: Match, by: User, seat: int, username: object) -> None:
    """The match's creator gives this seat to a member (named by username)."""
    _creator_only(match, by)
    _checked(match, seat)
    row = members.member_named(match, username)
    if row is None:
        raise Refused("username", _("Only a member of the match can have a seat: they join with its code first."))
    _place(match, by, row.user, seat)


def assign_seat(match: Match, by: User, user: User, seat: int) -> None:
    """Give `seat` to `user` on behalf of the match's creator `by` (a club night's guest whom an
    account claimed, services.club): written to the history as the creator's assignment; not
    committed (the night's change commits it with the rest, or nothing of it)."""
    _place(match, by, user, _checked(match, seat), commit=False)


def release(match: Match, by: User, seat: int) -> None:
    """Make a seat a guest again: its own player, or the creator, may."""
    _checked(match, seat)
    read_locked(match)  # a bank under way is waited for (the ratings follow it)
    row = _claim_of(match, seat)
    if row is None:
        return
    if row.user_id != by.id:
        _creator_only(match, by)
        notices.tell(row.user_id, "seat_released", match, seat, by)
    audit.log(match, by, "seat_released", before=_claim_words(row))
    db.session.delete(row)
    match.revision += 1  # the other phones' "who is who" follows (static/app.js)
    _changed(match)


def _checked(match: Match, seat: int) -> int:
    """The seat number if the match has that seat, else 404."""
    if not 0 <= seat < len(match.setup["players"]):
        raise NotFound(_("This match has no such seat."))
    return seat


def _creator_only(match: Match, user: User) -> None:
    """403 unless the user started the match."""
    if match.created_by_id != user.id:
        raise Forbidden(_("Only the player who started the match can give seats to others."))


def _claim_of(match: Match, seat: int) -> Seat | None:
    """The claim on this seat, locked (PostgreSQL) until the change commits."""
    return db.session.execute(
        db.select(Seat).where(Seat.match_id == match.id, Seat.seat == seat).with_for_update()
    ).scalar_one_or_none()


def _place(match: Match, by: User, user: User, seat: int, commit: bool = True) -> None:
    """Give `seat` to `user` (who leaves any other seat of the match); a seat someone else
    claimed is a Conflict, for the creator too: its holder (or the creator) makes it a guest
    first. A member given a seat by someone else is told on their next page. The match's
    version moves: the other phones' "who is who" follows (static/app.js)."""
    read_locked(match)  # a bank under way is waited for: the seat knows it is banked
    if _holds(match, user, seat):
        return
    match.revision += 1
    if by.id != user.id:
        notices.tell(user.id, "seat_assigned", match, seat, by)
    db.session.execute(db.delete(Seat).where(Seat.match_id == match.id, Seat.user_id == user.id))
    db.session.flush()
    db.session.add(Seat(match_id=match.id, seat=seat, user_id=user.id, banked=match.status == "banked"))
    audit.log(
        match,
        by,
        "seat_claimed" if by.id == user.id else "seat_assigned",
        after={"seat": seat, "user": user.username},
    )
    try:
        _changed(match, commit)
    except IntegrityError:  # two phones claimed the seat at the same moment
        db.session.rollback()
        raise claimed_meanwhile() from None


def claimed_meanwhile() -> Conflict:
    """The refusal of a seat another phone claimed at the same moment (the database's unique
    claim refused the second)."""
    return Conflict(_("Someone claimed this seat at the same moment: look again."))


def _holds(match: Match, user: User, seat: int) -> bool:
    """Whether `user` holds `seat` already (its claim locked until the change commits); a
    Conflict if someone else does: its holder (or the creator) makes it a guest first."""
    row = _claim_of(match, seat)
    if row is not None and row.user_id != user.id:
        raise Conflict(_("%(name)s has claimed this seat already.", name=_claim_words(row)["user"]))
    return row is not None


def _claim_words(row: Seat) -> dict[str, object]:
    """A claim as the history keeps it: the seat and the claimant's name (not their id)."""
    user = db.session.get(User, row.user_id)
    return {"seat": row.seat, "user": user.username if user else "?"}


def _changed(match: Match, commit: bool = True) -> None:
    """Commit a change of the match's seats (or only send it: the caller commits); a banked
    match's ratings follow it."""
    db.session.flush()
    if match.status == "banked":
        ratings.rerate_match(match.setup["rules"], match.id)
    if commit:
        db.session.commit()


@dataclass(frozen=True, slots=True)
class GuestPast:
    """A guest's name on free seats of a player's matches: what they may claim at once."""

    name: str
    """The name on the sheet, exactly as written."""
    matches: int
    """Matches with a free seat of that name where the player holds no seat."""


def _past_seats(user: User) -> dict[str, list[tuple[Match, int]]]:
    """Each guest name of the matches the user is a member of and holds no seat in, with the
    matches and the free seat of that name (the first, should a sheet name two alike)."""
    held = db.select(Seat.match_id).where(Seat.user_id == user.id)
    matches = db.session.execute(
        db.select(Match)
        .join(Member, (Member.match_id == Match.id) & (Member.user_id == user.id))
        .where(Match.id.not_in(held))
        .order_by(Match.created_at, Match.id)
    ).scalars()
    found: dict[str, list[tuple[Match, int]]] = {}
    for match in list(matches):
        taken = set(db.session.execute(db.select(Seat.seat).where(Seat.match_id == match.id)).scalars())
        for seat, name in enumerate(match.setup["players"]):
            if seat not in taken and all(m.id != match.id for m, _seat in found.get(name, [])):
                found.setdefault(name, []).append((match, seat))
    return found


def guest_pasts(user: User) -> list[GuestPast]:
    """The guest names the user may claim at once (`claim_past`), most matches first: only
    matches they are a member of, never a stranger's."""
    found = [GuestPast(name, len(seats)) for name, seats in _past_seats(user).items()]
    return sorted(found, key=lambda g: (-g.matches, g.name))


def claim_past(user: User, name: object) -> int:
    """Claim, as `claim` would one by one, the free seat named `name` in every match the user
    is a member of and holds no seat in (a match where they hold one is skipped): one history
    entry per match, then their totals and the ratings of each game from its earliest banked
    match claimed; the number of matches claimed. An unknown name claims nothing (422)."""
    seats = _past_seats(user).get(name, []) if isinstance(name, str) else []
    if not seats:
        raise Refused("name", _("No match of yours has a free seat of that name: choose one from the list."))
    read_locked_in_order(m.id for m, _seat in seats)  # a bank under way is waited for: the seat knows it is banked
    for match, seat in seats:
        db.session.add(Seat(match_id=match.id, seat=seat, user_id=user.id, banked=match.status == "banked"))
        audit.log(match, user, "seat_claimed", after={"seat": seat, "user": user.username})
        match.revision += 1  # its phones' "who is who" follows
    try:
        db.session.flush()
        banked = db.session.execute(
            db.select(SeatFigure.rules, func.min(SeatFigure.banked_at))
            .where(SeatFigure.match_id.in_([m.id for m, _seat in seats]))
            .group_by(SeatFigure.rules)
        ).all()
        statistics.rebuild_totals([user.id])  # the totals first: they lock accounts before a game's lock
        since: dict[str, Any] = {}
        for rules, banked_at in banked:
            game = game_of(rules)
            since[game] = min(since.get(game, banked_at), banked_at)
        for game, banked_at in sorted(since.items()):
            ratings.rate_from(game, banked_at)
        db.session.commit()
    except IntegrityError:  # someone claimed one of these seats at the same moment
        db.session.rollback()
        raise Conflict(_("Someone claimed one of these seats at the same moment: look again.")) from None
    return len(seats)
