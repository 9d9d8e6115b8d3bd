"""The audit trail: every change to a match, written with the change, told in plain words."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from ...rules.tichu import TEAMS, team_names
from ...storage.extensions import db
from ...storage.models import AuditEntry, Match, User
from ...words import _, _l
from ...words.values import figure
from ...words.vocabulary import CALL_NAMES, KIND_WORDS, SUIT_WORDS

ACTIONS = (
    "match_created",
    "member_joined",
    "hand_added",
    "hand_edited",
    "hand_deleted",
    "hand_restored",
    "match_banked",
    "match_ended",
    "match_imported",
    "seat_claimed",
    "seat_assigned",
    "seat_released",
    "watch_link_made",
    "watch_link_replaced",
    "watch_link_stopped",
    "account_deleted",
    "join_code_replaced",
    "member_removed",
    "member_left",
)
BESIDE_THE_SHEET = (
    "member_joined",
    "seat_claimed",
    "seat_assigned",
    "seat_released",
    "watch_link_made",
    "watch_link_replaced",
    "watch_link_stopped",
    "account_deleted",
    "join_code_replaced",
    "member_removed",
    "member_left",
)
"""Entries that change no hand: the match page's undo and news look past them."""
FIELDS = (
    ("kind", _l("kind %(old)s → %(new)s")),
    ("declarer", _l("declarer %(old)s → %(new)s")),
    ("bid", _l("bid %(old)s → %(new)s")),
    ("made", _l("made %(old)s → %(new)s")),
    ("blind", _l("blind %(old)s → %(new)s")),
    ("forced", _l("forced %(old)s → %(new)s")),
    ("sitter_points", _l("sitter's points %(old)s → %(new)s")),
    ("first_out", _l("out first %(old)s → %(new)s")),
    ("double_victory", _l("double victory %(old)s → %(new)s")),
    ("card_points", _l("card points %(old)s → %(new)s")),
)
SEAT_FIELDS = (
    ("points", _l("%(name)s's points %(old)s → %(new)s")),
    ("marriages", _l("%(name)s's marriages %(old)s → %(new)s")),
    ("calls", _l("%(name)s's call %(old)s → %(new)s")),
)
WHO_DID = {
    "match_imported": _l("%(name)s imported the match from a backup"),
    "member_joined": _l("%(name)s joined the match"),
    "match_banked": _l("%(name)s banked the match"),
    "match_ended": _l("%(name)s ended the match"),
    "watch_link_made": _l("%(name)s made a watch link"),
    "watch_link_replaced": _l("%(name)s made a new watch link: the old one stopped working"),
    "watch_link_stopped": _l("%(name)s stopped the watch link"),
    "account_deleted": _l("%(name)s deleted their account"),
    "join_code_replaced": _l("%(name)s made a new join code: the old one stopped working"),
    "member_left": _l("%(name)s left the match"),
}
"""The entries told by who did them alone (never a watch link's token)."""
HAND_SENTENCES = {
    "hand_added": (
        _l("%(name)s recorded hand %(num)d: %(hand)s"),
        _l("%(name)s recorded round %(num)d: %(round)s"),
    ),
    "hand_deleted": (
        _l("%(name)s deleted hand %(num)d (%(hand)s)"),
        _l("%(name)s deleted round %(num)d (%(round)s)"),
    ),
    "hand_restored": (
        _l("%(name)s restored a deleted hand as hand %(num)d: %(hand)s"),
        _l("%(name)s restored a deleted round as round %(num)d: %(round)s"),
    ),
    "hand_edited": (
        _l("%(name)s corrected hand %(num)d: %(changes)s"),
        _l("%(name)s corrected round %(num)d: %(changes)s"),
    ),
}
"""A change of a hand told in words, for a Tysiacha hand and a Tichu round (a whole sentence
each, for the translators)."""


def log(
    match: Match,
    user: User | None,
    action: str,
    hand_number: int | None = None,
    before: Any = None,
    after: Any = None,
    restores_id: int | None = None,
) -> AuditEntry:
    """Add an entry to the session: it is committed (or rolled back) with the change itself."""
    entry = AuditEntry(**row(match, user, action, hand_number, before, after, restores_id))
    db.session.add(entry)
    return entry


def row(
    match: Match,
    user: User | None,
    action: str,
    hand_number: int | None = None,
    before: Any = None,
    after: Any = None,
    restores_id: int | None = None,
    at: datetime | None = None,
) -> dict[str, Any]:
    """An entry's columns (but its id, and its time unless `at` is given), as `log` stores
    them: for a change written without the ORM (`storage.hand_rows`)."""
    assert action in ACTIONS, action
    found = {
        "match_id": match.id,
        "user_id": user.id if user else None,
        "username": user.username if user else "someone",
        "action": action,
        "hand_number": hand_number,
        "before": before,
        "after": after,
        "restores_id": restores_id,
    }
    return found if at is None else found | {"at": at}


def entries(match: Match) -> list[AuditEntry]:
    """The match's history, newest first."""
    return list(
        db.session.execute(
            db.select(AuditEntry).where(AuditEntry.match_id == match.id).order_by(AuditEntry.id.desc())
        ).scalars()
    )


def describe(entry: AuditEntry, players: list[str], names: Mapping[str, str] | None = None) -> str:
    """The entry in plain words: "anna corrected hand 3: bid 120 → 140"; with `names` (account
    → seat name, `seats.table_names`), a change to the sheet names who made it as the sheet does:
    "Аня corrected hand 3" (seats, links and accounts keep the account's name)."""
    who, n = entry.username, entry.hand_number or 0
    if names and entry.action not in BESIDE_THE_SHEET:
        who = names.get(who, who)
    if entry.action in HAND_SENTENCES:
        return _hand_change(entry, players, who, n)
    match entry.action:
        case "match_created":
            return _("%(name)s started the match: %(players)s", name=who, players=", ".join(players))
        case "match_ended" if isinstance(entry.after, dict) and entry.after.get("entered_by"):
            return _entered_words(entry.after, players, who)
        case action if action in WHO_DID:
            return str(WHO_DID[action]) % {"name": who}
        case "seat_claimed" | "seat_assigned" | "seat_released":
            return _seat_words(entry, players)
        case "member_removed":
            member = (entry.after or {}).get("user") or "?"
            return _("%(name)s removed %(member)s from the match", name=who, member=member)
    return f"{who}: {entry.action}"


def _hand_change(entry: AuditEntry, players: list[str], who: str, n: int) -> str:
    """A hand's (a Tichu round's) change in plain words: "anna corrected hand 3: bid 120 → 140"."""
    record = entry.before if entry.action == "hand_deleted" else entry.after
    words = hand_words(record, players)
    changes = ""
    if entry.action == "hand_edited":
        changes = "; ".join(_changed(entry.before or {}, entry.after or {}, players)) or _("no change")
    tichu = "calls" in (entry.after or entry.before or {})  # a Tichu round says round, not hand
    sentence = HAND_SENTENCES[entry.action][tichu]
    return str(sentence) % {"name": who, "num": n, "hand": words, "round": words, "changes": changes}


def _entered_words(after: dict[str, Any], players: list[str], who: str) -> str:
    """A table's final scores entered by hand (CLUB.md §4): "dira entered the final scores
    from the paper sheet: Anna 300, Boris 150, Vera 0" (Tichu: per team)."""
    scores = after.get("scores") or []
    names = team_names(players) if len(scores) == TEAMS < len(players) else players
    listed = ", ".join(f"{names[i] if i < len(names) else '?'} {s}" for i, s in enumerate(scores))
    return _("%(name)s entered the final scores from the paper sheet: %(scores)s", name=who, scores=listed)


def _seat_words(entry: AuditEntry, players: list[str]) -> str:
    """A change of seats: who claimed, gave or gave up which seat (`{"seat", "user"}`)."""
    claim = (entry.after if entry.action != "seat_released" else entry.before) or {}
    player, member = _seat_name(claim.get("seat"), players), claim.get("user") or "?"
    if entry.action == "seat_claimed":
        return _("%(name)s is %(player)s on the sheet now", name=entry.username, player=player)
    if entry.action == "seat_assigned":
        return _("%(name)s gave %(player)s's seat to %(member)s", name=entry.username, player=player, member=member)
    if member == entry.username:
        return _("%(name)s left %(player)s's seat: %(player)s is a guest again", name=entry.username, player=player)
    return _(
        "%(name)s took %(player)s's seat from %(member)s: %(player)s is a guest again",
        name=entry.username,
        player=player,
        member=member,
    )


def hand_words(record: dict[str, Any] | None, players: list[str]) -> str:
    """A hand record in brief: "Boris bid 120", "a redeal"."""
    if not record:
        return "?"
    if "calls" in record:
        return _round_words(record, players)
    kind, bid = record.get("kind"), record.get("bid")
    name = _seat_name(record.get("declarer"), players)
    if kind == "redeal":
        return _("a redeal")
    if kind == "forfeit":
        return _("%(name)s gave up at %(bid)s", name=name, bid=bid)
    made = record.get("made")
    if made is None:
        return _("%(name)s bid %(bid)s", name=name, bid=bid)
    if made:
        return _("%(name)s bid %(bid)s, made", name=name, bid=bid)
    return _("%(name)s bid %(bid)s, missed", name=name, bid=bid)


def _round_words(record: dict[str, Any], players: list[str]) -> str:
    """A Tichu round in brief: "Anna out first, Anna: Tichu, cards 35 : 65"."""
    first = record.get("first_out")
    parts = [] if first is None else [_("%(name)s out first", name=_seat_name(first, players))]
    parts += [f"{_seat_name(i, players)}: {CALL_NAMES.get(c, c)}" for i, c in enumerate(record.get("calls") or []) if c]
    points = record.get("card_points")
    if record.get("double_victory"):
        parts.append(_("double victory"))
    elif isinstance(points, list) and len(points) == 2:
        parts.append(_("cards %(team0)s : %(team1)s", team0=figure(points[0]), team1=figure(points[1])))
    return ", ".join(parts)


def _changed(before: dict[str, Any], after: dict[str, Any], players: list[str]) -> list[str]:
    """What differs between two hand records, one phrase per change."""
    out = []
    for key, phrase in FIELDS:
        old, new = before.get(key), after.get(key)
        if old != new:
            if key in ("declarer", "first_out"):
                old, new = _seat_name(old, players), _seat_name(new, players)
            out.append(str(phrase) % {"old": _value_words(old), "new": _value_words(new)})
    for key, phrase in SEAT_FIELDS:
        olds, news = before.get(key) or [], after.get(key) or []
        for seat in range(max(len(olds), len(news))):
            old = olds[seat] if seat < len(olds) else None
            new = news[seat] if seat < len(news) else None
            if old != new:
                if key == "calls":
                    old, new = CALL_NAMES.get(old, old) if old else old, CALL_NAMES.get(new, new) if new else new
                out.append(
                    str(phrase)
                    % {"name": _seat_name(seat, players), "old": _value_words(old), "new": _value_words(new)}
                )
    return out


def _seat_name(seat: Any, players: list[str]) -> str:
    """A player's name for a seat number."""
    return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else _("nobody")


def _value_words(value: Any) -> str:
    """A stored value as a player reads it."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        # TRANSLATORS: a yes/no value changed in the history: "blind no → yes"
        return _("yes") if value else _("no")
    if isinstance(value, list):
        return ", ".join(str(SUIT_WORDS.get(v, v)) for v in value) or _("none")
    if isinstance(value, str) and value in KIND_WORDS:
        return str(KIND_WORDS[value])
    return str(value)
