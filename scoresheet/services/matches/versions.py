"""A match's version for live updates, `<hands>-<revision>`, in one place: the string, the SQL
that reads it, and which of two versions is newer. A page is rendered at a version; a phone
asks for the version (`…/version`, `…/events`) and reloads its sheet when it changes.

The revision counts every change of the match (a hand added, corrected, deleted or restored,
banked, ended, a member joining by the code or leaving, a seat claimed, given or released, a
rematch started); the hand count comes first so that a person can read it.
"""

from __future__ import annotations

from sqlalchemy import func

from ...rules import MatchState
from ...storage.extensions import db
from ...storage.models import Hand, Match, Member, User
from ...words import _
from ..errors import NotFound

HANDS_AND_REVISION_SQL = "(SELECT count(*) FROM hands h WHERE h.match_id = m.id), m.revision"
"""The hand count and revision of the match `m`, for SQL read outside the ORM (the live-update
hub and the quick poll read them without a session)."""


def version(hands: int, revision: int) -> str:
    """The version string of a match with this many hands at this revision."""
    return f"{hands}-{revision}"


def newer(version: str, known: str) -> bool:
    """Whether `version` comes after `known` (the revision counts every change; a version the
    page never had is newer if its revision is higher)."""
    return int(version.rpartition("-")[2]) > int(known.rpartition("-")[2])


def sheet_version(match: Match, sheet: MatchState) -> str:
    """The version a page of this sheet was rendered at."""
    return version(len(sheet.hands), match.revision)


def version_of(match: Match) -> str:
    """The match's version, its hands counted in the database."""
    hands = db.session.execute(db.select(func.count(Hand.id)).where(Hand.match_id == match.id)).scalar_one()
    return version(hands, match.revision)


def poll_version(match_id: str, user: User) -> str:
    """`version_of` one of the user's matches in a single query, without loading the match
    (404 like `queries.get_match`): every phone at every table asks for it every few seconds."""
    hands = db.select(func.count(Hand.id)).where(Hand.match_id == Match.id).scalar_subquery()
    row = db.session.execute(
        db.select(Match.revision, hands).join(Member).where(Match.id == match_id, Member.user_id == user.id)
    ).one_or_none()
    if row is None:
        raise NotFound(_("There is no such match."))
    return version(row[1], row[0])
