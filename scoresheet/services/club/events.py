"""The commands and queries of a club night (CLUB.md §1, §4), each command one transaction.

make_event, add_rounds, add_director, join (event_by_code), add_to_roster, change_roster, seat_round,
unseat_round, reseat_round, close_round, enter_result — and get_event, event_for_member, get_round.
Refusals: `NotFound` (not a member, 404), `Forbidden` (a member, not a director, 403),
`Conflict` (409), `Invalid` (a value out of range, 422 with its field); the engine's
`ClubError` (422) for a seating it cannot make. Every table of a seated round is an ordinary
match (`commands.create_table_match`), with the event's game and options.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from typing import Any

from sqlalchemy import bindparam
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import joinedload

from ...club import seat_round as seat_players
from ...club.records import Table, check_table
from ...rules import RuleError, check_setup, setup_from_dict
from ...rules.figures import game_of
from ...rules.house import check_new_match
from ...rules.setup import check_name, new_name_key, visible
from ...storage.database import made_once, read_locked_in_order
from ...storage.extensions import db
from ...storage.models import (
    Event,
    EventDirector,
    EventPlayer,
    EventRound,
    EventTable,
    Match,
    Member,
    User,
    fold,
    look_alike_key,
    lookup_name,
    utcnow,
)
from ...words import _, _l, values
from ..accounts import look_alike_refusal
from ..errors import Conflict, Forbidden, Invalid, NotFound
from ..matches import commands, seats
from ..matches.links import WATCH_TOKEN, normal_code
from .results import NO_STANDINGS, club_game, engine_rounds, keep_standings, standings_later, table_result

MOST_ROUNDS = 20
"""Rounds an event plans at most (CLUB.md §1)."""
HAND_LIMITS = (1, 60)
"""A hand limit's least and most (CLUB.md §1)."""
TIME_LIMITS = (10, 240)
"""A time limit's least and most minutes (CLUB.md §1)."""
BOUNDS = {"rounds": (1, MOST_ROUNDS), "hand_limit": HAND_LIMITS, "time_limit": TIME_LIMITS}
"""A night's numbers, each its least and most."""
MAX_EVENT_NAME = 80
MAX_NAME = 40
"""A roster name's most characters: a seat's name (RULES.md)."""
STATUSES = ("present", "absent", "dropped")
"""A roster entry's status (CLUB.md §1)."""
SEATINGS = ("fours", "byes")
SEED_BITS = 62
"""A drawn seed fits a signed 64-bit column."""
MOST_SCORE = 10**6 - 1
"""The largest score a paper result gives a table's player or team (and the lowest, negative)."""
_PLACEHOLDERS = ("A", "B", "C", "D")
"""Names a set-up is checked with when the event is made (no table is seated yet)."""


def make_event(user: User, body: Mapping[str, Any], start_key: str | None = None) -> Event:
    """A new event, made by `user`, its director (not a player unless added to the roster).
    `start_key`: see `make_event_once`."""
    event = new_event(user, body)
    event.start_key = start_key
    db.session.commit()
    return event


def make_event_once(user: User, body: Mapping[str, Any], start_key: str | None) -> tuple[Event, bool]:
    """`make_event` from the page's form, once per form, as a match is started
    (`commands.start_match`): the form sent again with other settings (corrected after the
    answer was lost) makes a night of its own. The event, and whether it was made now."""
    settings = _settings(body)
    return made_once(
        Event,
        user.id,
        start_key,
        lambda key: make_event(user, body, key),
        lambda event: _settings_of(event) == settings,
    )


def new_event(user: User, body: Mapping[str, Any]) -> Event:
    """`make_event`'s event, checked and added to the session, not committed (an import commits
    it with the rest)."""
    event = Event(**checked_settings(body), created_by_id=user.id, standings=dict(NO_STANDINGS))
    event.directors.append(EventDirector(user_id=user.id))
    db.session.add(event)
    db.session.flush()  # its id, drawn when it is written
    return event


def checked_settings(body: Mapping[str, Any]) -> dict[str, Any]:
    """A night's settings and its seed (drawn if the body gives none), each checked (`Invalid`
    naming it)."""
    settings = _settings(body)
    seed = body.get("seed")
    if seed is None:
        seed = secrets.randbits(SEED_BITS)
    elif not is_int(seed) or abs(seed) >= 2**63:
        raise Invalid(_("The seed is a whole number."), "seed")
    return settings | {"seed": seed}


_SETTINGS = ("name", "game", "rounds", "seating", "hand_limit", "time_limit")
"""What a night is made with (CLUB.md §1), besides its seed."""


def _settings(body: Mapping[str, Any]) -> dict[str, Any]:
    """A new night's settings from the request's body, each checked (`Invalid` naming it)."""
    name = _text(body.get("name"), "name", MAX_EVENT_NAME)
    game = _game(body.get("game"))
    seating = body.get("seating", "fours")
    if seating not in SEATINGS:
        raise Invalid(_("Seating is “fours” or “byes”."), "seating")
    return {
        "name": name,
        "game": game,
        "rounds": _rounds(body.get("rounds", 1)),
        "seating": seating,
        "hand_limit": _limit(body.get("hand_limit"), "hand_limit"),
        "time_limit": _limit(body.get("time_limit"), "time_limit"),
    }


def _settings_of(event: Event) -> dict[str, Any]:
    """The settings a night was made with (`_settings`' form)."""
    return {key: getattr(event, key) for key in _SETTINGS}


_WITH_DIRECTORS = db.select(Event).options(joinedload(Event.directors)).where(Event.id == bindparam("event_id"))
"""An event and its directors in one query, the statement built once (not on every call)."""


def event_for_member(event_id: str, user: User) -> Event:
    """The event if the user is one of its directors or on its roster; else 404 (CLUB.md §6).
    Its directors come with it, in the same query: every call asks who they are."""
    event: Event | None = db.session.execute(_WITH_DIRECTORS, {"event_id": event_id}).unique().scalar_one_or_none()
    if event is None or not (is_director(event, user) or any(p.user_id == user.id for p in event.roster)):
        raise NotFound(_("There is no such event."))
    return event


def event_for_director(event_id: str, user: User) -> Event:
    """The event if the user directs it; a member who does not: 403; anyone else: 404."""
    event = event_for_member(event_id, user)
    if not is_director(event, user):
        raise Forbidden(_("Only a director of the event can change it."))
    return event


def event_by_watch_token(token: str) -> Event | None:
    """The event whose board this watch link shows, or None (never a query for what no token
    looks like: PostgreSQL answers a NUL byte with an error, not a miss)."""
    if not WATCH_TOKEN.fullmatch(token):
        return None
    found: Event | None = db.session.execute(db.select(Event).where(Event.watch_token == token)).scalar_one_or_none()
    return found


def add_rounds(event: Event, rounds: object) -> Event:
    """Plan more rounds (never fewer than planned, CLUB.md §1)."""
    wanted = _rounds(rounds)
    if wanted < event.rounds:
        raise Invalid(_("An event can add rounds, not take them away: it plans %(n)d.", n=event.rounds), "rounds")
    event.rounds = wanted
    db.session.commit()
    return event


def add_director(event: Event, username: object) -> User:
    """Make an account a co-director of the event (the same rights as its maker): a member of
    every table's match seated so far too, as the directors of a round are when it is seated,
    so that they correct any of them (CLUB.md §1, §4)."""
    user = account(username)
    if not is_director(event, user):
        event.directors.append(EventDirector(user_id=user.id))
        ids = [t.match_id for r in event.seated for t in r.tables if t.match_id is not None]
        for match in db.session.execute(db.select(Match).where(Match.id.in_(ids))).scalars() if ids else ():
            if not any(m.user_id == user.id for m in match.members):
                match.members.append(Member(user_id=user.id))
        db.session.commit()
    return user


def join(user: User, code: object, team: object = None, name: str | None = None) -> Event:
    """The caller joins the roster of the event with this code (again: nothing changes); with
    `name`, as that guest of the roster, whose seats become theirs (CLUB.md §1)."""
    event = event_by_code(code)
    if name is not None:  # a name no guest can have is refused as such, not looked up
        claim_guest(event, _text(name, "name", MAX_NAME), user, user)
    elif not any(p.user_id == user.id for p in event.roster):
        _no_guest_named(event, user, "name")
        _enter(event, user.username, user, team)
    return event


def _no_guest_named(event: Event, user: User, field: str) -> None:
    """409 on `field` if a guest of the roster has the account's name: the player checks in as
    that guest (their tables become the account's), never beside it as a second of one name."""
    guest = next(
        (p for p in event.roster if p.user_id is None and new_name_key(p.name) == new_name_key(user.username)), None
    )
    if guest is not None:
        message = _("%(name)s is on the roster as a guest: that player checks in under that name.", name=guest.name)
        raise Conflict(message, field)


def event_by_code(code: object) -> Event:
    """The event players check in to with this code (case, spaces and dashes ignored, as a
    match's join code), else 404."""
    normal = normal_code(code) if isinstance(code, str) else None
    event: Event | None = (
        db.session.execute(db.select(Event).where(Event.code == normal)).scalar_one_or_none() if normal else None
    )
    if event is None:
        raise NotFound(_("No club night has that code: check it with the director."))
    return event


def claim_guest(event: Event, name: str, user: User, by: User) -> EventPlayer:
    """A guest of the roster becomes an account's (its own player joining, or a director giving
    it): the account plays under the guest's name, and takes the guest's seat at every table
    seated so far, as a seat is claimed in a match (a banked table's ratings follow). One
    transaction: the entry and every seat, or nothing if a seat is refused."""
    entry = _entry(event, name)
    if entry.user_id == user.id:
        return entry
    if entry.user_id is not None:
        raise Conflict(_("%(name)s is an account's already.", name=entry.name), "name")
    if any(p.user_id == user.id for p in event.roster):
        raise Conflict(_("%(name)s is on the roster already.", name=user.username), "username")
    entry.user_id = user.id
    taken = _seats_of(event, entry.name)
    read_locked_in_order(m.id for m, _seat in taken)  # every table first, then any table's ratings
    try:
        for match, seat in taken:
            if not any(m.user_id == user.id for m in match.members):
                match.members.append(Member(user_id=user.id))
            creator = db.session.get(User, match.created_by_id) if match.created_by_id is not None else None
            seats.assign_seat(match, creator or by, user, seat)  # a seat another account holds: Conflict
        db.session.commit()
    except IntegrityError:  # another phone claimed a seat, or joined the match, at the same moment
        db.session.rollback()
        raise seats.claimed_meanwhile() from None
    return entry


def _seats_of(event: Event, name: str) -> list[tuple[Match, int]]:
    """Each match of the tables seated so far where `name` sits, with their seat (the matches
    read in one query)."""
    seats_by_match = {
        t.match_id: t.players.index(name)
        for round_ in event.seated
        for t in round_.tables
        if t.match_id is not None and name in t.players
    }
    if not seats_by_match:
        return []
    found = {m.id: m for m in db.session.execute(db.select(Match).where(Match.id.in_(seats_by_match))).scalars()}
    return [(found[match_id], seat) for match_id, seat in seats_by_match.items() if match_id in found]


def add_to_roster(event: Event, username: object = None, guest: object = None, team: object = None) -> EventPlayer:
    """Put an account (by username) or a guest name on the roster (CLUB.md §1)."""
    if (username is None) == (guest is None):
        raise Invalid(_("Add a player by “username” or by “guest”, one of them."), "username")
    if username is not None:
        user = account(username)
        if any(p.user_id == user.id for p in event.roster):
            raise Conflict(_("%(name)s is on the roster already.", name=user.username), "username")
        _no_guest_named(event, user, "username")
        return _enter(event, user.username, user, team)
    return _enter(event, _one_alphabet(player_name(_text(guest, "guest", MAX_NAME), "guest"), "guest"), None, team)


def _one_alphabet(name: str, field: str) -> str:
    """`name`, unless it mixes look-alike letters of two alphabets
    (`accounts.look_alike_refusal`); else 422 on `field`."""
    refusal = look_alike_refusal(name)
    if refusal is not None:
        raise Invalid(refusal, field)
    return name


def change_roster(event: Event, name: str, body: Mapping[str, Any], by: User) -> EventPlayer:
    """Mark a roster entry present, absent or dropped, give it a Tichu team, or give the guest
    to an account (`username`), as the director `by`: one change, nothing stored if any part of
    it is refused."""
    entry = _entry(event, name)
    if not body or set(body) - {"status", "team", "username"}:
        raise Invalid(_("Change a roster entry's “status”, “team” or “username”."), "status")
    if "status" in body:
        if body["status"] not in STATUSES:
            raise Invalid(_("A player's status is “present”, “absent” or “dropped”."), "status")
        entry.status = body["status"]
    if "team" in body:
        entry.team = _team(event, body["team"], entry)
    _check_partners(event, entry)  # a team given, or a dropped player back: never three
    if "username" in body:
        claim_guest(event, name, account(body["username"]), by)  # (the status and team go with it)
    db.session.commit()
    return entry


def seat_round(event: Event, user: User) -> EventRound:
    """Seat the next round (CLUB.md §3): the present players, by the standings so far; every
    table an ordinary match. 409 while a table of the current round has no result, or when
    every planned round is seated; 422 (`roster`) with too few present players."""
    _lock(event)
    seated = list(event.seated)
    if seated and any(table_result(t) is None for t in seated[-1].tables):
        raise Conflict(_("Every table of round %(r)d needs its result first.", r=seated[-1].number))
    if len(seated) >= event.rounds:
        raise Conflict(_("All %(n)d planned rounds are seated: add a round first.", n=event.rounds))
    present = [p for p in event.roster if p.status == "present"]
    absent = [p for p in event.roster if p.status == "absent"]
    teams = {p.name: p.team for p in present if p.team is not None}
    seating = seat_players(
        [p.name for p in present],
        engine_rounds(event),
        game=club_game(event),
        seating="byes" if event.seating == "byes" else "fours",
        seed=event.seed,
        reseat=event.reseats,
        teams=teams,
    )
    number = len(seated) + 1
    round_ = EventRound(
        number=number,
        reseats=event.reseats,
        repeats=seating.repeats,
        byes=list(seating.byes),
        absent=[p.name for p in absent],
    )
    event.seated.append(round_)
    for entry in absent:  # absent for this round only (CLUB.md §1): seated again from the next
        entry.status = "present"
    event.reseats = 0
    accounts = {p.name: p.user_id for p in event.roster if p.user_id is not None}
    directors = [d.user_id for d in event.directors]
    try:
        db.session.flush()
        for t, players in enumerate(seating.tables, start=1):
            setup = setup_from_dict({"players": list(players), **event.game})
            claimed = {seat: accounts[name] for seat, name in enumerate(players) if name in accounts}
            match = commands.create_table_match(user, setup, [*claimed.values(), *directors], claimed)
            round_.tables.append(EventTable(number=t, players=list(players), match_id=match.id))
        keep_standings(event.id)  # its byes count at once, and the lot is drawn for one round more
        db.session.commit()
    except IntegrityError:  # another director seated this round at the same moment (SQLite)
        db.session.rollback()
        raise Conflict(_("Round %(r)d was seated meanwhile: look again.", r=number)) from None
    return round_


def get_round(event: Event, number: int) -> EventRound:
    """The event's round with this number, else 404."""
    for round_ in event.seated:
        if round_.number == number:
            return round_
    raise NotFound(_("This event has no round %(r)d.", r=number))


def unseat_round(event: Event, number: int) -> None:
    """Take the current round back before any hand, to seat it again (CLUB.md §3: a re-seat
    draws again); its tables' matches go with it."""
    _unseat(event, number)
    db.session.commit()


PLAYED = _l("A table of this round has played: it can no longer be seated again or taken back.")
"""Why a round is neither seated again nor taken back (CLUB.md §3: only before any hand)."""


def round_played(round_: EventRound) -> bool:
    """A table of the round has a hand, or a result entered from paper (played there)."""
    return any(t.entered_scores is not None for t in round_.tables) or any(m.hands for m in _matches(round_))


def _matches(round_: EventRound) -> list[Match]:
    """The round's tables' matches (from the session's identity map once read)."""
    found = (db.session.get(Match, t.match_id) for t in round_.tables if t.match_id is not None)
    return [m for m in found if m is not None]


def reseat_round(event: Event, number: int, user: User) -> EventRound:
    """Take the current round back and seat it again (a new draw) in one transaction: a round
    that cannot be seated (too few present players now) stays as it was."""
    _unseat(event, number)
    return seat_round(event, user)


def _unseat(event: Event, number: int) -> None:
    """`unseat_round`'s change, not committed."""
    # The round's matches before the night: a hand locks its match and then the night (its
    # standings), and no hand can land in a match between the check that it has none and its
    # deletion.
    read_locked_in_order(t.match_id for t in get_round(event, number).tables if t.match_id is not None)
    _lock(event)
    round_ = get_round(event, number)
    if number != len(event.seated):
        raise Conflict(_("Only the current round can be seated again."))
    if round_played(round_):
        raise Conflict(str(PLAYED))
    matches = _matches(round_)
    event.reseats = round_.reseats + 1
    for entry in event.roster:  # absent for the round again, unless marked otherwise since
        if entry.name in round_.absent and entry.status == "present":
            entry.status = "absent"
    event.seated.remove(round_)
    for match in matches:
        db.session.delete(match)
    keep_standings(event.id)


def close_round(event: Event, number: int, user: User) -> EventRound:
    """Every unfinished table of the round ends where it stands (CLUB.md §4)."""
    round_ = get_round(event, number)
    with standings_later():  # ranked once, not once a table ended
        for table in round_.tables:
            match = db.session.get(Match, table.match_id) if table.match_id is not None else None
            if match is not None and table_result(table) is None:  # a won match stays open, to be banked
                commands.end_at(match, user)
    round_.closed_at = utcnow()
    db.session.commit()
    return round_


def enter_result(event: Event, number: int, table_number: int, scores: object, user: User) -> EventTable:
    """A table kept paper: its final scores (seat order; Tichu per team) are its result, and its
    match ends, its history saying who entered them (CLUB.md §4)."""
    round_ = get_round(event, number)
    table = next((t for t in round_.tables if t.number == table_number), None)
    if table is None:
        raise NotFound(_("Round %(r)d has no table %(t)d.", r=number, t=table_number))
    if not isinstance(scores, list) or not all(is_int(s) for s in scores):
        raise Invalid(_("Scores are a list of whole numbers, in seat order."), "scores")
    if any(abs(s) > MOST_SCORE for s in scores):
        raise Invalid(
            _("A score is at most %(most)s and at least −%(most)s.", most=values.number(MOST_SCORE)), "scores"
        )
    check_table(Table(players=tuple(table.players), scores=tuple(scores)), club_game(event))
    with standings_later():  # ranked once, with the scores entered
        table.entered_scores = list(scores)
        table.entered_by = user.username
        match = db.session.get(Match, table.match_id) if table.match_id is not None else None
        if match is not None:
            commands.end_at(match, user, {"scores": list(scores), "entered_by": user.username})
        keep_standings(event.id)
    db.session.commit()
    return table


def _lock(event: Event) -> None:
    """Read the event's row afresh, locked (PostgreSQL) until the transaction ends: two
    directors seating at one moment seat one round."""
    db.session.execute(
        db.select(Event).where(Event.id == event.id).with_for_update().execution_options(populate_existing=True)
    ).scalar_one()


def _enter(event: Event, name: str, user: User | None, team: object) -> EventPlayer:
    """A new roster entry (409 if the name is taken; a guest's also if it looks like one on
    the roster: “Норе”, all Cyrillic, beside Hope)."""
    if any(new_name_key(p.name) == new_name_key(name) for p in event.roster):  # case and fillers ignored
        raise Conflict(_("%(name)s is on the roster already: give a guest another name.", name=name), "guest")
    looks = look_alike_key(name)
    twin = None if user is not None else next((p for p in event.roster if look_alike_key(p.name) == looks), None)
    if twin is not None:  # an account's name is its own; a guest's may not pass for another's
        raise Conflict(
            _(
                "“%(name)s” looks just like %(other)s, who is on the roster: give a guest another name.",
                name=name,
                other=twin.name,
            ),
            "guest",
        )
    entry = EventPlayer(name=name, user_id=user.id if user else None, team=_team(event, team), status="present")
    _check_partners(event, entry)
    event.roster.append(entry)
    try:
        keep_standings(event.id)  # a row more, at the foot
        db.session.commit()
    except IntegrityError:  # the same name at the same moment
        db.session.rollback()
        raise Conflict(_("%(name)s is on the roster already: give a guest another name.", name=name), "guest") from None
    return entry


def _entry(event: Event, name: str) -> EventPlayer:
    """The roster entry of this name, else 404."""
    for entry in event.roster:
        if fold(entry.name) == fold(name):
            return entry
    raise NotFound(_("%(name)s is not on the roster.", name=name))


def _team(event: Event, team: object, entry: EventPlayer | None = None) -> str | None:
    """A Tichu team's name for `entry` (None: a new entry), checked (None: no team; Tysiacha
    has none), spelt as the roster spells it (`team_as_written`). 409 if `entry` has played in
    another team (teams are fixed for the event, CLUB.md §3); its partners are counted by
    `_check_partners`."""
    if team is not None and club_game(event) != "tichu":
        raise Invalid(_("Only Tichu is played in teams."), "team")
    name = team_as_written(event, _one_alphabet(_text(team, "team", MAX_NAME), "team")) if team is not None else None
    if entry is not None and entry.team not in (None, name) and _has_played(event, entry.name):
        raise Conflict(
            _("Teams are fixed once a round is seated: %(name)s plays for %(team)s.", name=entry.name, team=entry.team),
            "team",
        )
    return name


def _check_partners(event: Event, entry: EventPlayer) -> None:
    """422 if `entry`, playing (not dropped) in a team, would be its third such player."""
    if entry.team is None or entry.status == "dropped":
        return
    partners = [p for p in event.roster if p is not entry and p.team == entry.team and p.status != "dropped"]
    if len(partners) >= 2:
        raise Invalid(_("The team “%(team)s” has two players already.", team=entry.team), "team")


def team_as_written(event: Event, team: str) -> str:
    """A team's name as the roster first wrote it, compared as names are (case and invisible
    characters ignored): "reds" and "Reds" with a filler after it join the Reds."""
    key = new_name_key(team)
    return next((p.team for p in event.roster if p.team is not None and new_name_key(p.team) == key), team)


def _has_played(event: Event, name: str) -> bool:
    """The roster entry of `name` was seated in a round so far: at a table or on a bye."""
    return any(name in r.byes or any(name in t.players for t in r.tables) for r in event.seated)


def account(username: object) -> User:
    """The account of this username, else 422 on `username`."""
    folded = lookup_name(username)  # None for what no username can be (a NUL byte is looked up nowhere)
    user: User | None = (
        db.session.execute(db.select(User).where(User.username_folded == folded)).scalar_one_or_none()
        if folded is not None
        else None
    )
    if user is None:
        raise Invalid(_("There is no account of that username."), "username")
    return user


def is_director(event: Event, user: User) -> bool:
    """The user directs the event (its maker or a co-director)."""
    return any(d.user_id == user.id for d in event.directors)


def matches_of(event: Event, user: User) -> set[str]:
    """The ids of the event's table matches the user is a member of (their pages open), in one
    query: not every round's tables read first (the night's page asks on every change)."""
    found = db.session.execute(_TABLE_MATCHES_OF, {"event_id": event.id, "user_id": user.id})
    return set(found.scalars())


_TABLE_MATCHES_OF = (
    db.select(Member.match_id)
    .join(EventTable, EventTable.match_id == Member.match_id)
    .join(EventRound, EventRound.id == EventTable.round_id)
    .where(EventRound.event_id == bindparam("event_id"), Member.user_id == bindparam("user_id"))
)
"""The query of `matches_of`, built once."""


def is_int(value: object) -> bool:
    """A whole number as JSON sends it (not `true`, which Python counts as 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: object, field: str, most: int) -> str:
    """A name: text of 1 to `most` characters, one of them at least visible, spaces trimmed and
    a run of them inside made one (a page shows "Ann  Lee" as "Ann Lee": the roster would seem
    to hold one name twice)."""
    if not isinstance(value, str) or not visible(value):
        raise Invalid(_("Give a name."), field)
    name = _SPACES.sub(" ", value.strip())
    if len(name) > most:
        raise Invalid(_("A name has at most %(n)d characters.", n=most), field)
    return printable(name, field)


_SPACES = re.compile(" {2,}")
"""A run of spaces inside a name, made one."""


def player_name(name: str, field: str) -> str:
    """`name` if the engine takes it as a player's (a roster name is one at its tables:
    `rules.setup.check_name`) and a link can name it (not dots alone: "." and ".." are no place
    in a path), else 422 on `field`."""
    try:
        check_name(name)
    except RuleError as err:
        raise Invalid(err.message, field) from None
    if not name.strip("."):
        raise Invalid(_("Give a name with a letter or a digit in it."), field)
    return name


def printable(name: str, field: str) -> str:
    """`name`, if it holds no control character (a NUL byte among them, which PostgreSQL
    refuses to store); else 422 on `field`."""
    if not name.isprintable():
        raise Invalid(_("Names cannot hold control or invisible characters."), field)
    return name


def bounds_refusal(field: str) -> str:
    """Why a night's `rounds`, `hand_limit` or `time_limit` is refused: its bounds (`BOUNDS`)."""
    least, most = BOUNDS[field]
    if field == "rounds":
        return _("An event plans 1 to %(n)d rounds.", n=most)
    return _("Give a whole number from %(least)d to %(most)d.", least=least, most=most)


def _rounds(value: object) -> int:
    if not within(value, "rounds"):
        raise Invalid(bounds_refusal("rounds"), "rounds")
    return value  # type: ignore[return-value]


def _limit(value: object, field: str) -> int | None:
    if value is None:
        return None
    if not within(value, field):
        raise Invalid(bounds_refusal(field), field)
    return value  # type: ignore[return-value]


def within(value: object, field: str) -> bool:
    """`value` is a whole number inside `field`'s `BOUNDS`."""
    least, most = BOUNDS[field]
    return is_int(value) and least <= value <= most  # type: ignore[operator]


def _game(value: object) -> dict[str, Any]:
    """The event's game: a ruleset and its options, checked as a match's set-up would be."""
    if not isinstance(value, Mapping) or set(value) - {"rules", "options"}:
        raise Invalid(_("The game is an object with “rules” and “options”."), "game")
    game = {"rules": value.get("rules", "squarescores"), "options": value.get("options", {})}
    rules = game["rules"]
    players = list(_PLACEHOLDERS if isinstance(rules, str) and game_of(rules) == "tichu" else _PLACEHOLDERS[:3])
    setup = setup_from_dict({"players": players, **game})
    check_setup(setup)
    check_new_match(setup)
    return game
