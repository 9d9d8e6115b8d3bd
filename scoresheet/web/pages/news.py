"""What the match page says right after a change at the table: undo the hand you
have just saved, take that undo back, and the latest change in a few words for the other phones.

Nothing is stored for it: the match's history (audit entries) already says who changed what and
when; undo and take-back are the ordinary delete and restore, one tap each.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC
from functools import cache
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import bindparam

from ...rules import MatchState
from ...services.matches import audit, commands, seats
from ...storage.extensions import db
from ...storage.models import AuditEntry, Hand, Match, User, utcnow

UNDO_SECONDS = 30
"""How long after saving (or undoing) a hand the page offers to undo it (or take it back)."""


@dataclass(frozen=True)
class Offer:
    """A one-tap way back from the user's own latest change."""

    action: str
    """`undo` (delete the hand just saved) or `take_back` (restore the hand just deleted)."""
    number: int
    """The hand's number."""
    entry_id: int
    """The history entry of the change (`take_back` restores the hand it deleted)."""
    seconds_left: int
    """How much longer the offer stands."""
    uid: str | None = None
    """`undo`: the hand's uid, so the tap deletes that hand or nothing (`commands.delete_hand`)."""


def latest_change(match: Match) -> AuditEntry | None:
    """The newest entry of the match's history but seats, watch links and accounts (a seat
    claimed meanwhile leaves the undo and the news as they were)."""
    return db.session.execute(_latest_change(), {"match_id": match.id}).scalar_one_or_none()


@cache
def _latest_change() -> Any:
    """The query of `latest_change`, built once: every match page asks it."""
    return (
        db.select(AuditEntry)
        .where(AuditEntry.match_id == bindparam("match_id"), AuditEntry.action.not_in(audit.BESIDE_THE_SHEET))
        .order_by(AuditEntry.id.desc())
        .limit(1)
    )


def offer(match: Match, user: User, sheet: MatchState, change: AuditEntry | None) -> Offer | None:
    """Undo or take back, if `change` (the newest) is this user's own saving or deleting of the
    last hand within the last `UNDO_SECONDS`, and the match is still open."""
    if change is None or change.user_id != user.id or match.status != "open":
        return None
    at = change.at if change.at.tzinfo else change.at.replace(tzinfo=UTC)  # SQLite drops it
    left = int(UNDO_SECONDS - (utcnow() - at).total_seconds())
    number = change.hand_number or 0
    if left <= 0:
        return None
    if change.action == "hand_added" and number == len(sheet.hands):
        uid = db.session.execute(_hand_uid(), {"match_id": match.id, "number": number}).scalar_one_or_none()
        return Offer("undo", number, change.id, left, uid)
    if change.action == "hand_deleted" and change.id in commands.restorable_ids(match, [change]):
        return Offer("take_back", number, change.id, left)
    return None


@cache
def _hand_uid() -> Any:
    """The query of a hand's uid, built once."""
    return db.select(Hand.uid).where(Hand.match_id == bindparam("match_id"), Hand.number == bindparam("number"))


def news(change: AuditEntry | None, tichu: bool = False, match: Match | None = None) -> str | None:
    """A correction, deletion or restore in a few words, for the phones that did not make it
    (`tichu`: of a round), naming who made it as the sheet does if they claimed a seat of
    `match`."""
    if change is None or change.action not in ("hand_edited", "hand_deleted", "hand_restored"):
        return None
    number = change.hand_number or 0
    who = (seats.table_names(match) if match is not None else {}).get(change.username, change.username)
    match change.action, tichu:
        case "hand_edited", False:
            return _("%(name)s corrected hand %(num)d", name=who, num=number)
        case "hand_deleted", False:
            return _("%(name)s deleted hand %(num)d", name=who, num=number)
        case "hand_restored", False:
            return _("%(name)s restored hand %(num)d", name=who, num=number)
        case "hand_edited", True:
            return _("%(name)s corrected round %(num)d", name=who, num=number)
        case "hand_deleted", True:
            return _("%(name)s deleted round %(num)d", name=who, num=number)
        case "hand_restored", True:
            return _("%(name)s restored round %(num)d", name=who, num=number)
    return None
