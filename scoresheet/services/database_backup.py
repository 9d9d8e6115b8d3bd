"""The whole database as one backup document, and back (`flask backup`, `flask restore`).

The document is a match backup (`matches/backup.py`, docs/backup.schema.json) of every match,
with what only the database's own copy holds besides: the users (their password hashes,
language and usual rules); each match's revision (what the phones' live updates count), time
banked, watch link, rematch, start key, origin and who holds each seat; and every club night
as its own backup holds it (`club/exports.py`), its tables naming their matches by id. A
restore writes it all into an empty database in one transaction and computes again what is
computed from it: the players' totals and pair figures, each game's ratings, each night's
standings. Not kept: API tokens, sessions (everyone logs in again) and notices (news of the
moment).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from sqlalchemy import func
from sqlalchemy.orm import selectinload

from ..rules import Malformed
from ..rules.figures import GAMES
from ..storage.extensions import db
from ..storage.models import Event, EventRound, Match, Seat, SeatFigure, User, isoformat
from .club import exports
from .errors import Invalid
from .matches import backup
from .players import ratings, statistics


class Restored(NamedTuple):
    """What a restore wrote."""

    users: int
    matches: int
    events: int


def document() -> dict[str, Any]:
    """The whole database as a backup document (read it in one snapshot: `database.snapshot`)."""
    users = list(db.session.execute(db.select(User).order_by(User.id)).scalars())
    matches = list(db.session.execute(db.select(Match).order_by(Match.created_at, Match.id)).scalars())
    # Each night's directors, roster, rounds and tables read for all nights at once, not per
    # night (their accounts are among `users`, in the session already).
    parts = (
        selectinload(Event.directors),
        selectinload(Event.roster),
        selectinload(Event.seated).selectinload(EventRound.tables),
    )
    nights = list(db.session.execute(db.select(Event).options(*parts).order_by(Event.created_at, Event.id)).scalars())
    names = {u.id: u.username for u in users}
    seats: dict[str, list[dict[str, Any]]] = {}
    for s in db.session.execute(db.select(Seat).order_by(Seat.match_id, Seat.seat)).scalars():
        seats.setdefault(s.match_id, []).append(
            {"seat": s.seat, "user": names[s.user_id], "claimed_at": isoformat(s.claimed_at)}
        )
    when = db.select(SeatFigure.match_id, func.min(SeatFigure.banked_at)).group_by(SeatFigure.match_id)
    banked = {match_id: at for match_id, at in db.session.execute(when)}
    doc = backup.document(matches)
    for match, data in zip(matches, doc["matches"], strict=True):
        data |= {
            "revision": match.revision,
            "banked_at": isoformat(banked[match.id]) if match.id in banked else None,
            "watch_token": match.watch_token,
            "rematch": match.rematch_id,
            "start_key": match.start_key,
            "imported_from": match.imported_from,
            "seats": seats.get(match.id, []),
        }
    doc["users"] = [
        {
            "username": u.username,
            "password_hash": u.password_hash,
            "created_at": isoformat(u.created_at),
            "language": u.language,
            "usual_rules": u.usual_rules,
        }
        for u in users
    ]
    doc["events"] = [exports.document(night, whole=True) for night in nights]
    return doc


def restore(doc: Any) -> Restored:
    """Write a whole-database backup into this (empty) database, all or nothing (a refusal
    names its place in the document and stores nothing: the caller rolls back), and commit."""
    accounts, matches = backup.restore_database(doc)
    nights = doc.get("events") or []
    try:
        exports.restore_events(nights, {m.id: m for m in matches})
    except Invalid as err:
        raise Malformed(err.field or "/events", err.message) from None
    statistics.rebuild_totals(u.id for u in accounts.values())  # the totals first, as a bank does
    for game in GAMES:
        ratings.rate_from(game, backup.EARLIEST)  # every match banked
    db.session.commit()
    return Restored(len(accounts), len(matches), len(nights))
