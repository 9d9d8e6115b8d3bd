"""The service layer's commands: every change to a match, each one transaction.

create_match, rematch, join, add_hand, edit_hand, delete_hand, restore_hand, bank, end — and
preview_hand, which checks a draft hand the same way and stores nothing. Reading lives in
`queries`. Every change is checked by replaying all the hand records with it, inside the
transaction; a refused change stores nothing. Refusals propagate as the engine's `Malformed` /
`Refused` (with `.field` and `.message`); a change that clashes with the match's current state
raises `errors.Conflict`. Every change stores the match's new summary with it (and a club
night's table's result).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError

from ...rules import (
    HandResult,
    MatchState,
    Record,
    Refused,
    Replay,
    Setup,
    check_setup,
    record_from_dict,
    record_to_dict,
    replay,
    setup_from_dict,
    setup_to_dict,
)
from ...rules.figures import game_of
from ...rules.house import check_new_match, usual_rules_of
from ...rules.setup import check_new_names
from ...rules.tichu import TICHU
from ...storage.database import made_once, read_locked
from ...storage.extensions import db
from ...storage.hand_rows import store_next_hand
from ...storage.models import (
    AuditEntry,
    Hand,
    Match,
    Member,
    Seat,
    SeatFigure,
    User,
    look_alike_key,
    new_hand_uid,
    utcnow,
)
from ...words import _, _l
from .. import accounts
from ..club import tables as event_tables
from ..errors import AlreadyRecorded, Conflict, HandGone, NotFound
from ..players import ratings, statistics
from . import audit
from .links import by_join_code
from .queries import get_hand, rematch_of, stored_hands, uid_of_hand
from .replay_cache import Computed, computed, publish, setup_of, store_summary, stored_records, summary_of

_RETRIES = 5


def create_match(user: User, setup: Setup, start_key: str | None = None) -> Match:
    """Start a match (the set-up is checked here, and refused an old rule only a stored match
    keeps, RULES.md §7); the creator is its first member. `start_key`: see `start_match`."""
    check_setup(setup)
    check_new_match(setup)
    check_new_names(setup.players)
    for name in setup.players:  # "Аnna" beside Anna (a Cyrillic А): two seats that read alike
        refusal = accounts.look_alike_refusal(name)
        if refusal is not None:
            raise Refused("players", refusal)
    check_new_names(setup.players, look_alike_key)  # "Норе", all Cyrillic, beside Hope
    match = _new_match(user, setup, [user.id], start_key)
    db.session.commit()
    return match


def start_match(user: User, setup: Setup, start_key: str | None) -> tuple[Match, bool]:
    """Start a match from a page's form, once per form: the same `start_key` sent again (a
    second tap, or a tap again after an answer lost on a bad connection) gets the match it
    started, also when both arrive at the same moment. The match, and whether it was started
    now. The form sent again with other players or rules (corrected after the answer was
    lost) starts a match of its own."""
    stored = setup_to_dict(setup)
    return made_once(
        Match, user.id, start_key, lambda key: create_match(user, setup, key), lambda match: match.setup == stored
    )


def _new_match(user: User, setup: Setup, member_ids: list[int], start_key: str | None = None) -> Match:
    """A new match of `user`'s with these members (not committed)."""
    check_setup(setup)
    match = Match(setup=setup_to_dict(setup), created_by_id=user.id, start_key=start_key)
    match.members.extend(Member(user_id=i) for i in member_ids)
    store_summary(match, replay(setup, []))
    db.session.add(match)
    db.session.flush()
    audit.log(match, user, "match_created", after={"setup": match.setup, "status": "open"})
    return match


def create_table_match(user: User, setup: Setup, member_ids: list[int], seats: dict[int, int]) -> Match:
    """A club night's table (CLUB.md §3): a match of `user`'s with these members, the seats
    `seats` (seat → account) claimed; not committed (the round is seated in one transaction)."""
    match = _new_match(user, setup, list(dict.fromkeys([user.id, *member_ids])))
    db.session.add_all(Seat(match_id=match.id, seat=seat, user_id=i) for seat, i in seats.items())
    return match


def end_at(match: Match, user: User, after: dict[str, Any] | None = None) -> None:
    """End a club night's table where it stands (CLUB.md §4: a director closes the round or
    enters its result): an open match ends, won or not; not committed. A result entered by hand
    (`after`: its `scores` and `entered_by`) is written in the history also when the match has
    ended already (closed, at the hand limit, banked, or entered before): its status and hands
    stay as they are."""
    read_locked(match)
    if match.status != "open":
        if after:
            audit.log(
                match, user, "match_ended", before={"status": match.status}, after={"status": match.status, **after}
            )
        return
    sheet = computed(match).sheet
    audit.log(match, user, "match_ended", before={"status": "open"}, after={"status": "ended", **(after or {})})
    match.status = "ended"
    _touch(match, sheet)


def rematch(match: Match, user: User) -> tuple[Match, bool]:
    """The table's next match: the same players, rules and options, the first deal one seat
    on (to the left of this match's first dealer), no start scores; every member of this
    match is a member of it, and each seat claimed here is claimed there by the same player.
    One per match: a second tap, on any phone, gets the one already started. The match, and
    whether it was started now."""
    read_locked(match)
    started = rematch_of(match, user)
    if started is not None:
        return started, False
    if rematch_of(match) is not None:  # started before this member joined: not theirs to see
        raise NotFound(_("There is no such match."))
    old = computed(match).sheet.setup
    if match.status == "open" and computed(match).sheet.winner is None:
        raise Conflict(_("This match is still being played: a rematch starts once it is won or ended."))
    setup = dataclasses.replace(
        old,
        first_dealer=(old.first_dealer + 1) % len(old.players),
        start_scores=tuple(0 for _ in old.start_scores),
        options=dataclasses.replace(old.options, forced_any_seat=False),
    )
    # RULES.md §7: tyzicha's old forced rule stays with the stored match, not its rematch
    members = [m.user_id for m in match.members]
    new = _new_match(user, setup, [user.id, *(i for i in members if i != user.id)])
    # The same players sit in the same seats: each claim goes with its player (a seat is its
    # place in `players`, which the rematch keeps).
    claims = db.session.execute(db.select(Seat.seat, Seat.user_id).where(Seat.match_id == match.id)).all()
    db.session.add_all(Seat(match_id=new.id, seat=seat, user_id=i) for seat, i in claims if i in members)
    match.rematch_id = new.id
    match.revision += 1  # the other phones' sheets show the way to the new match
    db.session.commit()
    return new, True


def save_usual_rules(user: User, match: Match) -> None:
    """Keep this match's players, ruleset and options as the user's usual rules (RULES.md §6,
    §11), for `start_usual`."""
    user.usual_rules = usual_rules_of(match.setup)
    db.session.commit()


def start_usual(user: User, start_key: str | None) -> tuple[Match, bool]:
    """Start a match with the user's usual rules: the first seat deals, no start scores; once
    per tap of the button (`start_match`)."""
    if user.usual_rules is None:
        raise NotFound(_("No usual rules are saved: save them from a match's page first."))
    return start_match(user, setup_from_dict(user.usual_rules), start_key)


def join(user: User, code: str) -> Match:
    """Make the user a member of the match with this join code (404 if there is none). A match
    that is won, banked or ended takes no new member (409): its watch link is for onlookers."""
    match = by_join_code(code)
    if match is None:
        raise NotFound(_("No match has that join code: check it with the table."))
    if not any(m.user_id == user.id for m in match.members):
        read_locked(match)  # a match banked or ended meanwhile is seen as such
        if not takes_players(match, computed(match).sheet):
            raise no_new_players()
        match.members.append(Member(user_id=user.id))
        audit.log(match, user, "member_joined")
        match.revision += 1  # a club night's page links the new member to this sheet
        try:
            db.session.commit()
        except IntegrityError:  # joined twice at the same moment: once is enough
            db.session.rollback()
    return match


def takes_players(match: Match, sheet: MatchState) -> bool:
    """Whether the match takes new members: not won, banked or ended."""
    return match.status == "open" and sheet.winner is None


def no_new_players() -> Conflict:
    """The refusal of a newcomer to a match that is over."""
    return Conflict(
        _("This match is over: it takes no new players. Ask the table for its watch link to see the sheet.")
    )


def preview_hand(
    match: Match, record: Record, number: int | None = None, expected_hand: int | None = None
) -> HandResult:
    """The engine's result for a draft hand (the next one, refused as adding it would be, or a
    correction of hand `number`), replayed with the stored hands; nothing is stored."""
    if number is None:
        _refuse_closed(match)
        return _try_next(match, computed(match), record, expected_hand)[1]
    records = stored_records(match)
    records[number - 1] = record
    return _checked_replay(match, records, number, _CHANGING, deleted=False).hands[number - 1]


def add_hand(match: Match, user: User, record: Record, expected_hand: int | None = None) -> MatchState:
    """Record the next hand (if `expected_hand` is given, it must be that number: hand
    `expected_hand` recorded by `user` just as this is `AlreadyRecorded`); the new sheet."""
    for attempt in range(_RETRIES):
        try:
            return _record_next_hand(match, user, record, expected_hand)
        except _NumberTaken as taken:
            # Without expected_hand the caller meant "the next hand, whatever its number":
            # check it again against the hand that got in first.
            if expected_hand is not None:
                raise _recorded_already(match, user, taken.number, record) from None
            if attempt == _RETRIES - 1:
                raise Conflict(_recorded_by(match, taken.number, _author(get_hand(match, taken.number)))) from None
    raise AssertionError("unreachable")


def takes_corrections(match: Match) -> bool:
    """A hand of the match can be corrected: while the match is open, and at a club night's
    table at any time, also once it is won, banked or ended (CLUB.md §4). The pages ask this
    (the sheet's ✎, the correction form) as `edit_hand` does."""
    return match.status == "open" or match.event_table_id is not None


def takes_deletions(match: Match) -> bool:
    """A hand of the match can be deleted: while the match is open, at a club night's table too
    (a banked or ended one is refused, `_refuse_closed`). The pages ask this (the ✎'s words,
    the form's delete button)."""
    return match.status == "open"


def edit_hand(
    match: Match, user: User, number: int, record: Record, version: int | None = None, uid: str | None = None
) -> MatchState:
    """Correct hand `number` (if `version` is given, it must still be current, or the hand read
    already as this correction by `user`: `AlreadyRecorded`; if `uid` is given, hand `number`
    must still be that hand); the new sheet. A club night's table takes a
    correction also once it is banked or ended (CLUB.md §4); a banked one's figures and ratings
    follow it."""
    read_locked(match)
    closed_table = match.status != "open" and match.event_table_id is not None  # CLUB.md §4
    hands = stored_hands(match) if closed_table else _lock(match)
    hand = _numbered(hands, number, uid)
    if version is not None and hand.version != version:
        message = _(
            "This hand was changed by %(name)s meanwhile: check it and enter your correction again.",
            name=_author(hand, edited=True),
        )
        # The same correction again by its author (its answer was lost): it is made already.
        made = hand.updated_by_id == user.id and hand.record == record_to_dict(record)
        raise AlreadyRecorded(message, number) if made else Conflict(message)
    records = _records(match, hands)
    records[number - 1] = record
    sheet = _checked_replay(match, records, number, _CHANGING, deleted=False)
    audit.log(match, user, "hand_edited", number, before=hand.record, after=record_to_dict(record))
    hand.record = record_to_dict(record)
    hand.version += 1
    hand.updated_by_id = user.id
    hand.updated_at = _touch(match, sheet)
    if closed_table and match.status == "banked":
        _refigure(match, sheet)
    db.session.commit()
    return sheet


def _refigure(match: Match, sheet: MatchState) -> None:
    """A banked table's figures kept again after a correction, and its game's ratings from it on."""
    banked_at = db.session.execute(
        db.select(SeatFigure.banked_at).where(SeatFigure.match_id == match.id).limit(1)
    ).scalar_one_or_none()
    if banked_at is None:
        return
    db.session.execute(db.delete(SeatFigure).where(SeatFigure.match_id == match.id))
    statistics.keep_figures(match, sheet, banked_at)
    ratings.rate_from(game_of(sheet.setup.rules), banked_at)


def delete_hand(match: Match, user: User, number: int, uid: str | None = None, newest: bool = False) -> MatchState:
    """Delete hand `number` (if `uid` is given, only while hand `number` is still that hand:
    a stale tap never deletes the hand that took its number); later hands move up one number.
    `newest` (the page's Undo): only while it is still the last hand, so that a late tap never
    moves up, and deals anew, a hand another phone recorded after it. The new sheet."""
    hands = _lock(match)
    hand = _numbered(hands, number, uid)
    if newest and number < len(hands):
        raise _not_the_newest(match, number, hands[number])
    records = _records(match, [h for h in hands if h is not hand])
    sheet = _checked_replay(match, records, number, _DELETING, deleted=True)
    audit.log(match, user, "hand_deleted", number, before=hand.record)
    db.session.delete(hand)
    db.session.flush()
    if any(h.number > number for h in hands):  # (the newest hand undone moves none)
        _renumber(match, number + 1, -1)
    _touch(match, sheet)
    db.session.commit()
    db.session.expire(match, ["hands"])
    return sheet


def restorable_ids(match: Match, history: list[AuditEntry]) -> set[int]:
    """Ids of the `hand_deleted` entries of `history` whose hand `restore_hand` would bring
    back now: not restored yet, the match still open, and not finished unless the hand goes
    back inside the sheet (a finished match takes no next hand). The page and the API ask this;
    `restore_hand` refuses the others."""
    if match.status != "open":
        return set()
    restored = {e.restores_id for e in history if e.restores_id is not None}
    deleted = [e for e in history if e.action == "hand_deleted" and e.id not in restored]
    if not deleted:
        return set()
    sheet = computed(match).sheet
    return {e.id for e in deleted if sheet.winner is None or _restored_number(e, len(sheet.hands)) <= len(sheet.hands)}


def deleted_entry(match: Match, entry_id: int | None) -> AuditEntry:
    """The match's `hand_deleted` history entry with this id, else 404: the same answer for
    an id that is not there and for another match's entry, so ids tell nothing."""
    entry = db.session.get(AuditEntry, entry_id) if entry_id is not None else None
    if entry is None or entry.match_id != match.id or entry.action != "hand_deleted":
        raise NotFound(_("There is no such deleted hand in this match."))
    return entry


def restore_hand(match: Match, user: User, entry_id: int, hands_seen: int | None = None) -> tuple[int, MatchState]:
    """Bring back the hand a `hand_deleted` entry removed, at its old number if the sheet is
    that long (later hands move down one), else as the next hand. Its number and the sheet.
    `hands_seen`: the sheet's hands when the tap was offered ("Take it back" right after the
    deletion); a sheet of more or fewer now is refused (409): a hand another phone recorded in
    the deleted one's place meanwhile is never pushed down by a stale tap."""
    hands = _lock(match)
    entry = deleted_entry(match, entry_id)
    if db.session.execute(db.select(AuditEntry.id).where(AuditEntry.restores_id == entry.id)).first() is not None:
        raise Conflict(_("The hand %(name)s deleted was restored already.", name=entry.username))
    if hands_seen is not None and len(hands) != hands_seen:
        raise Conflict(
            _(
                "The sheet changed after round %(num)d was deleted: nothing was restored. "
                "Its history can still bring it back.",
                num=entry.hand_number or 0,
            )
            if match.setup["rules"] == TICHU
            else _(
                "The sheet changed after hand %(num)d was deleted: nothing was restored. "
                "Its history can still bring it back.",
                num=entry.hand_number or 0,
            )
        )
    if entry.id not in restorable_ids(match, [entry]):
        before = computed(match).sheet  # under the lock: the sheet as it stands
        raise Conflict(_finished_message(before.setup, before))
    record = record_from_dict(entry.before, match.setup["rules"])
    number = _restored_number(entry, len(hands))
    records = _records(match, hands)
    records.insert(number - 1, record)
    try:
        sheet = _checked_replay(match, records, number, _RESTORING, deleted=False)
    except Refused as err:
        if err.hand == number:
            err.message = _(
                "The deleted hand cannot come back as hand %(num)d: %(reason)s", num=number, reason=err.message
            )
        raise
    _renumber(match, number, 1)
    db.session.add(
        Hand(
            match_id=match.id,
            number=number,
            record=record_to_dict(record),
            created_by_id=user.id,
            updated_by_id=user.id,
        )
    )
    audit.log(match, user, "hand_restored", number, after=record_to_dict(record), restores_id=entry.id)
    _touch(match, sheet)
    db.session.commit()
    db.session.expire(match, ["hands"])
    return number, sheet


def bank(match: Match, user: User) -> MatchState:
    """Bank a finished match: read-only, with its winner; its seats' figures are kept and the
    ratings of its game move on."""
    sheet = _sheet_of_locked(match)
    if sheet.winner is None:
        raise Conflict(_("Only a finished match can be banked: nobody has won yet."))
    audit.log(match, user, "match_banked", before={"status": "open"}, after={"status": "banked"})
    match.status = "banked"
    banked_at = _touch(match, sheet)
    statistics.keep_figures(match, sheet, banked_at)
    ratings.rate_from(game_of(sheet.setup.rules), banked_at)
    db.session.commit()
    return sheet


def end(match: Match, user: User) -> MatchState:
    """End an unfinished match: read-only, without a winner."""
    sheet = _sheet_of_locked(match)
    if sheet.winner is not None:
        winner = sheet.standings[sheet.winner].name
        raise Conflict(
            _("%(team)s have won this match: bank it instead.", team=winner)
            if sheet.setup.rules == TICHU
            else _("%(name)s has won this match: bank it instead.", name=winner)
        )
    audit.log(match, user, "match_ended", before={"status": "open"}, after={"status": "ended"})
    match.status = "ended"
    _touch(match, sheet)
    db.session.commit()
    return sheet


class _NumberTaken(Exception):
    """Another request stored a hand with this number first (the unique constraint said so)."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


def _record_next_hand(match: Match, user: User, record: Record, expected: int | None) -> MatchState:
    """Check `record` as the next hand by replaying the match with it, then store it."""
    _lock(match, load=False)
    current = computed(match)
    number = len(current.sheet.hands) + 1
    trial = _try_next(match, current, record, expected, user)[0]
    sheet = trial.state()
    uid = new_hand_uid()
    limit = match.event_hand_limit  # CLUB.md §1 (read with the locked row on the API's path)
    stored, now = record_to_dict(record), utcnow()
    hand = {"match_id": match.id, "number": number, "uid": uid, "record": stored, "version": 1}
    hand |= {"created_by_id": user.id, "updated_by_id": user.id, "created_at": now, "updated_at": now}
    entries = [audit.row(match, user, "hand_added", number, after=stored, at=now)]
    revision = match.revision + 1
    changes: dict[str, Any] = {"revision": revision, "updated_at": now, "summary": summary_of(sheet)}
    if limit is not None and sheet.winner is None and number >= limit:  # CLUB.md §1: the hand limit
        ended = {"status": "ended", "hand_limit": limit}
        entries.append(audit.row(match, user, "match_ended", before={"status": "open"}, after=ended, at=now))
        changes["status"] = "ended"
    try:
        store_next_hand(match, hand, entries, changes)  # no ORM object: one round trip on PostgreSQL
        if match.event_table_id is not None:  # a club night's table keeps its result (as `_touch`)
            event_tables.keep_result(match)
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise _NumberTaken(number) from None
    return publish(match.id, revision, trial, sheet, current, {number: (1, uid)}).sheet


def _try_next(
    match: Match, current: Computed, record: Record, expected: int | None, user: User | None = None
) -> tuple[Replay, HandResult]:
    """`record` tried as the next hand of `match` after `current` (on a copy of its replay),
    with its result; a wrong `expected` hand number or a finished match is a Conflict (that
    very hand, sent again by `user`, who recorded it: `AlreadyRecorded`)."""
    number = len(current.sheet.hands) + 1
    if expected is not None and expected < number:
        raise _recorded_already(match, user, expected, record)
    if expected is not None and expected > number:
        raise Conflict(_("The next hand is hand %(num)d, not hand %(expected)d.", num=number, expected=expected))
    trial = current.run.copy()
    try:
        result = trial.add(record)
    except Refused as err:
        if err.hand == number and current.sheet.winner is not None:
            raise Conflict(_finished_message(current.sheet.setup, current.sheet)) from None
        raise
    return trial, result


def _recorded_already(match: Match, user: User | None, number: int, record: Record) -> Conflict:
    """The refusal of `record` sent by `user` as hand `number`, which is recorded already:
    `AlreadyRecorded` if it is this very hand, recorded by `user` (the same send again after its
    answer was lost, a double tap), else a Conflict naming who recorded the other one (another
    player's hand alike is shown beside theirs: two Rospisat's in a row can be real)."""
    hand = get_hand(match, number)
    message = _recorded_by(match, number, _author(hand))
    if user is not None and hand.created_by_id == user.id and hand.record == record_to_dict(record):
        return AlreadyRecorded(message, number)
    return Conflict(message)


def _recorded_by(match: Match, number: int, name: str) -> str:
    """Hand (a Tichu round) `number` was recorded already, by `name`."""
    if match.setup["rules"] == TICHU:
        return _("Round %(num)d was already recorded by %(name)s.", num=number, name=name)
    return _("Hand %(num)d was already recorded by %(name)s.", num=number, name=name)


def _lock(match: Match, load: bool = True) -> list[Hand]:
    """Lock the match row (PostgreSQL: writers to one match queue), refuse a closed match,
    and return its hands as they are now (unless `load` is false)."""
    read_locked(match)
    _refuse_closed(match)
    return stored_hands(match) if load else []


def _refuse_closed(match: Match) -> None:
    """Conflict if the match is banked or ended: its sheet can no longer change."""
    if match.status == "banked":
        raise Conflict(_("This match is banked: its sheet can no longer change."))
    if match.status == "ended":
        raise Conflict(_("This match has ended: its sheet can no longer change."))


def _sheet_of_locked(match: Match) -> MatchState:
    """The sheet of an open match, under the match's lock."""
    _lock(match, load=False)
    return computed(match).sheet


def _numbered(hands: Sequence[Hand], number: int, uid: str | None = None) -> Hand:
    """The hand with this number, else 404; if `uid` is given, it must be that hand, else
    Conflict (the sheet changed since the caller saw it: nothing is changed), `HandGone` if
    no hand of the match is that one any more."""
    if uid is not None and (not 1 <= number <= len(hands) or hands[number - 1].uid != uid):
        if all(h.uid != uid for h in hands):
            raise not_that_hand(number, HandGone)
        raise not_that_hand(number)
    if not 1 <= number <= len(hands):
        raise NotFound(_("This match has no hand %(num)d.", num=number))
    return hands[number - 1]


def check_still_the_hand(match: Match, number: int, uid: str) -> None:
    """Conflict (`not_that_hand`) unless the match's hand `number` is still the hand `uid`
    names: a page asked for by a link made before the sheet changed (as `_numbered` refuses
    the change itself)."""
    if uid_of_hand(match, number) != uid:
        raise not_that_hand(number)


def not_that_hand(number: int, refusal: type[Conflict] = Conflict) -> Conflict:
    """The refusal of a change aimed at a hand that no longer has this number (`refusal`:
    `HandGone` when that hand is gone from the match)."""
    return refusal(
        _(
            "Hand %(num)d is no longer the hand you saw: the sheet changed meanwhile. "
            "Nothing was changed: check the sheet and try again.",
            num=number,
        )
    )


def _not_the_newest(match: Match, number: int, after: Hand) -> Conflict:
    """The refusal of an Undo of hand `number` once `after` was recorded after it."""
    name, later = _author(after), after.number
    if match.setup["rules"] == TICHU:
        return Conflict(
            _(
                "Round %(num)d is no longer the newest: %(name)s recorded round %(later)d after it. "
                "Nothing was undone; to delete round %(num)d anyway, tap its number on the sheet.",
                num=number,
                name=name,
                later=later,
            )
        )
    return Conflict(
        _(
            "Hand %(num)d is no longer the newest: %(name)s recorded hand %(later)d after it. "
            "Nothing was undone; to delete hand %(num)d anyway, tap its number on the sheet.",
            num=number,
            name=name,
            later=later,
        )
    )


def _restored_number(entry: AuditEntry, hands: int) -> int:
    """The number a deleted hand comes back as: its old one if the sheet of `hands` hands is
    that long, else the next."""
    return min(entry.hand_number or hands + 1, hands + 1)


_CHANGING = _l("Changing hand %(num)d would break hand %(later)d: %(reason)s")
_DELETING = _l("Deleting hand %(num)d would break hand %(later)d: %(reason)s")
_RESTORING = _l("Restoring hand %(num)d would break hand %(later)d: %(reason)s")


def _checked_replay(match: Match, records: list[Record], number: int, breaks: Any, deleted: bool) -> MatchState:
    """Replay after changing or deleting hand `number`; a refusal of a later hand says so."""
    try:
        return replay(setup_of(match), records)
    except Refused as err:
        if err.hand is not None and (deleted or err.hand != number):
            later = err.hand + 1 if deleted and err.hand >= number else err.hand
            err.message = str(breaks) % {"num": number, "later": later, "reason": err.message}
        raise


def _renumber(match: Match, first: int, by: int) -> None:
    """Add `by` to the number of hand `first` and every later hand (-1 after a delete, +1
    before a restore), each a new version."""
    # Two steps through negative numbers so the unique (match, number) pair never collides.
    later = (Hand.match_id == match.id) & (Hand.number >= first)
    # A moved hand is a new version: a correction aimed at the number it left (a phone's old
    # form, a queued correction) gets a 409 instead of landing on the hand that moved in.
    db.session.execute(db.update(Hand).where(later).values(number=-(Hand.number + by), version=Hand.version + 1))
    db.session.execute(db.update(Hand).where(Hand.match_id == match.id, Hand.number < 0).values(number=-Hand.number))


def _touch(match: Match, sheet: MatchState) -> datetime:
    """Mark a change of the match's hands or status: a new revision (and when it happened),
    the summary of its new sheet and, for a club night's table, its result."""
    match.revision += 1
    match.updated_at = now = utcnow()
    store_summary(match, sheet)
    if match.event_table_id is not None:  # (read with the locked row: no query for an ordinary match)
        event_tables.keep_result(match)
    return now


def _author(hand: Hand, edited: bool = False) -> str:
    """Who recorded (or last changed) a hand, for a conflict message."""
    user = hand.updated_by if edited else hand.created_by
    return user.username if user is not None else _("someone")


def _records(match: Match, hands: Sequence[Hand]) -> list[Record]:
    """The engine's records of these stored hands."""
    rules = match.setup["rules"]
    return [record_from_dict(h.record, rules) for h in hands]


def _finished_message(setup: Setup, sheet: MatchState) -> str:
    """Why no hand can be added to a finished match."""
    assert sheet.winner is not None
    winner = sheet.standings[sheet.winner].name
    if setup.rules == TICHU:
        return _("The match is over: %(team)s have won. Bank it, or correct an earlier round first.", team=winner)
    return _("The match is over: %(name)s has won. Bank it, or correct an earlier hand first.", name=winner)
