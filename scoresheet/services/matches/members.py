"""Who is at the table: replacing the join code (the old one stops working at once) and
removing a member (the creator removes anyone; a member removes themselves: leaving).

A removed member is a stranger from then on: every route of the match answers them 404, as it
does a match that is not there. Their seat, if they claimed one, stays theirs (their figures of
a banked match are theirs); the creator can make it a guest. Each change is in the history.
"""

from __future__ import annotations

from ...storage.database import read_locked
from ...storage.extensions import db
from ...storage.models import Match, Member, User, lookup_name, new_join_code
from ...words import _
from ..club import tables as event_tables
from ..errors import Forbidden, NotFound
from . import audit


def replace_join_code(match: Match, user: User) -> str:
    """Give the match a new join code (any member); the old one joins nothing from now on."""
    read_locked(match)
    match.join_code = new_join_code()
    audit.log(match, user, "join_code_replaced")
    db.session.commit()
    return match.join_code


def member_named(match: Match, username: object) -> Member | None:
    """The match's member with this username (as a username is looked up: folded), if any."""
    name = lookup_name(username)  # None for what no username can be: a NUL byte is looked up nowhere
    if name is None:
        return None
    return db.session.execute(
        db.select(Member)
        .join(User, User.id == Member.user_id)
        .where(Member.match_id == match.id, User.username_folded == name)
    ).scalar_one_or_none()


def remove_member(match: Match, by: User, username: object) -> None:
    """Remove the member with this username from the match: the creator removes anyone, a
    member only themselves. A match nobody is left in is deleted (with its hands and history),
    as when the last member's account is deleted."""
    read_locked(match)
    row = member_named(match, username)
    if row is None:
        raise NotFound(_("Nobody of that name is a member of this match."))
    leaving = row.user_id == by.id
    if not leaving and match.created_by_id != by.id:
        raise Forbidden(_("Only the player who started the match can remove others from it; you can leave it."))
    removed = row.user
    db.session.delete(row)
    db.session.flush()
    others = db.session.execute(db.select(Member.id).where(Member.match_id == match.id).limit(1)).first()
    if others is None:
        with event_tables.deleting([match.id]):  # a club night's table: its standings without it
            db.session.delete(match)
    else:
        audit.log(match, by, "member_left" if leaving else "member_removed", after={"user": removed.username})
        match.revision += 1  # the other phones' member lists follow
    db.session.commit()
