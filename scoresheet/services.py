"""The service layer: load a match, replay it through the engine, record a change.

The only module that touches both the engine and the database. Every change is checked by
replaying all the hand records with it, inside the transaction; a refused change stores nothing.
Refusals propagate as the engine's `Malformed` / `Refused` (with `.field` and `.message`);
a change that clashes with the match's current state raises `Conflict`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from flask import abort
from sqlalchemy import func
from sqlalchemy.exc import IntegrityError

from . import audit
from .extensions import db
from .models import AuditEntry, Hand, Match, Member, User, isoformat, utcnow
from .rules import (
    HandRecord,
    HandResult,
    Malformed,
    Refused,
    Setup,
    MatchState,
    check_setup,
    hand_from_dict,
    hand_to_dict,
    replay,
    setup_from_dict,
    setup_to_dict,
)
from .sheets import cached, computed, encode, hand_json, publish, setup_of, stored_records

HAND_EXTRA = frozenset({"expected_hand"})
EDIT_EXTRA = frozenset({"expected_hand", "version"})


class Conflict(Exception):
    """The change clashes with the match's current state (HTTP 409); nothing was stored."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def create_match(user: User, data: Mapping[str, Any]) -> Match:
    """Start a match from API-style data (only `players` required); the creator is a member."""
    setup = setup_from_dict(data)
    check_setup(setup)
    check_served(setup)
    match = Match(setup=setup_to_dict(setup), created_by_id=user.id)
    match.members.append(Member(user_id=user.id))
    db.session.add(match)
    db.session.flush()
    audit.log(match, user, "match_created", after={"setup": match.setup, "status": "open"})
    db.session.commit()
    return match


def check_served(setup: Setup) -> None:
    """Refuse a game the engine knows but the pages and the API do not serve yet (Tichu)."""
    if setup.rules == "tichu":
        raise Refused("rules", "Tichu is not served here yet: choose a Tysiacha ruleset.")


def get_match(match_id: str, user: User) -> Match:
    """The match if the user is a member; otherwise 404, exactly like a match that is not there."""
    match = db.session.execute(
        db.select(Match).join(Member).where(Match.id == match_id, Member.user_id == user.id)
    ).scalar_one_or_none()
    if match is None:
        abort(404, "There is no such match.")
    return match


def get_hand(match: Match, number: int) -> Hand:
    """The stored hand with this number (for an edit form: its record and version), else 404."""
    hand = db.session.execute(
        db.select(Hand).where(Hand.match_id == match.id, Hand.number == number)
    ).scalar_one_or_none()
    if hand is None:
        abort(404, f"This match has no hand {number}.")
    return hand


def user_matches(user: User, grouped: bool = True) -> list[Match]:
    """The user's matches, newest first; `grouped`: open ones before banked and ended ones."""
    matches = list(db.session.execute(
        db.select(Match).join(Member).where(Member.user_id == user.id)
        .order_by(Match.created_at.desc(), Match.id)
    ).scalars())
    if grouped:
        matches.sort(key=lambda m: m.status != "open")  # stable: newest first within each
    return matches


def sheet_of(match: Match) -> MatchState:
    """The computed sheet: a replay of the stored hand records."""
    return computed(match).sheet


def version_of(match: Match, hands: int | None = None) -> str:
    """The match's version for live updates, `<hands>-<revision>`, read from the database
    (`hands`: the count when the caller has just replayed them)."""
    if hands is None:
        hands = db.session.execute(
            db.select(func.count(Hand.id)).where(Hand.match_id == match.id)).scalar_one()
    return f"{hands}-{match.revision}"


def poll_version(match_id: str, user: User) -> str:
    """`version_of` one of the user's matches in a single query, without loading the match
    (404 like `get_match`): every phone at every table asks for it every few seconds."""
    hands = db.select(func.count(Hand.id)).where(Hand.match_id == Match.id).scalar_subquery()
    row = db.session.execute(
        db.select(Match.revision, hands).join(Member)
        .where(Match.id == match_id, Member.user_id == user.id)
    ).one_or_none()
    if row is None:
        abort(404, "There is no such match.")
    return f"{row[1]}-{row[0]}"


def preview_hand(match: Match, data: Mapping[str, Any], number: int | None = None) -> HandResult:
    """The engine's result for a draft hand (the next one, or a correction of hand `number`),
    replayed with the stored hands; nothing is stored."""
    record = hand_from_dict(data, extra=HAND_EXTRA)
    if number is None:
        return computed(match).run.copy().add(record)
    records = stored_records(match)
    records[number - 1] = record
    return checked_replay(match, records, number, "Changing", deleted=False).hands[number - 1]


def match_status(match: Match, sheet: MatchState) -> str:
    """`in_progress`, `finished` (computed), `banked` or `ended` (stored)."""
    return match.status if match.status in ("banked", "ended") else sheet.status


def add_hand(match: Match, user: User, data: Mapping[str, Any]) -> MatchState:
    """Record the next hand (API body, with optional `expected_hand`); the new sheet."""
    expected = body_expected_hand(data)
    record = hand_from_dict(data, extra=HAND_EXTRA)
    for attempt in range(RETRIES):
        try:
            return record_next_hand(match, user, record, expected)
        except NumberTaken as taken:
            # Without expected_hand the caller meant "the next hand, whatever its number":
            # check it again against the hand that got in first.
            if expected is not None or attempt == RETRIES - 1:
                raise Conflict(f"Hand {taken.number} was already recorded by "
                               f"{author(get_hand(match, taken.number))}.") from None
    raise AssertionError("unreachable")


RETRIES = 5


class NumberTaken(Exception):
    """Another request stored a hand with this number first (the unique constraint said so)."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


def record_next_hand(match: Match, user: User, record: HandRecord,
                     expected: int | None) -> MatchState:
    """Check `record` as the next hand by replaying the match with it, then store it."""
    lock(match, load=False)
    current = computed(match)
    number = len(current.sheet.hands) + 1
    if expected is not None and expected < number:
        raise Conflict(f"Hand {expected} was already recorded by "
                       f"{author(get_hand(match, expected))}.")
    if expected is not None and expected > number:
        raise Conflict(f"The next hand is hand {number}, not hand {expected}.")
    trial = current.run.copy()
    try:
        trial.add(record)
    except Refused as err:
        if err.hand == number and current.sheet.winner is not None:
            raise Conflict(finished_message(current.sheet.setup, current.sheet)) from None
        raise
    db.session.add(Hand(match_id=match.id, number=number, record=hand_to_dict(record),
                        created_by_id=user.id, updated_by_id=user.id))
    audit.log(match, user, "hand_added", number, after=hand_to_dict(record))
    touch(match)
    revision = match.revision
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise NumberTaken(number) from None
    return publish(match.id, revision, trial, current.hands_text).sheet


def edit_hand(match: Match, user: User, number: int, data: Mapping[str, Any],
              version: int | None = None) -> MatchState:
    """Correct hand `number` (if `version` is given, here or as the body's `version`, it must
    still be current); the new sheet."""
    if version is None:
        version = body_version(data)
    body_expected_hand(data)  # accepted (the same body as for adding) but checked like there
    record = hand_from_dict(data, extra=EDIT_EXTRA)
    hands = lock(match)
    hand = numbered(hands, number)
    if version is not None and hand.version != version:
        raise Conflict(f"This hand was changed by {author(hand, edited=True)} meanwhile: "
                       "check it and enter your correction again.")
    records = [hand_from_dict(h.record) for h in hands]
    records[number - 1] = record
    sheet = checked_replay(match, records, number, "Changing", deleted=False)
    audit.log(match, user, "hand_edited", number, before=hand.record, after=hand_to_dict(record))
    hand.record = hand_to_dict(record)
    hand.version += 1
    hand.updated_by_id = user.id
    hand.updated_at = touch(match)
    db.session.commit()
    return sheet


def delete_hand(match: Match, user: User, number: int) -> MatchState:
    """Delete hand `number`; later hands move up one number. The new sheet."""
    hands = lock(match)
    hand = numbered(hands, number)
    records = [hand_from_dict(h.record) for h in hands if h is not hand]
    sheet = checked_replay(match, records, number, "Deleting", deleted=True)
    audit.log(match, user, "hand_deleted", number, before=hand.record)
    db.session.delete(hand)
    db.session.flush()
    renumber(match, number + 1, -1)
    touch(match)
    db.session.commit()
    db.session.expire(match, ["hands"])
    return sheet


def restore_hand(match: Match, user: User, entry_id: int) -> tuple[int, MatchState]:
    """Bring back the hand a `hand_deleted` entry removed, at its old number if the sheet is
    that long (later hands move down one), else as the next hand. Its number and the sheet."""
    hands = lock(match)
    entry = db.session.get(AuditEntry, entry_id)
    if entry is None or entry.match_id != match.id or entry.action != "hand_deleted":
        abort(404, "There is no such deleted hand in this match.")
    if db.session.execute(db.select(AuditEntry.id)
                          .where(AuditEntry.restores_id == entry.id)).first() is not None:
        raise Conflict(f"The hand {entry.username} deleted was restored already.")
    record = hand_from_dict(entry.before)
    number = min(entry.hand_number or len(hands) + 1, len(hands) + 1)
    if number > len(hands):
        before = computed(match).sheet  # under the lock: the sheet as it stands
        if before.winner is not None:
            raise Conflict(finished_message(before.setup, before))
    records = [hand_from_dict(h.record) for h in hands]
    records.insert(number - 1, record)
    try:
        sheet = checked_replay(match, records, number, "Restoring", deleted=False)
    except Refused as err:
        if err.hand == number:
            err.message = f"The deleted hand cannot come back as hand {number}: {err.message}"
            err.args = (err.message,)
        raise
    renumber(match, number, 1)
    db.session.add(Hand(match_id=match.id, number=number, record=hand_to_dict(record),
                        created_by_id=user.id, updated_by_id=user.id))
    audit.log(match, user, "hand_restored", number, after=hand_to_dict(record),
              restores_id=entry.id)
    touch(match)
    db.session.commit()
    db.session.expire(match, ["hands"])
    return number, sheet


def bank(match: Match, user: User) -> MatchState:
    """Bank a finished match: read-only, with its winner."""
    sheet = sheet_of_locked(match)
    if sheet.winner is None:
        raise Conflict("Only a finished match can be banked: nobody has won yet.")
    audit.log(match, user, "match_banked", before={"status": "open"}, after={"status": "banked"})
    match.status = "banked"
    touch(match)
    db.session.commit()
    return sheet


def end(match: Match, user: User) -> MatchState:
    """End an unfinished match: read-only, without a winner."""
    sheet = sheet_of_locked(match)
    if sheet.winner is not None:
        raise Conflict(f"{sheet.setup.players[sheet.winner]} has won this match: bank it instead.")
    audit.log(match, user, "match_ended", before={"status": "open"}, after={"status": "ended"})
    match.status = "ended"
    touch(match)
    db.session.commit()
    return sheet


def join(user: User, code: object) -> Match:
    """Make the user a member of the match with this join code (404 if there is none)."""
    if not isinstance(code, str):
        raise Malformed("code", "The join code is a text.")
    code = "".join(code.split()).replace("-", "").upper()
    match = db.session.execute(
        db.select(Match).where(Match.join_code == code)
    ).scalar_one_or_none() if 0 < len(code) <= 16 and code.isascii() and code.isalnum() else None
    if match is None:
        abort(404, "No match has that join code: check it with the table.")
    if not any(m.user_id == user.id for m in match.members):
        match.members.append(Member(user_id=user.id))
        audit.log(match, user, "member_joined")
        try:
            db.session.commit()
        except IntegrityError:  # joined twice at the same moment: once is enough
            db.session.rollback()
    return match


def match_to_dict(match: Match, sheet: MatchState) -> dict[str, Any]:
    """The match object of API.md, every field."""
    versions = dict(db.session.execute(
        db.select(Hand.number, Hand.version).where(Hand.match_id == match.id)).all())
    seats = len(sheet.setup.players)
    return match_head(match, sheet) | {
        "hands": [hand_json(h, seats, versions.get(h.number, 1)) for h in sheet.hands]}


def match_json(match: Match, sheet: MatchState) -> str:
    """The match object of API.md as JSON text; its hands come encoded once per revision."""
    current = cached(match.id)
    if current is None or current.sheet is not sheet:
        return encode(match_to_dict(match, sheet))
    return encode(match_head(match, sheet))[:-1] + ',"hands":[' + ",".join(current.hands_text) + "]}"


def match_head(match: Match, sheet: MatchState) -> dict[str, Any]:
    """The match object of API.md without its hands."""
    setup = setup_to_dict(sheet.setup)
    nxt = sheet.next
    return {
        "id": match.id,
        "players": setup["players"],
        "rules": setup["rules"],
        "options": setup["options"],
        "status": match_status(match, sheet),
        "winner": sheet.winner,
        "join_code": match.join_code,
        "members": member_names(match),
        "next": None if nxt is None or match.status != "open" else {
            "hand": nxt.hand, "dealer": nxt.dealer, "first_bidder": nxt.first_bidder,
            "sitting_out": nxt.sitting_out, "gold": nxt.gold, "min_bid": nxt.min_bid},
        "standings": [{
            "seat": s.seat, "name": s.name, "score": s.score, "sheet": s.total, "owed": s.owed,
            "barrel": s.barrel, "barrel_hands": s.barrel_hands, "locked": s.locked,
            "zeros": s.zeros, "forfeits": s.forfeits} for s in sheet.standings],
    }


def member_names(match: Match) -> list[str]:
    """The members' usernames in the order they joined (one query, not one per member)."""
    return list(db.session.execute(
        db.select(User.username).join(Member, Member.user_id == User.id)
        .where(Member.match_id == match.id).order_by(Member.id)
    ).scalars())


def match_brief(match: Match) -> dict[str, Any]:
    """A match in brief, for lists."""
    sheet = sheet_of(match)
    return {"id": match.id, "players": list(sheet.setup.players), "rules": sheet.setup.rules,
            "status": match_status(match, sheet), "winner": sheet.winner,
            "hands": len(sheet.hands), "created_at": isoformat(match.created_at)}


def stored_hands(match: Match) -> list[Hand]:
    """The match's hand rows in order, fresh from the database."""
    return list(db.session.execute(
        db.select(Hand).where(Hand.match_id == match.id).order_by(Hand.number)
        .execution_options(populate_existing=True)
    ).scalars())


def lock(match: Match, load: bool = True) -> list[Hand]:
    """Lock the match row (PostgreSQL: writers to one match queue), refuse a closed match,
    and return its hands as they are now (unless `load` is false)."""
    # Fetch the row (not just run the query): only rows read refresh the object, and a writer
    # that committed since this request loaded the match must be seen (revision, status).
    db.session.execute(
        db.select(Match).where(Match.id == match.id).with_for_update()
        .execution_options(populate_existing=True)
    ).scalar_one()
    if match.status == "banked":
        raise Conflict("This match is banked: its sheet can no longer change.")
    if match.status == "ended":
        raise Conflict("This match has ended: its sheet can no longer change.")
    return stored_hands(match) if load else []


def sheet_of_locked(match: Match) -> MatchState:
    """The sheet of an open match, under the match's lock."""
    lock(match, load=False)
    return computed(match).sheet


def numbered(hands: Sequence[Hand], number: int) -> Hand:
    """The hand with this number, else 404."""
    if not 1 <= number <= len(hands):
        abort(404, f"This match has no hand {number}.")
    return hands[number - 1]


def checked_replay(match: Match, records: list[HandRecord], number: int, verb: str,
                   deleted: bool) -> MatchState:
    """Replay after changing or deleting hand `number`; a refusal of a later hand says so."""
    try:
        return replay(setup_of(match), records)
    except Refused as err:
        if err.hand is not None and (deleted or err.hand != number):
            later = err.hand + 1 if deleted and err.hand >= number else err.hand
            err.message = f"{verb} hand {number} would break hand {later}: {err.message}"
            err.args = (err.message,)
        raise


def renumber(match: Match, first: int, by: int) -> None:
    """Add `by` to the number of hand `first` and every later hand (-1 after a delete, +1
    before a restore)."""
    # Two steps through negative numbers so the unique (match, number) pair never collides.
    later = (Hand.match_id == match.id) & (Hand.number >= first)
    db.session.execute(db.update(Hand).where(later).values(number=-(Hand.number + by)))
    db.session.execute(db.update(Hand).where(Hand.match_id == match.id, Hand.number < 0)
                       .values(number=-Hand.number))


def touch(match: Match) -> datetime:
    """Mark a change of the match's hands or status: a new revision (and when it happened)."""
    match.revision += 1
    match.updated_at = now = utcnow()
    return now


def body_expected_hand(data: Mapping[str, Any]) -> int | None:
    """The optional `expected_hand` of a hand's body: a positive whole number."""
    return body_counter(data, "expected_hand", "The expected hand is a hand number: 1, 2, 3 …")


def body_version(data: Mapping[str, Any]) -> int | None:
    """The optional `version` of an API correction: the hand's version the caller saw."""
    return body_counter(data, "version", "The version is the hand's version number: 1, 2, 3 …")


def body_counter(data: Mapping[str, Any], key: str, message: str) -> int | None:
    """An optional positive whole number of a body (not a bool); else Malformed(key, message)."""
    value = data.get(key)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise Malformed(key, message)
    return value


def author(hand: Hand, edited: bool = False) -> str:
    """Who recorded (or last changed) a hand, for a conflict message."""
    user = hand.updated_by if edited else hand.created_by
    return user.username if user is not None else "someone"


def finished_message(setup: Setup, sheet: MatchState) -> str:
    """Why no hand can be added to a finished match."""
    assert sheet.winner is not None
    return (f"The match is over: {setup.players[sheet.winner]} has won. Bank it, or correct "
            "an earlier hand first.")
