"""Notices: what a player is told once, on their next page, in their language — that someone
else changed their seat (gave them one, or made theirs a guest again).

A notice is stored as a kind and its values (the match's players, the seat's name, who did
it); the words are chosen when it is shown (`waiting`), so it reads in the language the player
has then. A page (a GET, which never writes) shows the notices its browser has not shown yet
and notes the last one in the session; the player's next change (any POST) deletes those.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from sqlalchemy import bindparam

from ..storage.extensions import db
from ..storage.models import Match, Notice, User
from ..words import _

KINDS = ("seat_assigned", "seat_released")


def tell(user_id: int, kind: str, match: Match, seat: int, by: User) -> None:
    """Keep a notice for the user (committed with the change that caused it)."""
    assert kind in KINDS, kind
    players = list(match.setup["players"])
    values = {"match": " · ".join(players), "player": players[seat], "by": by.username}
    db.session.add(Notice(user_id=user_id, kind=kind, values=values))


def waiting(user: User, after: int = 0) -> list[tuple[int, str]]:
    """The user's notices after id `after` (the last one this browser showed), oldest first,
    each with its id and its words. Reading only: a page shows them, `forget` deletes them."""
    rows = db.session.execute(_waiting(), {"user_id": user.id, "after": after}).scalars()
    return [(n.id, words(n.kind, n.values)) for n in rows]


@cache
def _waiting() -> Any:
    """The query of `waiting`, built once: every page asks it."""
    return (
        db.select(Notice)
        .where(Notice.user_id == bindparam("user_id"), Notice.id > bindparam("after"))
        .order_by(Notice.id)
    )


def forget(user: User, upto: int) -> None:
    """Delete the user's notices up to id `upto` (shown already)."""
    db.session.execute(db.delete(Notice).where(Notice.user_id == user.id, Notice.id <= upto))
    db.session.commit()


def words(kind: str, values: dict[str, Any]) -> str:
    """A notice as the player reads it."""
    named = {"name": values.get("by", "?"), "player": values.get("player", "?"), "match": values.get("match", "")}
    if kind == "seat_assigned":
        return _("%(name)s gave you the seat of %(player)s in the match %(match)s.", **named)
    return _(
        "%(name)s made the seat of %(player)s a guest again in the match %(match)s: it is no longer yours.", **named
    )
