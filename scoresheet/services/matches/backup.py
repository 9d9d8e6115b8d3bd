"""Backups: matches as a versioned JSON document, imported back as new matches, and the
matches and users of a whole-database backup restored as they were (`services/database_backup.py`
writes the rest of it: club nights, and what is computed from the seats).

The document is described by `backup.schema.json` (published as docs/backup.schema.json). An
import checks it against that schema, then what a schema cannot say (`check_document`), and
replays the hands through the engine before anything is stored: a backup that any of these
refuses stores nothing, and nothing an import stores can break a later read or backup.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from typing import Any, NamedTuple

import jsonschema_rs
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from sqlalchemy import func

from ...config import LANGUAGES
from ...rules import (
    Malformed,
    MatchState,
    Record,
    Refused,
    RuleError,
    Setup,
    check_setup,
    record_from_dict,
    record_to_dict,
    replay,
    setup_from_dict,
)
from ...rules import setup_to_dict as setup_dict
from ...rules.house import as_created, usual_rules_of
from ...storage import database
from ...storage.extensions import db
from ...storage.models import (
    AuditEntry,
    Event,
    Hand,
    Match,
    Member,
    Seat,
    SeatFigure,
    User,
    fold,
    isoformat,
    new_join_code,
    new_match_id,
    utcnow,
)
from ...words import _, _l
from ...words.values import one_of
from ..errors import Conflict
from ..players import statistics
from . import audit, queries
from .queries import stored_hands
from .replay_cache import summary_of
from .serialize import entry_to_dict

FORMAT = "tysiacha-scoresheet"
VERSION = 1
HAND_ACTIONS = frozenset({"hand_added", "hand_edited", "hand_deleted", "hand_restored"})
SCHEMA = json.loads(resources.files(__package__).joinpath("backup.schema.json").read_text("utf-8"))
VALIDATOR = Draft202012Validator(SCHEMA)
FAST_VALIDATOR = jsonschema_rs.validator_for(SCHEMA, validate_formats=False)
MAX_DEPTH = 10
"""No backup of this app nests deeper (document, matches, match, audit, entry, after, setup,
options…); a deeper one is refused before the schema is checked (no recursion runs out)."""
LARGEST = 2**31 - 1
"""Every number in a backup fits PostgreSQL's integer column (but a club night's seed)."""
LARGEST_SEED = 2**63 - 1
"""A club night's seed (a whole-database backup's `/events/<n>/event/seed`) fits its bigint."""
MAX_VERSION = 10**6
"""The highest hand version a restore keeps: over two thousand million changes below
`LARGEST` (a hand's version grows by one per change)."""
REVISIONS_SKIPPED = 10_000
"""A restored match's revision is the backed-up one and this many more: a phone that followed
the match before the restore (on a sheet with changes made after the backup, too) sees a newer
version and fetches the restored sheet, whose hands have new uids; no process keeps a replay
of that revision."""
EARLIEST, LATEST = datetime(2000, 1, 1, tzinfo=UTC), datetime(2101, 1, 1, tzinfo=UTC)
"""Times in a backup are from 2000 to 2100 (UTC): PostgreSQL cannot store year 10000."""


def document(matches: list[Match]) -> dict[str, Any]:
    """The backup document of these matches."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": utcnow().isoformat(),
        "matches": [_match_document(m) for m in matches],
    }


def _match_document(match: Match) -> dict[str, Any]:
    """One match: set-up, status, members, hands exactly as recorded, and its audit trail."""
    players = list(match.setup["players"])
    return {
        "id": match.id,
        "join_code": match.join_code,
        "setup": match.setup,
        "status": match.status,
        "created_at": isoformat(match.created_at),
        "created_by": _username(match.created_by_id),
        "members": queries.member_names(match),
        "hands": [
            {
                "number": h.number,
                "record": h.record,
                "version": h.version,
                "created_by": h.created_by.username if h.created_by else None,
                "updated_by": h.updated_by.username if h.updated_by else None,
                "created_at": isoformat(h.created_at),
                "updated_at": isoformat(h.updated_at),
            }
            for h in stored_hands(match)
        ],
        "audit": [entry_to_dict(e, players) for e in reversed(audit.entries(match))],
    }


def _username(user_id: int | None) -> str | None:
    """The name of an account, if there is one."""
    user = db.session.get(User, user_id) if user_id is not None else None
    return user.username if user else None


class Imported(NamedTuple):
    """A match an import made, with its sheet as the import replayed it."""

    match: Match
    sheet: MatchState


class Import(NamedTuple):
    """What an import did: the matches it stored, and the backup's ids of those it left out,
    imported by the same player before."""

    matches: list[Imported]
    imported_before: list[str]


def import_matches(user: User, doc: Any) -> Import:
    """Import every match of a backup as a NEW match (new id and join code) whose only member
    is `user`; all or nothing. Everything is checked and replayed before the first write, and
    the rows are written together: the write lock (SQLite) is held for the writing alone. A
    match `user` imported before is left out (a later backup holding it and new ones imports
    the new ones); a backup of nothing else is refused (409), also when the same file is
    imported twice at the same moment."""

    def write() -> Import:
        found = Import(*_write_matches(user, doc, nothing_new_refused=True))
        db.session.commit()
        return found

    return database.once_more_if_refused(write)


def write_matches(user: User, doc: Any) -> Import:
    """`import_matches`' matches, sent to the database and not committed (a club night's import
    commits them with its event), but those `user` imported before, which are left out (their
    ids said), all of them if so. Begins with no change pending: it ends the transaction first."""
    return Import(*_write_matches(user, doc, nothing_new_refused=False))


def imported_here(user: User, ids: list[str]) -> dict[str, Match]:
    """The matches `user` imported from these backup ids, by id."""
    found = db.session.execute(
        db.select(Match).where(Match.created_by_id == user.id, Match.imported_from.in_(ids))
    ).scalars()
    return {str(m.imported_from): m for m in found}


def _write_matches(user: User, doc: Any, nothing_new_refused: bool) -> tuple[list[Imported], list[str]]:
    """The backup's matches `user` did not import before, written, and the backup's ids of those
    left out; `nothing_new_refused`: a backup of none but those is refused (409)."""
    items = check_document(doc)
    if not items:
        raise Refused("/matches", _("This backup holds no match: there is nothing to import."))
    _unique(items, "/matches", "id", str)
    user_id = user.id
    database.end_transaction()  # the look-ups so far took no lock the checks should hold
    checked = [_checked_match_at(i, m) for i, m in enumerate(items)]
    importer = db.session.get(User, user_id)
    assert importer is not None
    already = _imported_before(importer, checked)
    if nothing_new_refused and already and len(already) == len(checked):
        i = min(already)
        raise Conflict(
            _(
                "The match of %(players)s in this backup was imported already: nothing was imported again.",
                players=" · ".join(checked[i].setup.players),
            ),
            f"/matches/{i}",
        )
    fresh = [c for i, c in enumerate(checked) if i not in already]
    matches = _store([(c, _new_match(c, importer)) for c in fresh], importer)
    imported = [Imported(match, c.sheet) for match, c in zip(matches, fresh, strict=True)]
    return imported, [str(checked[i].data["id"]) for i in sorted(already)]


def _imported_before(importer: User, checked: list[_Checked]) -> set[int]:
    """The places of the backup's matches the importer imported before (their backup ids kept
    as `Match.imported_from`): imported again, one match would show twice on the home page and
    its result count twice in its seats' statistics and ratings. (A backup of a match still
    here imports as a copy, once.)"""
    ids = [str(c.data["id"]) for c in checked]
    here = set(
        db.session.execute(
            db.select(Match.imported_from).where(Match.created_by_id == importer.id, Match.imported_from.in_(ids))
        ).scalars()
    )
    return {i for i, match_id in enumerate(ids) if match_id in here}


def restore_database(doc: Any) -> tuple[dict[str, User], list[Match]]:
    """Write a whole-database backup's users and matches into this (empty) database as they
    were, each match with its seats (not committed: `database_backup.restore` writes the rest
    with them): the accounts by username, and the matches."""
    items = check_document(doc)
    users = doc.get("users")
    if users is None:
        raise Malformed("/users", _("A database backup lists its users."))
    _unique(users, "/users", "username", fold)
    _unique(items, "/matches", "id", str)
    _unique(items, "/matches", "join_code", str)
    _unique(items, "/matches", "watch_token", str)
    names = {u["username"] for u in users}

    def creator(item: dict[str, Any]) -> str | None:
        """The match's creator, if they are an account of the backup."""
        return item.get("created_by") if item.get("created_by") in names else None

    for key in ("start_key", "imported_from"):  # each once among one creator's matches (if any)
        _unique(items, "/matches", key, str, by=creator)
    checked = [_checked_match_at(i, m) for i, m in enumerate(items)]
    for i, u in enumerate(users):
        db.session.add(
            User(
                username=u["username"],
                password_hash=u["password_hash"],
                created_at=_when(u.get("created_at")),
                language=_language(u.get("language"), f"/users/{i}/language"),
                usual_rules=_usual_rules(u.get("usual_rules"), f"/users/{i}/usual_rules"),
            )
        )
    db.session.flush()
    accounts = {u.username: u for u in db.session.execute(db.select(User)).scalars()}
    matches = _store([(c, _restored_match(c, accounts)) for c in checked], None, accounts)
    _restore_seats(checked, accounts)
    return accounts, matches


def _unique(items: list[dict[str, Any]], path: str, key: str, same: Any, by: Any = None) -> None:
    """Refuse a second item whose `key` is the `same` (a row the database would refuse); `by`:
    only among the items alike by it, not None (as the database's unique index of two columns).
    An item without the key is never refused."""
    seen: set[tuple[Any, str]] = set()
    for i, item in enumerate(items):
        if item.get(key) is None or (by and by(item) is None):
            continue
        value = (by(item) if by else None, same(item[key]))
        if value in seen:
            raise Malformed(
                f"{path}/{i}/{key}",
                _("This backup holds “%(value)s” twice: a backup holds each once.", value=item[key]),
            )
        seen.add(value)


def _language(value: Any, field: str) -> str | None:
    """The language a player chose, one the app speaks (None: the phone's)."""
    if value is not None and value not in LANGUAGES:
        raise Malformed(field, _("This is not a language this app speaks."))
    return value  # type: ignore[no-any-return]


def _usual_rules(value: Any, field: str) -> dict[str, Any] | None:
    """A player's usual rules from a backup (the players, rules and options a new match starts
    with), as `commands.save_usual_rules` keeps them, checked as a new match's set-up."""
    if value is None:
        return None
    rules = usual_rules_of(value)
    try:
        check_setup(setup_from_dict(rules))
    except RuleError as err:
        err.field = f"{field}/{err.field}" if err.field else field
        raise
    return rules


def _restore_seats(checked: list[_Checked], accounts: dict[str, User]) -> None:
    """Who held which seat of each restored match: a seat of the match, an account of the
    backup, each seat and each account once a match."""
    rows = []
    for i, c in enumerate(checked):
        seats: set[int] = set()
        holders: set[int] = set()
        for j, s in enumerate(c.data.get("seats") or []):
            at, account = f"/matches/{i}/seats/{j}", accounts.get(s["user"])
            if s["seat"] >= len(c.setup.players):
                raise Malformed(f"{at}/seat", _("This match has no such seat."))
            if account is None:
                raise Malformed(f"{at}/user", _("“%(name)s” is not a user of this backup.", name=s["user"]))
            if s["seat"] in seats or account.id in holders:
                raise Malformed(at, _("A seat is held by one player, and a player holds one seat of a match."))
            seats.add(s["seat"])
            holders.add(account.id)
            rows.append(
                {
                    "match_id": str(c.data["id"]),
                    "seat": s["seat"],
                    "user_id": account.id,
                    "banked": c.data["status"] == "banked",
                    "claimed_at": _when(s.get("claimed_at")),
                }
            )
    if rows:
        db.session.execute(db.metadata.tables[Seat.__tablename__].insert(), rows)


@dataclass(frozen=True, slots=True)
class _Checked:
    """One match of a backup, checked: its data, set-up, hand records and replayed sheet."""

    data: Mapping[str, Any]
    setup: Setup
    records: list[Record]
    sheet: MatchState


def _checked_match_at(index: int, data: Mapping[str, Any]) -> _Checked:
    """`_checked_match` for match `index` of a backup; a refusal names its place in the
    document ("/matches/0/hands/2/record/points", "/matches/0/setup/players", "/matches/0/status")."""
    try:
        checked = _checked_match(data)
    except RuleError as err:
        field = err.field or ""
        if not field.startswith("/"):
            field = (f"/hands/{err.hand - 1}/record" if err.hand else "/setup") + (f"/{field}" if field else "")
        err.field = f"/matches/{index}{field}"
        raise
    return checked


def is_empty() -> bool:
    """No users, matches or club nights stored."""
    tables = (User, Match, Event)
    return not any(db.session.execute(db.select(func.count()).select_from(t)).scalar_one() for t in tables)


def check_document(doc: Any) -> list[dict[str, Any]]:
    """The document's matches, after checking its format and version, every value (depth,
    text, numbers), the schema, and what the schema cannot say (times, the audit trail)."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise Malformed("format", _("This is not a scoresheet backup (format “%(format)s”).", format=FORMAT))
    if doc.get("version") != VERSION:
        raise Malformed("version", _("This backup's version is not %(version)s: it cannot be read.", version=VERSION))
    _check_values(doc)
    found = _schema_error(doc)
    if found is not None:
        error, place = found
        raise Malformed(
            _pointer(place),
            _(
                "This backup does not have the form of a scoresheet backup (docs/backup.schema.json): %(reason)s.",
                reason=_schema_problem(error, place),
            ),
        )
    for path, value in _times(doc):
        _when(value, path)
    for i, match in enumerate(doc["matches"]):
        _check_audit(match["audit"], f"/matches/{i}/audit")
    matches: list[dict[str, Any]] = doc["matches"]
    return matches


def _schema_error(doc: dict[str, Any]) -> tuple[Any, list[Any]] | None:
    """What the schema finds wrong with the document, or None. A compiled validator decides
    (a 4 MiB backup in a fraction of a second); only when it finds something does jsonschema
    name it, reading the matches at fault alone (its error, with the place in the whole
    document): the error and its place."""
    if FAST_VALIDATOR.is_valid(doc):
        return None
    matches = doc.get("matches")
    if not isinstance(matches, list):
        return _with_place(best_match(VALIDATOR.iter_errors(doc)))
    faulty = sorted(
        {
            e.instance_path[1]
            for e in FAST_VALIDATOR.iter_errors(doc)
            if len(e.instance_path) > 1 and e.instance_path[0] == "matches" and isinstance(e.instance_path[1], int)
        }
    )
    part = dict(doc, matches=[matches[i] for i in faulty] or matches[:1])
    error = best_match(VALIDATOR.iter_errors(part))
    if error is None:  # the two validators differ: let the thorough one read it all
        return _with_place(best_match(VALIDATOR.iter_errors(doc)))
    place = list(error.absolute_path)
    if faulty and len(place) > 1 and place[0] == "matches":
        place[1] = faulty[place[1]]
    return error, place


def _with_place(error: Any) -> tuple[Any, list[Any]] | None:
    """A schema error with its place in the document, if there is one."""
    return None if error is None else (error, list(error.absolute_path))


_TYPES = {
    "object": _l("an object"),
    "array": _l("a list"),
    "string": _l("text"),
    "integer": _l("a whole number"),
    "number": _l("a number"),
    "boolean": _l("true or false"),
    "null": _l("null"),
}
"""The schema's types as the sentence of a refusal names them."""
_TOO = {
    "maxLength": _l("the text at %(place)s is too long"),
    "minLength": _l("the text at %(place)s is too short"),
    "maxItems": _l("the list at %(place)s has too many entries"),
    "minItems": _l("the list at %(place)s has too few entries"),
    "maxProperties": _l("%(place)s has too many entries"),
    "maximum": _l("the number at %(place)s is too large"),
    "minimum": _l("the number at %(place)s is too small"),
    "pattern": _l("the text at %(place)s is not written as a backup writes it"),
    "format": _l("the text at %(place)s is not written as a backup writes it"),
    "propertyNames": _l("a name at %(place)s is not one a backup uses"),
}
"""What a schema check found, by the check's keyword, for one place in the document."""


def _schema_problem(error: Any, path: list[Any]) -> str:
    """What the schema found wrong, in the reader's words: the place in the document (a JSON
    pointer) and whether something is missing, of the wrong type or not allowed there; never
    jsonschema's own English."""
    keyword = error.validator
    instance = error.instance
    if keyword == "required" and isinstance(instance, dict):
        missing = next((k for k in error.validator_value if k not in instance), "")
        return _("%(place)s is missing", place=_pointer([*path, missing]))
    if keyword == "additionalProperties" and isinstance(instance, dict):
        known = error.schema.get("properties", {})
        extra = next((k for k in instance if k not in known), "")
        return _("%(place)s is not allowed in a backup", place=_pointer([*path, extra]))
    place = _pointer(path)
    if keyword == "type":
        wanted = error.validator_value
        kinds = [str(_TYPES.get(t, t)) for t in (wanted if isinstance(wanted, list) else [wanted])]
        return _(
            "%(place)s should be %(kind)s",
            place=place,
            kind=one_of(kinds),
        )
    if keyword in _TOO:
        return str(_TOO[keyword]) % {"place": place}
    return _("the value at %(place)s is not one a backup can hold", place=place)


def _check_values(doc: Any) -> None:
    """Refuse what no backup holds and a database cannot store: nesting deeper than
    `MAX_DEPTH`, text with NUL or lone surrogates, fractions, numbers beyond `LARGEST`."""
    stack: list[tuple[Any, tuple[Any, ...]]] = [(doc, ())]
    while stack:
        value, path = stack.pop()
        if len(path) > MAX_DEPTH:
            raise Malformed(_pointer(path), _("This file is nested deeper than a backup ever is."))
        if isinstance(value, dict):
            stack.extend((v, (*path, k)) for k, v in value.items())
            texts = list(value)
        elif isinstance(value, list):
            stack.extend((v, (*path, i)) for i, v in enumerate(value))
            texts = []
        else:
            texts = [value] if isinstance(value, str) else []
        for text in texts:
            if "\x00" in text or not _is_utf8(text):
                raise Malformed(
                    _pointer(path),
                    _("This backup holds text with a character that is not text (NUL or a lone surrogate)."),
                )
        largest = LARGEST_SEED if path[:1] == ("events",) and path[-2:] == ("event", "seed") else LARGEST
        if isinstance(value, float) or (isinstance(value, int) and abs(value) > largest):
            raise Malformed(
                _pointer(path), _("Numbers in a backup are whole numbers up to %(largest)s.", largest=largest)
            )


def _is_utf8(text: str) -> bool:
    """The text can be written as UTF-8 (no lone surrogate such as "\\ud800")."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _times(doc: dict[str, Any]) -> list[tuple[str, Any]]:
    """Every time in a (schema-checked) document with its place."""
    found = [("/exported_at", doc.get("exported_at"))]
    found += [(f"/users/{i}/created_at", u.get("created_at")) for i, u in enumerate(doc.get("users") or [])]
    for i, m in enumerate(doc["matches"]):
        found += [(f"/matches/{i}/{key}", m.get(key)) for key in ("created_at", "banked_at")]
        found += [
            (f"/matches/{i}/hands/{j}/{key}", h.get(key))
            for j, h in enumerate(m["hands"])
            for key in ("created_at", "updated_at")
        ]
        found += [(f"/matches/{i}/audit/{j}/at", e["at"]) for j, e in enumerate(m["audit"])]
        found += [(f"/matches/{i}/seats/{j}/claimed_at", s.get("claimed_at")) for j, s in enumerate(m.get("seats", []))]
    return [(path, value) for path, value in found if value is not None]


def _check_audit(entries: list[dict[str, Any]], path: str) -> None:
    """An audit trail that makes sense: ids once each, and a `hand_restored` restores an
    earlier `hand_deleted` of the same match, once. (The schema says what each action holds.)"""
    ids: dict[int, str] = {}
    restored: set[int] = set()
    for j, e in enumerate(entries):
        if e["id"] in ids:
            raise Malformed(f"{path}/{j}/id", _("Two history entries have the id %(id)s.", id=e["id"]))
        ids[e["id"]] = e["action"]
        if e["action"] == "hand_restored":
            target = e["restores"]
            if ids.get(target) != "hand_deleted" or target in restored:
                raise Malformed(
                    f"{path}/{j}/restores",
                    _("A restored hand names an earlier deletion in the same history, and is restored once."),
                )
            restored.add(target)


def _pointer(path: Any) -> str:
    """A place in the document as a JSON pointer (RFC 6901): "/matches/0/hands/2"."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path) or "/"


def _checked_match(data: Mapping[str, Any]) -> _Checked:
    """One match of a backup checked by a replay (no query runs)."""
    setup = setup_from_dict(as_created(data["setup"]))  # a backup from before keeps its rules
    check_setup(setup)
    records = []
    for number, h in enumerate(data["hands"], start=1):
        try:
            records.append(record_from_dict(h["record"], setup.rules))
        except RuleError as err:
            err.hand = number
            raise
    sheet = replay(setup, records)  # Refused propagates: nothing is stored
    status = data["status"]
    if (status == "banked") != (sheet.winner is not None and status != "open"):
        raise Malformed("/status", _("The match's status does not fit its sheet."))
    return _Checked(data, setup, records, sheet)


def _new_match(checked: _Checked, importer: User) -> dict[str, Any]:
    """The row of a new match of `importer`'s (a new id and join code) from a checked backup
    match, with its members' user ids."""
    return {
        "id": new_match_id(),
        "join_code": new_join_code(),
        "setup": setup_dict(checked.setup),
        "status": checked.data["status"],
        "summary": summary_of(checked.sheet),
        "created_by_id": importer.id,
        "created_at": utcnow(),
        "imported_from": str(checked.data["id"]),
        "members": [importer.id],
    }


def _restored_match(checked: _Checked, users: dict[str, User]) -> dict[str, Any]:
    """The row of a checked backup match as it was: its id, join code, members, creator, watch
    link, rematch, start key and origin."""
    data = checked.data
    creator = users.get(data["created_by"]) if isinstance(data.get("created_by"), str) else None
    return {
        "id": str(data["id"]),
        "join_code": str(data["join_code"]),
        "setup": setup_dict(checked.setup),
        "status": data["status"],
        "summary": summary_of(checked.sheet),
        "created_by_id": creator.id if creator else None,
        "created_at": _when(data.get("created_at")),
        "revision": min(data.get("revision", 0) + REVISIONS_SKIPPED, LARGEST),
        "watch_token": data.get("watch_token"),
        "rematch_id": data.get("rematch"),
        "start_key": data.get("start_key"),
        "imported_from": data.get("imported_from"),
        "members": [users[name].id for name in dict.fromkeys(data.get("members") or []) if name in users],
    }


def _store(
    matches: list[tuple[_Checked, dict[str, Any]]], importer: User | None, users: dict[str, User] | None = None
) -> list[Match]:
    """Write the checked matches with their members, hands, history and (banked) figures, a
    few statements per table (rows in bulk, no object per row): the hands' records as the
    engine writes them, an imported match's hands at version 1 by its importer, a restored
    one's by their authors. The stored matches, in order."""
    accounts = users or {}
    if not matches:  # (a database with no match restores its accounts alone)
        return []

    def named(name: Any) -> int | None:
        user = accounts.get(name) if isinstance(name, str) else None
        return user.id if user else None

    def who(name: Any) -> int | None:
        return importer.id if importer else named(name)

    now = utcnow()
    match_rows: list[dict[str, Any]] = []
    members: list[dict[str, Any]] = []
    hands: list[dict[str, Any]] = []
    entries: list[dict[str, Any]] = []
    figures: list[dict[str, Any]] = []
    for checked, row in matches:
        match_id, data = row["id"], checked.data
        match_rows.append({k: v for k, v in row.items() if k != "members"} | {"updated_at": now})
        members += [{"match_id": match_id, "user_id": user_id, "joined_at": now} for user_id in row["members"]]
        for number, (h, record) in enumerate(zip(data["hands"], checked.records, strict=True), start=1):
            hands.append(
                {
                    "match_id": match_id,
                    "number": number,
                    "record": record_to_dict(record),
                    "version": 1 if importer else _kept_version(h.get("version")),
                    "created_by_id": who(h.get("created_by")),
                    "updated_by_id": who(h.get("updated_by")),
                    "created_at": _when(h.get("created_at")),
                    "updated_at": _when(h.get("updated_at")),
                }
            )
        entries += _audit_rows(match_id, data["audit"], row["setup"]["rules"], named)
        if importer is not None:
            entries.append(
                _entry(match_id, importer.id, importer.username, "match_imported", after={"from": str(data.get("id"))})
            )
        if data["status"] == "banked":  # an imported banked match counts in the statistics
            banked_at = _when(data["banked_at"]) if data.get("banked_at") else _banked_time(data["audit"])
            figures += statistics.figure_rows(match_id, checked.sheet, banked_at)
    db.session.flush()
    db.session.execute(db.insert(Match), match_rows)
    for model, rows in ((Member, members), (Hand, hands), (SeatFigure, figures)):
        if rows:  # the table's own insert: one statement, whichever values are None
            db.session.execute(db.metadata.tables[model.__tablename__].insert(), rows)
    if entries:
        _insert_audit(entries)
    stored = {
        m.id: m
        for m in db.session.execute(db.select(Match).where(Match.id.in_([r["id"] for r in match_rows]))).scalars()
    }
    return [stored[r["id"]] for r in match_rows]


def _insert_audit(entries: list[dict[str, Any]]) -> None:
    """Insert the history entries in order, then link each restoration to the new id of the
    deletion it restores (`restores` holds the deletion's place among its match's entries:
    a match's entries get ascending ids in the order they are inserted)."""
    table = db.metadata.tables[AuditEntry.__tablename__]  # the table's own insert: one statement, however
    db.session.execute(table.insert(), [{k: v for k, v in e.items() if k != "restores"} for e in entries])
    restoring: dict[str, list[dict[str, Any]]] = {e["match_id"]: [] for e in entries if e["restores"] is not None}
    for e in entries:
        if e["match_id"] in restoring:
            restoring[e["match_id"]].append(e)
    links = []
    for match_id, mine in restoring.items():
        ids = (
            db.session.execute(db.select(AuditEntry.id).where(AuditEntry.match_id == match_id).order_by(AuditEntry.id))
            .scalars()
            .all()
        )
        links += [
            {"id": ids[i], "restores_id": ids[e["restores"]]} for i, e in enumerate(mine) if e["restores"] is not None
        ]
    if links:
        db.session.execute(db.update(AuditEntry), links)  # by primary key, in bulk


def _kept_version(version: Any) -> int:
    """A restored hand's version: as it was, up to `MAX_VERSION`. (An imported match is new,
    so its hands start at version 1: no phone holds a version of it.) Versions grow by one
    per change, so a hand kept so can never be changed past PostgreSQL's integer, and every
    backup the app writes (versions up to `LARGEST`) imports and restores again."""
    return min(version, MAX_VERSION) if isinstance(version, int) and version > 0 else 1


def _banked_time(entries: list[dict[str, Any]]) -> datetime:
    """When a banked match of a (checked) backup was banked: its `match_banked` entry's
    time, else now."""
    banked = [e for e in entries if e["action"] == "match_banked"]
    return _when(banked[-1].get("at")) if banked else utcnow()


def _entry(match_id: str, user_id: int | None, username: str, action: str, **values: Any) -> dict[str, Any]:
    """The row of one history entry (`restores`: the place of the entry it restores among
    the rows being written, linked once both have their ids)."""
    return {
        "match_id": match_id,
        "user_id": user_id,
        "username": username,
        "action": action,
        "hand_number": values.get("hand_number"),
        "before": values.get("before"),
        "after": values.get("after"),
        "at": values.get("at") or utcnow(),
        "restores": values.get("restores"),
    }


def _audit_rows(match_id: str, entries: list[dict[str, Any]], rules: str, named: Any) -> list[dict[str, Any]]:
    """A (checked) backup's audit trail as rows, oldest first, keeping who (by name; `named`
    finds the account of that name, if it is the same database) and when; hand records are
    stored as the engine writes them. A restoration's `restores` is the place of the deletion
    in this list (`_store` offsets it)."""
    rows: list[dict[str, Any]] = []
    places: dict[int, int] = {}
    for e in entries:
        before, after = e.get("before"), e.get("after")
        if e["action"] in HAND_ACTIONS:
            before, after = (None if r is None else record_to_dict(record_from_dict(r, rules)) for r in (before, after))
        restores = places.get(e.get("restores") or 0)
        places[e["id"]] = len(rows)
        rows.append(
            _entry(
                match_id,
                named(e["user"]),
                e["user"],
                e["action"],
                hand_number=e.get("hand"),
                before=before,
                after=after,
                at=_when(e["at"]),
                restores=restores,
            )
        )
    return rows


def _when(value: Any, field: str = "at") -> datetime:
    """A stored time from its ISO text (now, if there is none), in UTC (SQLite keeps no offset:
    stored as given, 10:00+05:00 would read back as 10:00 UTC)."""
    if value is None:
        return utcnow()
    moment: datetime | None
    try:
        parsed = datetime.fromisoformat(value)
        moment = (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).astimezone(UTC)
    except (TypeError, ValueError, OverflowError):  # 9999-12-31T23:59:59-14:00 is year 10000
        moment = None
    if moment is None or not EARLIEST <= moment < LATEST:
        raise Malformed(
            field,
            _(
                "A time in a backup is from the years 2000 to 2100, written like %(example)s.",
                example="2026-11-30T04:42:08+00:00",
            ),
        )
    return moment
