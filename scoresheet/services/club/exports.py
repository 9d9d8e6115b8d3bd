"""A club night to take away: its standings as a workbook, and the whole event as a backup
document (settings, directors, roster, rounds, tables with their matches' hands, as a match
backup holds them) that imports back as a new event with the same standings and sheets.

The document (`format` "tysiacha-scoresheet-event", `version` 1) is described in docs/club.md.
Its tables' matches are match backups (`backup.py`, docs/backup.schema.json) and are imported
by that code, checked and replayed first; the rest is checked here. An import stores nothing
it refuses: a refusal after the matches were written takes them away again. A whole-database
backup holds every night in the same form with its keys and creator, its tables naming their
matches by id; `restore_events` writes them back as they were, with the same checks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ...club.errors import MESSAGES, ClubError
from ...club.records import Table, check_table
from ...rules import RuleError
from ...rules.setup import visible
from ...storage import database
from ...storage.extensions import db
from ...storage.models import (
    START_KEY,
    Event,
    EventDirector,
    EventPlayer,
    EventRound,
    EventTable,
    Match,
    User,
    fold,
    isoformat,
)
from ...words import _, pgettext
from ..errors import Conflict, Invalid
from ..matches import backup
from ..matches.links import WATCH_TOKEN
from ..matches.workbook import rows_xlsx
from . import events, results
from .results import club_game
from .serialize import standings_data
from .tables import result_of

FORMAT = "tysiacha-scoresheet-event"
VERSION = 1
EARLIEST, LATEST = datetime(2000, 1, 1, tzinfo=UTC), datetime(2101, 1, 1, tzinfo=UTC)


def standings_xlsx(event: Event) -> bytes:
    """The standings as a workbook: the CSV's columns with headers in the reader's language,
    numbers as numbers."""
    header: list[str | int | float] = [
        _("Place"),
        _("Player"),
        _("Match points"),
        _("Table score"),
        _("Opponents' points"),
        _("Firsts"),
        _("Rounds played"),
        _("Byes"),
    ]
    rows: list[list[str | int | float]] = [header]
    for r in standings_data(event)["standings"]:
        rows.append(
            [
                r["place"],
                r["name"],
                float(r["match_points"]),
                r["table_score"],
                float(r["opponents_points"]),
                r["firsts"],
                r["rounds_played"],
                r["byes"],
            ]
        )
    return rows_xlsx([(pgettext("club night", "Standings"), rows)])


def document(event: Event, whole: bool = False) -> dict[str, Any]:
    """The whole event as a backup document; `whole`: as a whole-database backup holds it (its
    id, codes and creator besides, its tables naming their matches by id: the backup holds the
    matches)."""
    ids = [t.match_id for r in event.seated for t in r.tables if t.match_id is not None]
    matches: dict[str, Any] = {}
    if ids and not whole:
        kept = list(db.session.execute(db.select(Match).where(Match.id.in_(ids))).scalars())
        matches = dict(zip([m.id for m in kept], backup.document(kept)["matches"], strict=True))
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": isoformat(datetime.now(UTC)),
        "event": {
            "name": event.name,
            "game": event.game,
            "rounds": event.rounds,
            "seating": event.seating,
            "hand_limit": event.hand_limit,
            "time_limit": event.time_limit,
            "seed": event.seed,
            "reseats": event.reseats,
            "created_at": isoformat(event.created_at),
        },
        "directors": [d.user.username for d in event.directors],
        "roster": [
            {"name": p.name, "username": p.user.username if p.user else None, "team": p.team, "status": p.status}
            for p in event.roster
        ],
        "rounds": [
            {
                "round": r.number,
                "reseats": r.reseats,
                "repeats": r.repeats,
                "byes": list(r.byes),
                "absent": list(r.absent),
                "seated_at": isoformat(r.seated_at),
                "closed_at": isoformat(r.closed_at) if r.closed_at else None,
                "tables": [_table_document(t, matches, whole) for t in r.tables],
            }
            for r in event.seated
        ],
    }
    if whole:
        creator = db.session.get(User, event.created_by_id) if event.created_by_id is not None else None
        doc["event"] |= {
            "id": event.id,
            "code": event.code,
            "watch_token": event.watch_token,
            "start_key": event.start_key,
            "created_by": creator.username if creator else None,
        }
    return doc


def _table_document(table: EventTable, matches: Mapping[str, Any], whole: bool) -> dict[str, Any]:
    """A table of a night's backup document, with its match (`whole`: the match's id)."""
    found: dict[str, Any] = {
        "table": table.number,
        "players": list(table.players),
        "entered_scores": table.entered_scores,
        "entered_by": table.entered_by,
    }
    if whole:
        found["match_id"] = table.match_id
    else:
        found["match"] = matches.get(table.match_id) if table.match_id else None
    return found


def import_event(user: User, doc: Any) -> Event:
    """A backup document as a NEW event whose director is `user` (and every director of the
    backup who has an account here); its roster's accounts are linked where they exist here,
    else kept as guests of the same name; its tables' matches are imported as new matches of
    `user`'s, or, where `user` imported a table's match before (from a backup of their matches),
    that match is the table's. All or nothing: a night imported before (a table's match is a
    night's table here already) is refused (409), also when the same file is imported twice at
    the same moment."""
    return database.once_more_if_refused(lambda: _import_event(user, doc))


def _import_event(user: User, doc: Any) -> Event:
    """`import_event`, once."""
    night = _Night.of(doc)
    matches = [t["match"] for round_tables in night.tables for t in round_tables if t.get("match") is not None]
    written = backup.write_matches(user, {**_MATCHES, "matches": matches}) if matches else backup.Import([], [])
    imported = iter([i.match for i in written.matches])
    before = backup.imported_here(user, written.imported_before)
    with _settings_at("/event"):
        event = events.new_event(user, night.body())

    def match_of(table: dict[str, Any], where: str) -> Match | None:
        """The table's match: imported now, or imported before from a backup of matches."""
        if table.get("match") is None:
            return None
        here = before.get(str(table["match"].get("id")))
        if here is None:
            return next(imported)
        if here.event_table_id is not None:
            raise Conflict(_("This club night was imported already: nothing was imported again."), f"{where}/match")
        return here

    _fill(event, night, match_of)
    db.session.commit()  # the matches, the event and its rounds at once: a refusal stores none
    return event


def restore_events(nights: list[Any], matches: Mapping[str, Match]) -> None:
    """The club nights of a whole-database backup written as they were (their ids, codes, watch
    links, creators, directors, rosters and rounds, their tables on the restored `matches`),
    each ranked again; not committed. A refusal names its place (/events/0/rounds/1/…)."""
    linked: set[str] = set()
    seen: set[tuple[str, int | None, str]] = set()

    def match_of(table: dict[str, Any], where: str) -> Match | None:
        """The restored match a table names, each named by one table."""
        match_id = table.get("match_id")
        if match_id is None:
            return None
        if not isinstance(match_id, str) or match_id not in matches or match_id in linked:
            raise Invalid(_("A table names a match of this backup, and no other table names it."), f"{where}/match_id")
        linked.add(match_id)
        return matches[match_id]

    for k, doc in enumerate(nights):
        try:
            night = _Night.of(doc)
            with _settings_at("/event"):
                checked = events.checked_settings(night.body())
            creator = _account(night.settings.get("created_by"), "/event/created_by")
            event = Event(
                **checked,
                **_keys(night.settings, creator, seen),
                created_by_id=creator.id if creator else None,
                standings=dict(results.NO_STANDINGS),
            )
            db.session.add(event)
            _fill(event, night, match_of)
        except Invalid as err:
            field = err.field or ""
            raise Invalid(err.message, f"/events/{k}{'' if field.startswith('/') else '/'}{field}") from None


def _keys(settings: dict[str, Any], creator: User | None, seen: set[tuple[str, int | None, str]]) -> dict[str, str]:
    """A restored night's id, code, watch link and start key, each as this app makes them and
    not another night's of the backup (`seen`: those so far; a start key among its creator's)."""
    keys = {}
    for key, (form, optional) in _KEYS.items():
        value = settings.get(key)
        if value is None and optional:
            continue
        if not isinstance(value, str) or not form.fullmatch(value):
            raise Invalid(_("This is not a key this app makes."), f"/event/{key}")
        keys[key] = value
        if key == "start_key" and creator is None:  # (the database's index counts no missing creator)
            continue
        once = (key, creator.id if key == "start_key" and creator else None, value)
        if once in seen:
            raise Invalid(_("Another club night of this backup has this key."), f"/event/{key}")
        seen.add(once)
    return keys


_KEYS = {
    "id": (re.compile(r"[A-Za-z0-9_-]{1,16}"), False),
    "code": (re.compile(r"[A-Z0-9]{1,16}"), False),
    "watch_token": (WATCH_TOKEN, False),
    "start_key": (START_KEY, True),
}
"""A night's keys: the form of each as this app makes it (and its column holds), and whether
it may be missing."""


@dataclass(frozen=True, slots=True)
class _Night:
    """A club night's backup document, its parts checked to be objects and lists."""

    settings: dict[str, Any]
    roster: list[dict[str, Any]]
    directors: list[Any]
    rounds: list[dict[str, Any]]
    tables: list[list[dict[str, Any]]]

    @classmethod
    def of(cls, doc: Any) -> _Night:
        """The parts of a night's backup, or `Invalid` naming the first that is not there."""
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise Invalid(_("This is not a club night's backup (format “%(format)s”).", format=FORMAT), "format")
        if doc.get("version") != VERSION:
            raise Invalid(_("This backup's version is not %(version)s: it cannot be read.", version=VERSION), "version")
        rounds = [_object(r, f"/rounds/{i}") for i, r in enumerate(_list(doc.get("rounds"), "/rounds"))]
        return cls(
            settings=_object(doc.get("event"), "/event"),
            roster=[_object(p, f"/roster/{i}") for i, p in enumerate(_list(doc.get("roster"), "/roster"))],
            directors=_list(doc.get("directors"), "/directors"),
            rounds=rounds,
            tables=[
                [
                    _object(t, f"/rounds/{i}/tables/{j}")
                    for j, t in enumerate(_list(r.get("tables"), f"/rounds/{i}/tables"))
                ]
                for i, r in enumerate(rounds)
            ],
        )

    def body(self) -> dict[str, Any]:
        """The settings a night is made with (`events.checked_settings`' body)."""
        keys = ("name", "game", "rounds", "seating", "hand_limit", "time_limit", "seed")
        return {k: self.settings.get(k) for k in keys}


@contextmanager
def _settings_at(path: str) -> Iterator[None]:
    """A refusal of the night's settings named at their place in the backup (the game's rules
    or options are checked as a match's set-up)."""
    try:
        yield
    except Invalid as err:
        raise Invalid(err.message, f"{path}/{err.field}") from None
    except RuleError as err:
        raise Invalid(err.message, f"{path}/game/{err.field}") from None


def _fill(event: Event, night: _Night, match_of: Callable[[dict[str, Any], str], Match | None]) -> None:
    """The night's reseats, time, roster, directors and rounds on `event` (a table's match is
    `match_of` the table), and its standings ranked."""
    event.reseats = _count(night.settings.get("reseats", 0), "/event/reseats")
    if night.settings.get("created_at") is not None:
        event.created_at = _when(night.settings["created_at"], "/event/created_at")
    names = _roster(event, night.roster)
    for k, username in enumerate(night.directors):
        account = _account(username, f"/directors/{k}")
        if account is not None and not events.is_director(event, account):
            event.directors.append(EventDirector(user_id=account.id))
    for i, (r, round_tables) in enumerate(zip(night.rounds, night.tables, strict=True)):
        event.seated.append(_round(event, i, r, round_tables, names, match_of))
    if len(night.rounds) > event.rounds:
        raise Invalid(_("The backup seats more rounds than its event plans."), "/rounds")
    results.keep_standings(event.id)


_MATCHES = {"format": backup.FORMAT, "version": backup.VERSION}
"""A match backup's head: the tables' matches are imported as one."""


def _roster(event: Event, roster: list[dict[str, Any]]) -> set[str]:
    """The roster's entries, an account linked where one of that username is here."""
    names: set[str] = set()
    for i, p in enumerate(roster):
        name = events.player_name(_text(p.get("name"), f"/roster/{i}/name", events.MAX_NAME), f"/roster/{i}/name")
        if fold(name) in {fold(n) for n in names}:
            raise Invalid(_("%(name)s is on the roster already: give a guest another name.", name=name), "/roster")
        status = p.get("status", "present")
        if status not in events.STATUSES:
            raise Invalid(_("A player's status is “present”, “absent” or “dropped”."), f"/roster/{i}/status")
        team = p.get("team")
        if team is not None:
            if club_game(event) != "tichu":
                raise Invalid(_("Only Tichu is played in teams."), f"/roster/{i}/team")
            team = events.team_as_written(event, _text(team, f"/roster/{i}/team", events.MAX_NAME))
        account = _account(p.get("username"), f"/roster/{i}/username")
        taken = account is not None and any(e.user_id == account.id for e in event.roster)
        user_id = account.id if account is not None and not taken else None
        event.roster.append(EventPlayer(name=name, user_id=user_id, team=team, status=status))
        names.add(name)
    return names


def _round(
    event: Event,
    i: int,
    r: dict[str, Any],
    tables: list[dict[str, Any]],
    names: set[str],
    match_of: Callable[[dict[str, Any], str], Match | None],
) -> EventRound:
    """A round of the backup, each table linked to its match (`match_of` the table and its
    place) with the match's result kept (`tables.keep_result`'s)."""
    at = f"/rounds/{i}"
    if r.get("round") != i + 1:
        raise Invalid(_("The rounds are numbered 1, 2, 3… in order."), f"{at}/round")
    byes = _names(r.get("byes"), f"{at}/byes", names)
    absent = _names(r.get("absent", []), f"{at}/absent", names)  # (a backup made before: none)
    placed = set(byes)  # each player once in a round: at one table, on a bye, or absent
    if placed & set(absent):
        raise Invalid(_("A table or a bye names only players of the roster, each once."), f"{at}/absent")
    placed |= set(absent)
    round_ = EventRound(
        number=i + 1,
        reseats=_count(r.get("reseats", 0), f"{at}/reseats"),
        repeats=_count(r.get("repeats", 0), f"{at}/repeats"),
        byes=byes,
        absent=absent,
        seated_at=_when(r.get("seated_at"), f"{at}/seated_at"),
        closed_at=_when(r["closed_at"], f"{at}/closed_at") if r.get("closed_at") is not None else None,
    )
    for j, t in enumerate(tables):
        where = f"{at}/tables/{j}"
        if t.get("table") != j + 1:
            raise Invalid(_("The tables of a round are numbered 1, 2, 3… in order."), f"{where}/table")
        players = _names(t.get("players"), f"{where}/players", names)
        if placed & set(players):
            raise Invalid(_("A table or a bye names only players of the roster, each once."), f"{where}/players")
        placed |= set(players)
        scores = t.get("entered_scores")
        if scores is not None and (
            not isinstance(scores, list) or not all(events.is_int(s) and abs(s) <= events.MOST_SCORE for s in scores)
        ):
            raise Invalid(_("Scores are a list of whole numbers, in seat order."), f"{where}/entered_scores")
        try:  # a table of the game's size (a Tichu table seats four), its scores one a seat or team
            check_table(
                Table(players=tuple(players), scores=None if scores is None else tuple(scores)), club_game(event)
            )
        except ClubError as err:
            field = "entered_scores" if err.field == "scores" else "players"
            raise Invalid(_(MESSAGES[err.code]).format(**err.params), f"{where}/{field}") from None
        entered_by = t.get("entered_by")
        imported = match_of(t, where)
        if imported is not None and len(imported.setup["players"]) != len(players):
            raise Invalid(_("A table's match has a seat for every player at the table."), f"{where}/match")
        round_.tables.append(
            EventTable(
                number=j + 1,
                players=players,
                match_id=imported.id if imported is not None else None,
                match_result=result_of(imported.status, imported.summary) if imported and imported.summary else None,
                entered_scores=scores,
                entered_by=_text(entered_by, f"{where}/entered_by", events.MAX_NAME) if entered_by else None,
            )
        )
    return round_


def _account(username: object, field: str) -> User | None:
    """The account of this username here, if there is one (None: a guest); not a text → 422."""
    if username is None:
        return None
    if not isinstance(username, str):
        raise Invalid(_("The username must be text."), field)
    try:
        return events.account(username)
    except Invalid:
        return None


def _object(value: object, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise Invalid(_("This part of the backup must be an object."), field)
    return value


def _list(value: object, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise Invalid(_("This part of the backup must be a list."), field)
    return value


def _names(value: object, field: str, roster: set[str]) -> list[str]:
    """Names of the roster, as a table's players or a round's byes."""
    names = _list(value, field)
    if not all(isinstance(n, str) and n in roster for n in names) or len(set(names)) != len(names):
        raise Invalid(_("A table or a bye names only players of the roster, each once."), field)
    return names


def _text(value: object, field: str, most: int) -> str:
    """A name as the backup holds it (kept as written: the tables' players name it so)."""
    if not isinstance(value, str) or not visible(value):
        raise Invalid(_("Give a name."), field)
    if len(value) > most:
        raise Invalid(_("A name has at most %(n)d characters.", n=most), field)
    return events.printable(value, field)


def _count(value: object, field: str) -> int:
    if not events.is_int(value) or not 0 <= value < 2**31:  # type: ignore[operator]
        raise Invalid(_("Give a whole number from %(least)d to %(most)d.", least=0, most=2**31 - 1), field)
    return value  # type: ignore[return-value]


def _when(value: object, field: str) -> datetime:
    """A time of the backup (ISO 8601, 2000 to 2100; without a zone, UTC)."""
    try:
        when = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        when = None
    if when is not None and when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    if when is None or not EARLIEST <= when < LATEST:
        raise Invalid(_("A time in the backup is not a time from 2000 to 2100."), field)
    return when
