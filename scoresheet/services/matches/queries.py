"""Reading matches: a member's match or 404, their list, the computed sheet, the live version.

The read side of the service layer (`services` holds the commands that change a match).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from sqlalchemy import Row, bindparam
from sqlalchemy.orm import aliased, undefer

from ...rules import MatchState
from ...storage.database import hold_lock
from ...storage.extensions import db
from ...storage.models import ApiToken, Hand, Match, Member, User
from ...words import _
from .. import accounts
from ..errors import NotFound
from .replay_cache import computed


def get_match(match_id: str, user: User, *, for_update: bool = False) -> Match:
    """The match if the user is a member; otherwise 404, exactly like a match that is not there.
    `for_update`: read as `get_match_and_members` reads it for a change (locked, with its club
    night's table and hand limit), so that the command reads nothing again."""
    if for_update:
        return get_match_and_members(match_id, user, for_update=True)[0]
    match: Match | None = db.session.execute(
        _member_match(), {"match_id": match_id, "user_id": user.id}
    ).scalar_one_or_none()
    if match is None:
        raise NotFound(_("There is no such match."))
    return match


@cache
def _member_match() -> Any:
    """The query of `get_match`, built once (building it was a tenth of a match's JSON)."""
    mine = (Match.id == bindparam("match_id")) & (Member.user_id == bindparam("user_id"))
    return db.select(Match).join(Member).where(mine)


def get_match_and_members(match_id: str, user: User, *, for_update: bool = False) -> tuple[Match, list[str]]:
    """`get_match` and `member_names` in one query: what the match object of the API needs
    besides its sheet. `for_update`: the match's row read afresh and locked until the
    transaction ends (`read_locked`, which the command then need not repeat)."""
    rows = db.session.execute(_match_and_members(for_update), {"match_id": match_id, "user_id": user.id}).all()
    if not rows:
        raise NotFound(_("There is no such match."))
    match = rows[0][0]
    if for_update:
        hold_lock(match)
    return match, [name for _match, name in rows]


@cache
def _match_and_members(for_update: bool, by_token: bool = False) -> Any:
    """The query of `get_match_and_members`: a row per member, in the order they joined;
    `by_token`: of the user of a live API token (`accounts.LIVE_TOKEN`), not of a user id (and,
    `for_update`, with that user in each row: the change's author)."""
    mine = aliased(Member)
    if by_token:  # the token's row first: the token, its user's membership, the match
        query = db.select(Match, User.username).select_from(ApiToken)
        query = query.join(mine, (mine.user_id == ApiToken.user_id) & accounts.LIVE_TOKEN)
        query = query.join(Match, Match.id == mine.match_id)
    else:
        query = db.select(Match, User.username)
        query = query.join(mine, (mine.match_id == Match.id) & (mine.user_id == bindparam("user_id")))
    query = (
        query.join(Member, Member.match_id == Match.id)
        .join(User, User.id == Member.user_id)
        .where(Match.id == bindparam("match_id"))
        .order_by(Member.id)
    )
    if not by_token:  # the page names a club night's table's night (no statement more for that)
        query = query.options(undefer(Match.event_table_id))
    if not for_update:
        return query
    if by_token:
        me = aliased(User)
        query = query.add_columns(me).join(me, me.id == ApiToken.user_id)
    # Adding a hand asks whether the match is a club night's table, and its hand limit: read
    # with the row, not after it.
    locked = query.with_for_update(of=Match).options(undefer(Match.event_hand_limit), undefer(Match.event_table_id))
    return locked.execution_options(populate_existing=True)


def match_for_token(
    match_id: str, token: str, *, for_update: bool = False
) -> tuple[Match, list[str], User | None] | None:
    """`get_match_and_members` with the API's authentication in the same statement: the match
    of a live API token's user, its members' names and (`for_update`: for a change) that user.
    None when the token is no live token; NotFound when the match is not the user's. Every
    phone fetches the match after every change, one phone adds each hand: on PostgreSQL each
    statement is a round trip (a refusal asks the token once more)."""
    values = {"match_id": match_id} | accounts.token_values(token)
    rows = db.session.execute(_match_and_members(for_update, True), values).all()
    if rows:
        match = rows[0][0]
        if for_update:
            hold_lock(match)
        return match, [row[1] for row in rows], rows[0][2] if for_update else None
    if accounts.user_for_token(token) is None:
        return None
    raise NotFound(_("There is no such match."))


def get_hand(match: Match, number: int) -> Hand:
    """The stored hand with this number (for an edit form: its record and version), else 404."""
    hand: Hand | None = db.session.execute(
        db.select(Hand).where(Hand.match_id == match.id, Hand.number == number)
    ).scalar_one_or_none()
    if hand is None:
        raise NotFound(_("This match has no hand %(num)d.", num=number))
    return hand


def uid_of_hand(match: Match, number: int) -> str | None:
    """The uid of the match's hand `number` now (None: no such hand)."""
    uid: str | None = db.session.execute(
        db.select(Hand.uid).where(Hand.match_id == match.id, Hand.number == number)
    ).scalar_one_or_none()
    return uid


def number_of_hand(match: Match, uid: str) -> int | None:
    """The number the hand `uid` has now in the match (None: it is not in it, deleted)."""
    number: int | None = db.session.execute(
        db.select(Hand.number).where(Hand.match_id == match.id, Hand.uid == uid)
    ).scalar_one_or_none()
    return number


def user_matches(user: User) -> list[Match]:
    """The user's matches, newest first (for backups: whole rows)."""
    return list(
        db.session.execute(
            db.select(Match).join(Member).where(Member.user_id == user.id).order_by(Match.created_at.desc(), Match.id)
        ).scalars()
    )


def listed_matches(user: User, grouped: bool = True) -> list[Row[Any]]:
    """What lists show of the user's matches, newest first, in one query of the columns they
    need (their stored summaries: nothing is replayed, no ORM object is built); `grouped`:
    open ones before banked and ended ones."""
    rows = list(
        db.session.execute(
            db.select(Match.id, Match.setup, Match.status, Match.summary, Match.created_at)
            .join(Member)
            .where(Member.user_id == user.id)
            .order_by(Match.created_at.desc(), Match.id)
        ).all()
    )
    if grouped:
        rows.sort(key=lambda m: m.status != "open")  # stable: newest first within each
    return rows


def sheet_of(match: Match) -> MatchState:
    """The computed sheet: a replay of the stored hand records."""
    return computed(match).sheet


def stored_hands(match: Match) -> list[Hand]:
    """The match's hand rows in order, fresh from the database."""
    return list(
        db.session.execute(
            db.select(Hand)
            .where(Hand.match_id == match.id)
            .order_by(Hand.number)
            .execution_options(populate_existing=True)
        ).scalars()
    )


def known_names(user: User, most: int = 60) -> list[str]:
    """Player names of the user's matches, most recent first, each once (ignoring case): the
    start form offers them, so nobody types the table's names afresh."""
    names: dict[str, str] = {}
    for (setup,) in db.session.execute(
        db.select(Match.setup)
        .join(Member)
        .where(Member.user_id == user.id)
        .order_by(Match.created_at.desc(), Match.id)
        .limit(200)
    ):
        for name in setup.get("players", []):
            names.setdefault(name.casefold(), name)
    return list(names.values())[:most]


def rematch_of(match: Match, user: User | None = None) -> Match | None:
    """The table's next match, if someone started it and it is still there (`user`: and they
    are a member of it; a member of this match who joined after it started is not)."""
    new = db.session.get(Match, match.rematch_id) if match.rematch_id else None
    if new is None or user is None or any(m.user_id == user.id for m in new.members):
        return new
    return None


def member_names(match: Match) -> list[str]:
    """The members' usernames in the order they joined (one query, not one per member)."""
    return list(db.session.execute(_member_names(), {"match_id": match.id}).scalars())


@cache
def _member_names() -> Any:
    """The query of `member_names`, built once."""
    return (
        db.select(User.username)
        .join(Member, Member.user_id == User.id)
        .where(Member.match_id == bindparam("match_id"))
        .order_by(Member.id)
    )


def hand_stamps_of(match_ids: list[str]) -> dict[str, dict[int, tuple[int, str]]]:
    """`hand_stamps` of several matches at once (one query): by match id."""
    found: dict[str, dict[int, tuple[int, str]]] = {}
    rows = db.session.execute(
        db.select(Hand.match_id, Hand.number, Hand.version, Hand.uid).where(Hand.match_id.in_(match_ids))
    )
    for match_id, number, version, uid in rows:
        found.setdefault(match_id, {})[number] = (version, uid)
    return found


def hand_stamps(match: Match) -> dict[int, tuple[int, str]]:
    """Each stored hand's version and uid by its number (one query)."""
    rows = db.session.execute(db.select(Hand.number, Hand.version, Hand.uid).where(Hand.match_id == match.id))
    return {number: (version, uid) for number, version, uid in rows}
