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

from sqlalchemy.exc import IntegrityError

from ...rules import Refused
from ...storage.database import read_locked
from ...storage.extensions import db
from ...storage.models import Match, Seat, User
from ...words import _
from .. import notices
from ..errors import Conflict, Forbidden, NotFound
from ..players import ratings
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
    claimed = dict(
        db.session.execute(
            db.select(Seat.seat, User.username).join(User, User.id == Seat.user_id).where(Seat.match_id == match.id)
        ).all()
    )
    return [SeatView(i, name, claimed.get(i)) for i, name in enumerate(match.setup["players"])]


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
    account claimed, services.club): written to the history as the creator's assignment."""
    _place(match, by, user, _checked(match, seat))


def release(match: Match, by: User, seat: int) -> None:
    """Make a seat a guest again: its own player, or the creator, may."""
    _checked(match, seat)
    read_locked(match, share=True)  # a bank under way is waited for (the ratings follow it)
    row = _claim_of(match, seat)
    if row is None:
        return
    if row.user_id != by.id:
        _creator_only(match, by)
        notices.tell(row.user_id, "seat_released", match, seat, by)
    audit.log(match, by, "seat_released", before=_claim_words(row))
    db.session.delete(row)
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


def _place(match: Match, by: User, user: User, seat: int) -> None:
    """Give `seat` to `user` (who leaves any other seat of the match); a seat someone else
    claimed is a Conflict, for the creator too: its holder (or the creator) makes it a guest
    first. A member given a seat by someone else is told on their next page."""
    read_locked(match, share=True)  # a bank under way is waited for: the seat knows it is banked
    row = _claim_of(match, seat)
    if row is not None and row.user_id == user.id:
        return
    before = None
    if row is not None:
        raise Conflict(_("%(name)s has claimed this seat already.", name=_claim_words(row)["user"]))
    if by.id != user.id:
        notices.tell(user.id, "seat_assigned", match, seat, by)
    db.session.execute(db.delete(Seat).where(Seat.match_id == match.id, Seat.user_id == user.id))
    db.session.flush()
    db.session.add(Seat(match_id=match.id, seat=seat, user_id=user.id, banked=match.status == "banked"))
    audit.log(
        match,
        by,
        "seat_claimed" if by.id == user.id else "seat_assigned",
        before=before,
        after={"seat": seat, "user": user.username},
    )
    try:
        _changed(match)
    except IntegrityError:  # two phones claimed the seat at the same moment
        db.session.rollback()
        raise Conflict(_("Someone claimed this seat at the same moment: look again.")) from None


def _claim_words(row: Seat) -> dict[str, object]:
    """A claim as the history keeps it: the seat and the claimant's name (not their id)."""
    user = db.session.get(User, row.user_id)
    return {"seat": row.seat, "user": user.username if user else "?"}


def _changed(match: Match) -> None:
    """Commit a change of the match's seats; a banked match's ratings follow it."""
    db.session.flush()
    if match.status == "banked":
        ratings.rerate_match(match.setup["rules"], match.id)
    db.session.commit()
