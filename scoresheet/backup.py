"""Backups: matches as a versioned JSON document, imported back as new matches, and the whole
database (users with their password hashes, matches, members, hands, audit) for the CLI.

Hands are kept exactly as recorded; an import replays them through the engine before anything
is stored, so a backup that the rules refuse stores nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func

from flask_babel import gettext as _

from . import audit, services
from .extensions import db
from .models import AuditEntry, Hand, Match, Member, User, isoformat, utcnow
from .queries import stored_hands
from .replay_cache import store_summary
from .rules import Malformed, check_setup, record_from_dict, record_to_dict, replay, setup_from_dict
from .rules import setup_to_dict as setup_dict
from .shapes import member_names

FORMAT = "tysiacha-scoresheet"
VERSION = 1
HAND_ACTIONS = frozenset({"hand_added", "hand_edited", "hand_deleted", "hand_restored"})


def document(matches: list[Match], users: list[User] | None = None) -> dict[str, Any]:
    """The backup document of these matches (and, for the whole database, these users)."""
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION,
                           "exported_at": utcnow().isoformat(),
                           "matches": [match_document(m) for m in matches]}
    if users is not None:
        doc["users"] = [{"username": u.username, "password_hash": u.password_hash,
                         "created_at": isoformat(u.created_at)} for u in users]
    return doc


def match_document(match: Match) -> dict[str, Any]:
    """One match: set-up, status, members, hands exactly as recorded, and its audit trail."""
    players = list(match.setup["players"])
    return {
        "id": match.id, "join_code": match.join_code, "setup": match.setup,
        "status": match.status, "created_at": isoformat(match.created_at),
        "created_by": username(match.created_by_id),
        "members": member_names(match),
        "hands": [{"number": h.number, "record": h.record, "version": h.version,
                   "created_by": h.created_by.username if h.created_by else None,
                   "updated_by": h.updated_by.username if h.updated_by else None,
                   "created_at": isoformat(h.created_at),
                   "updated_at": isoformat(h.updated_at)} for h in stored_hands(match)],
        "audit": [audit.entry_to_dict(e, players) for e in reversed(audit.entries(match))],
    }


def username(user_id: int | None) -> str | None:
    """The name of an account, if there is one."""
    user = db.session.get(User, user_id) if user_id is not None else None
    return user.username if user else None


def import_matches(user: User, doc: Any) -> list[Match]:
    """Import every match of a backup as a NEW match (new id and join code) whose only member
    is `user`; all or nothing."""
    matches = [load_match(m, importer=user) for m in check_document(doc)]
    db.session.commit()
    return matches


def restore_database(doc: Any) -> tuple[int, int]:
    """Load a whole-database backup into this (empty) database: (users, matches) restored."""
    items = check_document(doc)
    users = doc.get("users")
    if not isinstance(users, list):
        raise Malformed("users", _("A database backup lists its users."))
    for u in users:
        if not isinstance(u, dict) or not all(isinstance(u.get(k), str)
                                              for k in ("username", "password_hash")):
            raise Malformed("users", _("Each user has a username and a password hash."))
        db.session.add(User(username=u["username"], password_hash=u["password_hash"],
                            created_at=when(u.get("created_at"))))
    db.session.flush()
    for m in items:
        load_match(m, importer=None)
    db.session.commit()
    return len(users), len(items)


def is_empty() -> bool:
    """No users and no matches stored."""
    return not any(db.session.execute(db.select(func.count()).select_from(t)).scalar_one()
                   for t in (User, Match))


def check_document(doc: Any) -> list[dict[str, Any]]:
    """The document's matches, after checking its format and version."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise Malformed("format", _("This is not a scoresheet backup (format “%(format)s”).",
                                    format=FORMAT))
    if doc.get("version") != VERSION:
        raise Malformed("version", _("This backup's version is not %(version)s: it cannot be read.",
                                     version=VERSION))
    matches = doc.get("matches")
    if not isinstance(matches, list) or not all(isinstance(m, dict) for m in matches):
        raise Malformed("matches", _("A backup lists its matches."))
    return matches


def load_match(data: Mapping[str, Any], importer: User | None) -> Match:
    """Add one match of a backup to the session, checked by a replay. With an `importer` it is
    a new match of theirs; without, it keeps its id, join code, members and authors."""
    setup = setup_from_dict(data.get("setup"))
    check_setup(setup)
    hands = data.get("hands")
    if not isinstance(hands, list) or not all(isinstance(h, dict) for h in hands):
        raise Malformed("hands", _("A match in a backup lists its hands."))
    records = [record_from_dict(h.get("record"), setup.rules) for h in hands]
    sheet = replay(setup, records)  # Refused propagates: nothing is stored
    status = data.get("status")
    if status not in ("open", "banked", "ended"):
        raise Malformed("status", _("A match's status is open, banked or ended."))
    if (status == "banked") != (sheet.winner is not None and status != "open"):
        raise Malformed("status", _("The match's status does not fit its sheet."))
    users = {} if importer else {u.username: u for u in db.session.execute(db.select(User))
                                 .scalars()}

    def named(name: Any) -> User | None:
        return users.get(name) if isinstance(name, str) else None

    def who(name: Any) -> User | None:
        return importer or named(name)

    match = Match(setup=setup_dict(setup), status=status, created_by_id=None)
    store_summary(match, sheet)
    if importer is None:
        match.id, match.join_code = str(data["id"]), str(data["join_code"])
        match.created_at = when(data.get("created_at"))
        for name in data.get("members") or []:
            if name in users:
                match.members.append(Member(user_id=users[name].id))
        creator = who(data.get("created_by"))
    else:
        match.members.append(Member(user_id=importer.id))
        creator = importer
    match.created_by_id = creator.id if creator else None
    db.session.add(match)
    db.session.flush()
    for number, (h, record) in enumerate(zip(hands, records, strict=True), start=1):
        made, edited = who(h.get("created_by")), who(h.get("updated_by"))
        version = h.get("version")
        db.session.add(Hand(
            match_id=match.id, number=number, record=record_to_dict(record),
            version=version if isinstance(version, int) and version > 0 else 1,
            created_by_id=made.id if made else None, updated_by_id=edited.id if edited else None,
            created_at=when(h.get("created_at")), updated_at=when(h.get("updated_at"))))
    load_audit(match, data.get("audit") or [], named)
    if importer is not None:
        audit.log(match, importer, "match_imported", after={"from": str(data.get("id"))})
    db.session.flush()
    return match


def load_audit(match: Match, entries: Any, named: Any) -> None:
    """Copy a backup's audit trail, oldest first, keeping who (by name; `named` finds the
    account of that name, if it is the same database) and when."""
    if not isinstance(entries, list):
        raise Malformed("audit", _("A match's audit trail is a list."))
    new_ids: dict[Any, int] = {}
    for e in entries:
        if not isinstance(e, dict) or e.get("action") not in audit.ACTIONS or \
                not isinstance(e.get("user"), str):
            raise Malformed("audit", _("An audit entry has an action and a user."))
        before, after = e.get("before"), e.get("after")
        if e["action"] in HAND_ACTIONS:
            before, after = (None if r is None else record_to_dict(record_from_dict(r, match.setup["rules"]))
                             for r in (before, after))
        elif not all(r is None or isinstance(r, dict) for r in (before, after)):
            raise Malformed("audit", _("An audit entry's before and after are objects."))
        number = e.get("hand")
        user = named(e["user"])
        entry = AuditEntry(
            match_id=match.id, user_id=user.id if user else None, username=e["user"][:40],
            action=e["action"],
            hand_number=number if isinstance(number, int) else None, before=before, after=after,
            restores_id=new_ids.get(e.get("restores")), at=when(e.get("at")))
        db.session.add(entry)
        db.session.flush()
        new_ids[e.get("id")] = entry.id


def when(value: Any) -> datetime:
    """A stored time from its ISO text (now, if there is none)."""
    if value is None:
        return utcnow()
    try:
        moment = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise Malformed("at", _("A time in a backup is written like %(example)s.",
                                example="2026-11-30T04:42:08+00:00")) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
