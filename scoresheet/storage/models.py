"""Stored records only: users, tokens, matches, members and the hand records as entered.

Scores are never stored as the truth: every view of a match replays its hand records through
the engine. Lists read `Match.summary`, a copy of what that replay says, kept with every change.
"""

from __future__ import annotations

import re
import secrets
import time
import unicodedata
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from flask_login import UserMixin
from sqlalchemy import JSON, BigInteger, DateTime, Float, ForeignKey, Index, String, UniqueConstraint, false, select
from sqlalchemy.orm import Mapped, column_property, mapped_column, query_expression, relationship

from ..rules.setup import INVISIBLE
from .extensions import Base, db

JOIN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Upper-case letters and digits without the look-alikes 0/O and 1/I."""
JOIN_CODE_LENGTH = 10


if TYPE_CHECKING:  # mypy sees the declarative base; at run time Flask-SQLAlchemy's model class
    Model = Base
else:
    Model = db.Model


def utcnow() -> datetime:
    """The current time, timezone-aware, in UTC."""
    return datetime.now(UTC)


def isoformat(moment: datetime) -> str:
    """A stored time as the API shows it, always with its UTC offset (SQLite drops it)."""
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).isoformat()


def new_match_id() -> str:
    """A short random URL-safe match id."""
    return secrets.token_urlsafe(9)


def new_start_key() -> str:
    """A random key for one form that starts a match (`Match.start_key`)."""
    return secrets.token_urlsafe(12)


START_KEY = re.compile(r"[A-Za-z0-9_-]{16}")
"""What `new_start_key` makes."""


def new_join_code() -> str:
    """A random, unguessable join code that is easy to read out at the table."""
    return "".join(secrets.choice(JOIN_ALPHABET) for _ in range(JOIN_CODE_LENGTH))


def new_watch_token() -> str:
    """A long random token for a watch link (192 bits: never guessed, never enumerated)."""
    return secrets.token_urlsafe(24)


FOLDED_LENGTH = 120
"""Room for a folded username: case folding writes a letter as up to three (`ß` → `ss`)."""


def new_hand_uid() -> str:
    """A random name for a hand, for its whole life (96 bits: never handed out twice)."""
    return secrets.token_urlsafe(12)


def new_session_secret() -> str:
    """A random per-account secret every session and remember-me cookie carries: a new one
    ends them all (log out everywhere, a password change); a deleted account takes it along."""
    return secrets.token_urlsafe(24)


def fold(username: str) -> str:
    """A username as compared: NFC, case ignored by Unicode case folding (`Аня` = `АНЯ`,
    `Straße` = `STRASSE`); for ASCII names the same as `lower()`."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", username).casefold())


def lookup_name(username: object) -> str | None:
    """A name to look an account up by, folded: None for what no username can be (not text, a
    NUL byte or another control character, longer than 40), which is then looked up nowhere
    (PostgreSQL answers a NUL byte in a query with an error, not a miss)."""
    if isinstance(username, str) and username.isprintable() and len(username) <= 40:
        return fold(username)
    return None


def _folded(context: Any) -> str:
    """The column default of `User.username_folded`: the folded username being inserted."""
    return fold(context.get_current_parameters()["username"])


LOOKS_LENGTH = 160
"""Room for `looks_of` a username: four characters for each of its 40 (checked over every code
point: U+1F82 “ᾂ” is four in NFD; U+24A8 “⒨” reads as the four of “(rn)”)."""


def look_alike_key(name: str) -> str:
    """What two new names at one table or on one roster, or a new username and the accounts',
    are compared by besides `new_name_key` or `fold` (they may not be alike by either): the
    name as it looks, letter by letter, its case kept (H and h do not look alike). Every
    letter of another alphabet that Unicode's confusables data says looks like a Latin letter
    or a digit is read as that one (“Норе”, all in Cyrillic, as “Hope”; “Анна” stays itself
    beside “Anna”: its н looks like no Latin letter), and a capital I as the l it is drawn as
    in most fonts, as that data has it."""
    shown = "".join(c for c in unicodedata.normalize("NFD", name) if c not in INVISIBLE)
    if not shown.isascii():  # most names are: no table needed
        shown = "".join(_looks_like(c) for c in shown)
    return unicodedata.normalize("NFD", shown.replace("I", "l"))


def _looks_like(char: str) -> str:
    """The Latin letter or digit that a character looks like, else the character itself."""
    if char.isascii():
        return char
    from confusable_homoglyphs import confusables  # its 1 MB table: only for a name not in ASCII

    return next((g["c"] for g in confusables.confusables_data.get(char, ()) if g["c"].isascii()), char)


def looks_of(username: str) -> str:
    """How a username looks, whatever its case (`look_alike_key`, then `fold`): a new account
    may not look like any spelling of another's, as logging in reads them (“НОРЕ”, all in
    Cyrillic, beside the account Hope, whom “HOPE” logs in as)."""
    return fold(look_alike_key(username))


def _looks(context: Any) -> str:
    """The column default of `User.username_looks`: how the username being inserted looks."""
    return looks_of(context.get_current_parameters()["username"])


class User(UserMixin, Model):
    """An account."""

    __tablename__ = "users"
    __table_args__ = {"sqlite_autoincrement": True}
    """Ids are never handed out again, on SQLite too (`AUTOINCREMENT`): a deleted account's id
    names nobody else (the offline sheets of a phone are kept by account id)."""
    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(40), unique=True)
    username_folded: Mapped[str] = mapped_column(String(FOLDED_LENGTH), unique=True, default=_folded)
    """The username case-folded (`fold`): its unique index makes `anna` and `ANNA`, `Аня` and
    `АНЯ` one account in the database itself, however close together two phones register them."""
    username_looks: Mapped[str | None] = mapped_column(String(LOOKS_LENGTH), index=True, default=_looks)
    """The username as it looks, whatever its case (`looks_of`): a new account may not look
    exactly like another ("Норе" or "НОРЕ", all in Cyrillic, beside Hope). Not unique:
    accounts made before it was asked (or restored from a backup of then) may look alike, and
    two phones registering look-alikes at one moment are two people, not one account twice."""
    password_hash: Mapped[str] = mapped_column(String(255))
    session_secret: Mapped[str] = mapped_column(String(32), default=new_session_secret)
    """Carried by every session and remember-me cookie (`session_id`): a new secret logs every
    browser out; a cookie of a deleted account names an id nobody has."""
    language: Mapped[str | None] = mapped_column(String(10))
    """The language the player chose with the switch (`en`, `ru`, …); None: the phone's."""
    usual_rules: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    """The table's usual rules, saved from one of the player's matches: its players, ruleset
    and options (`services.save_usual_rules`); a new match starts with them in one tap."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    newest_notice: Mapped[int | None] = query_expression()
    """The id of the user's newest notice, 0 if none, read with the user where a page loads it
    (`accounts.load_user`): a page asks for the notices only when one is newer than the last it
    showed. None where the user was read without it."""

    def get_id(self) -> str:
        """Session id `<id>:<secret>:<issued>` (Flask-Login keeps it in the session and the
        remember-me cookie): a new `session_secret` logs every session out, and the issue
        time (seconds since the epoch) lets the server refuse a cookie older than it keeps one
        (`accounts.load_user`)."""
        return f"{self.id}:{self.session_secret}:{int(time.time())}"


class ApiToken(Model):
    """An API token; only the SHA-256 of the token is kept."""

    __tablename__ = "api_tokens"
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    user: Mapped[User] = relationship()


class Match(Model):
    """A match: its set-up and whether it was banked or ended (finished is computed)."""

    __tablename__ = "matches"
    __table_args__ = (
        Index("ix_matches_start_key", "created_by_id", "start_key", unique=True),
        Index("ix_matches_imported_from", "created_by_id", "imported_from", unique=True),
    )
    id: Mapped[str] = mapped_column(String(16), primary_key=True, default=new_match_id)
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(10), default="open")
    """`open`, `banked` or `ended`; `finished` is computed by the replay, never stored."""
    revision: Mapped[int] = mapped_column(default=0)
    """Counts every change to the hands or the status: a computed sheet is current for one
    revision (caches and the live-update ETag key on it)."""
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """What lists show, copied from the replay (`replay_cache.summary_of`: computed status,
    winner, number of hands, each seat's score) in the same transaction as every change; a
    cache, never the truth (None only before migration 0003 filled it)."""
    join_code: Mapped[str] = mapped_column(String(16), unique=True, default=new_join_code)
    watch_token: Mapped[str | None] = mapped_column(String(64), unique=True, index=True, nullable=True)
    """The watch link's token (`new_watch_token`): whoever holds it sees this match's sheet,
    read-only, without an account; None while there is no watch link (any member makes,
    replaces or stops it)."""
    rematch_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """The next match of the same table, once someone started it (`services.rematch`): a
    second tap, on any phone, opens that one instead of starting another. No foreign key
    (migration 0009 says why): a rematch deleted since counts as none."""
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    start_key: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """The key of the page's form that started this match (`new_start_key`), one match per key
    and creator: the same form sent again (a second tap, a tap again after an answer lost on a
    bad connection) opens this match instead of starting another. None for a match started
    otherwise (the API, a rematch, a club night's table)."""
    imported_from: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """The id, in its backup, of the match this one was imported from (None: not imported): a
    backup imported again by the same player leaves it out (`backup._imported_before`)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)
    members: Mapped[list[Member]] = relationship(
        back_populates="match", order_by="Member.id", cascade="all, delete-orphan"
    )
    hands: Mapped[list[Hand]] = relationship(
        back_populates="match", order_by="Hand.number", cascade="all, delete-orphan"
    )
    if TYPE_CHECKING:
        event_hand_limit: Mapped[int | None]
        """The hand limit of the club night this match is a table of, or None (CLUB.md §1):
        read only when asked (a deferred column, mapped below `EventTable`), or with the
        match's row where a query undefers it (adding a hand)."""
        event_table_id: Mapped[int | None]
        """The club night's table this match is played at, or None: deferred likewise (adding
        a hand keeps a table's result, `EventTable.match_result`)."""


class Member(Model):
    """A user who may see and change a match."""

    __tablename__ = "members"
    __table_args__ = (UniqueConstraint("match_id", "user_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    match: Mapped[Match] = relationship(back_populates="members")
    user: Mapped[User] = relationship()


class Hand(Model):
    """One hand record exactly as entered (`hand_to_dict`), numbered from 1 within its match."""

    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("match_id", "number"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    number: Mapped[int]
    uid: Mapped[str] = mapped_column(String(16), unique=True, default=new_hand_uid)
    """Names this hand for its whole life (`new_hand_uid`): an edit keeps it, a renumbering
    keeps it, a deleted hand's is never used again (a restored hand gets a new one). A delete or
    a correction that names it is refused once hand `number` is another hand."""
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(default=1)
    """1 when recorded, incremented on every edit (a form carries it to catch lost updates)."""
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    updated_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)
    match: Mapped[Match] = relationship(back_populates="hands")
    created_by: Mapped[User | None] = relationship(foreign_keys=[created_by_id])
    updated_by: Mapped[User | None] = relationship(foreign_keys=[updated_by_id])


class AuditEntry(Model):
    """One change to a match, written in the same transaction as the change: who, when, what,
    and the record before and after (a hand record as stored, or the match's set-up/status)."""

    __tablename__ = "audit_entries"
    __table_args__ = {"sqlite_autoincrement": True}
    """An entry's id is in a restore link and in `restores_id`: never handed out again."""
    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    username: Mapped[str] = mapped_column(String(40))
    """The name at the time, so the history still reads right if the account is gone."""
    action: Mapped[str] = mapped_column(String(20))
    """One of `audit.ACTIONS`: `match_created`, `hand_edited`, `seat_claimed`, … (docs/api.md)."""
    hand_number: Mapped[int | None]
    before: Mapped[Any] = mapped_column(JSON, nullable=True)
    after: Mapped[Any] = mapped_column(JSON, nullable=True)
    restores_id: Mapped[int | None] = mapped_column(ForeignKey("audit_entries.id", ondelete="SET NULL"))
    """For `hand_restored`: the `hand_deleted` entry whose hand came back."""
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Seat(Model):
    """A seat of a match claimed by an account ("I am Anna"); a seat without one is a guest."""

    __tablename__ = "seats"
    __table_args__ = (
        UniqueConstraint("match_id", "seat"),
        UniqueConstraint("match_id", "user_id"),
        Index("ix_seats_user_id_banked", "user_id", "banked"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seat: Mapped[int]
    """The player's place in `setup.players`, from 0."""
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    claimed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    banked: Mapped[bool] = mapped_column(default=False, server_default=false())
    """The match is banked (set with its figures, `statistics.keep_figures`): a player's page
    counts the matches not banked yet from the seats alone, not by reading every match."""


class SeatFigure(Model):
    """One seat's figures in a banked match (`rules.figures.SeatFigures`), written when it was
    banked: a copy of what the replay says, so a player's page adds rows up instead of
    replaying every match (never edited by hand)."""

    __tablename__ = "seat_figures"
    __table_args__ = (UniqueConstraint("match_id", "seat"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seat: Mapped[int]
    name: Mapped[str | None] = mapped_column(String(40))
    """The seat's name on the sheet (a guest's statistics go by it); None only for a match
    banked before migration 0008 could name it."""
    rules: Mapped[str] = mapped_column(String(20))
    banked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    """When the match was banked: ratings are computed in this order."""
    place: Mapped[int]
    won: Mapped[bool]
    score: Mapped[int] = mapped_column(default=0, server_default="0")
    """The seat's final score (Tichu: its team's), as the sheet says when the match was
    banked: what a score difference between two players adds up, and a player's highest final
    score (`rules.figures.SeatScores`)."""
    lowest: Mapped[int | None]
    """The lowest score the seat (Tichu: its team) had during the match (its start, or lower
    after a hand): a player's biggest comeback; None only for a row migration 0018 could not
    replay."""
    declared: Mapped[int] = mapped_column(default=0)
    made: Mapped[int] = mapped_column(default=0)
    bid_made_sum: Mapped[int] = mapped_column(default=0)
    bid_made_max: Mapped[int] = mapped_column(default=0)
    barrel_on: Mapped[int] = mapped_column(default=0)
    barrel_won: Mapped[int] = mapped_column(default=0)
    barrel_fell: Mapped[int] = mapped_column(default=0)
    zeros: Mapped[int] = mapped_column(default=0)
    forfeits: Mapped[int] = mapped_column(default=0)
    tichu_called: Mapped[int] = mapped_column(default=0)
    tichu_made: Mapped[int] = mapped_column(default=0)
    grand_called: Mapped[int] = mapped_column(default=0)
    grand_made: Mapped[int] = mapped_column(default=0)
    great_grand_called: Mapped[int] = mapped_column(default=0)
    great_grand_made: Mapped[int] = mapped_column(default=0)
    double_victories: Mapped[int] = mapped_column(default=0)


class Rating(Model):
    """An account's rating after one banked match of a game (`tysiacha` or `tichu`): its
    latest row is its rating, all of them its rating over time. Computed (openskill), never
    the truth: `ratings.rate_from` rewrites them in bank order."""

    __tablename__ = "ratings"
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    game: Mapped[str] = mapped_column(String(10))
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    banked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)


class PlayerTotal(Model):
    """An account's seat figures of one ruleset added up over the banked matches whose seat it
    claimed: a copy of the sums over `seat_figures`, rebuilt for the accounts concerned whenever
    those seats or figures change (`statistics.rebuild_totals`), so a player's page reads one
    row per ruleset (never edited by hand)."""

    __tablename__ = "player_totals"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    rules: Mapped[str] = mapped_column(String(20), primary_key=True)
    banked: Mapped[int]
    won: Mapped[int]
    places: Mapped[int]
    """The finishing places added up."""
    declared: Mapped[int]
    made: Mapped[int]
    bid_made_sum: Mapped[int]
    bid_made_max: Mapped[int]
    """The highest, not a sum."""
    barrel_on: Mapped[int]
    barrel_won: Mapped[int]
    barrel_fell: Mapped[int]
    zeros: Mapped[int]
    forfeits: Mapped[int]
    tichu_called: Mapped[int]
    tichu_made: Mapped[int]
    grand_called: Mapped[int]
    grand_made: Mapped[int]
    great_grand_called: Mapped[int]
    great_grand_made: Mapped[int]
    double_victories: Mapped[int]


class RatingSummary(Model):
    """An account's rating in one game as its page shows it: the latest rating, how many
    banked matches rated it, and its history thinned to what a chart draws; rebuilt from
    `ratings` whenever they are rewritten (`ratings.rate_from`), never the truth."""

    __tablename__ = "rating_summaries"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(10), primary_key=True)
    matches: Mapped[int]
    points: Mapped[list[Any]] = mapped_column(JSON)
    """[number, match id, rating shown] per point, oldest first, the last always the latest."""
    mu: Mapped[float] = mapped_column(Float, default=0.0, server_default="0")
    sigma: Mapped[float] = mapped_column(Float, default=0.0, server_default="0")
    """The latest rating's mu and sigma: a leaderboard reads one row per player."""
    match_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """The latest rated match (the leaderboard shows the name its sheet gave the player)."""


class PairTotal(Model):
    """How an account did beside another in the banked matches where both claimed a seat,
    added up: one row per pair and role (Tichu partners apart from opponents). A copy of the
    sums over `seat_figures`, rebuilt with `player_totals` (`statistics.rebuild_totals`), so
    a player's page reads one row per tablemate (never edited by hand)."""

    __tablename__ = "pair_totals"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    other_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    partner: Mapped[bool] = mapped_column(primary_key=True)
    """Tichu partners (the same team); otherwise the other is an opponent."""
    matches: Mapped[int]
    won: Mapped[int]
    """Matches the account won (partners: won together)."""
    ahead: Mapped[int]
    """Matches the account finished ahead of the other."""
    behind: Mapped[int]
    score_difference: Mapped[int]
    """The account's final score less the other's, added up."""
    calls_made: Mapped[int]
    """Tichu and Grand Tichu calls of the two partners that were made (0 for opponents)."""
    calls: Mapped[int]
    """Tichu and Grand Tichu calls of the two partners."""
    last_banked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Notice(Model):
    """Something a player is told once, on their next page, in their language: e.g. that
    someone else claimed, assigned or released their seat. Stored as a kind and its values
    (the words are chosen when it is shown); deleted by the player's next change once shown."""

    __tablename__ = "notices"
    __table_args__ = {"sqlite_autoincrement": True}
    """A browser remembers the last notice it showed by id: an id is never handed out again."""
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(20))
    """`seat_claimed`, `seat_assigned` or `seat_released`."""
    values: Mapped[dict[str, Any]] = mapped_column(JSON)
    """What the words name: the match, the seat's name, who did it."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Event(Model):
    """A club night (CLUB.md §1): its game and options, its rounds, and how it seats them.

    Its standings are derived from the tables' results (each kept with its match,
    `EventTable.match_result`) and the byes, and kept on it (`standings`) by every change that
    alters them, in that change's transaction (`services.club.results.keep_standings`)."""

    __tablename__ = "events"
    __table_args__ = (Index("ix_events_start_key", "created_by_id", "start_key", unique=True),)
    id: Mapped[str] = mapped_column(String(16), primary_key=True, default=new_match_id)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[dict[str, Any]] = mapped_column(JSON)
    """`{"rules", "options"}` every table's match starts with (fixed once round 1 is seated)."""
    rounds: Mapped[int]
    """Rounds planned (1–20); directors may add more."""
    seating: Mapped[str] = mapped_column(String(10))
    """`fours` or `byes` (CLUB.md §3)."""
    hand_limit: Mapped[int | None]
    """A table's match ends after this many hands if nobody has won (None: no limit)."""
    time_limit: Mapped[int | None]
    """Minutes a round's countdown runs on the board (None: no countdown)."""
    seed: Mapped[int] = mapped_column(BigInteger)
    """The draw's seed (CLUB.md §3): round 1, seats and ties are drawn from it."""
    code: Mapped[str] = mapped_column(String(16), unique=True, default=new_join_code)
    """The code players join the roster with."""
    watch_token: Mapped[str] = mapped_column(String(64), unique=True, default=new_watch_token)
    """The board's watch link: whoever holds it sees the board, without an account."""
    reseats: Mapped[int] = mapped_column(default=0)
    """How often the round to be seated next was seated and taken back (CLUB.md §3: a re-seat
    draws again from seed, round and this count)."""
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    start_key: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """The key of the page's form that made this night, one night per key and maker, as a
    match's (`Match.start_key`); None for one made through the API or an import."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    standings: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    """The standings as the engine ranks them now (CLUB.md §5): `{"round": rounds seated,
    "rows": [[place, name, match points, table score, opponents' points (the three in whole
    twelfths: exact), firsts, rounds played, byes], …]}` in standings order. Derived, never the
    truth: computed afresh from the tables' results by every change that alters them, in its
    transaction (`services.club.results.keep_standings`), so reading them ranks nothing;
    migration 0020 filled them."""
    directors: Mapped[list[EventDirector]] = relationship(order_by="EventDirector.id", cascade="all, delete-orphan")
    roster: Mapped[list[EventPlayer]] = relationship(order_by="EventPlayer.id", cascade="all, delete-orphan")
    seated: Mapped[list[EventRound]] = relationship(order_by="EventRound.number", cascade="all, delete-orphan")


class EventDirector(Model):
    """A director of an event: its maker, or a co-director with the same rights."""

    __tablename__ = "event_directors"
    __table_args__ = (UniqueConstraint("event_id", "user_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    user: Mapped[User] = relationship()


class EventPlayer(Model):
    """A roster entry: an account, or a guest name an account can claim later (CLUB.md §1)."""

    __tablename__ = "event_players"
    __table_args__ = (UniqueConstraint("event_id", "name"), UniqueConstraint("event_id", "user_id"))
    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(40))
    """The name on the roster, the tables' seats and the standings."""
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    """The account playing under this name; None: a guest."""
    team: Mapped[str | None] = mapped_column(String(40))
    """Tichu: the team's name, shared by the two partners."""
    status: Mapped[str] = mapped_column(String(10), default="present")
    """`present`, `absent` (for the next round: seating it puts them back, `EventRound.absent`)
    or `dropped` (keeps the results played)."""
    user: Mapped[User | None] = relationship()


class EventRound(Model):
    """A seated round: its tables and byes; `reseats` counts the draws again (CLUB.md §3)."""

    __tablename__ = "event_rounds"
    __table_args__ = (UniqueConstraint("event_id", "number"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    number: Mapped[int]
    reseats: Mapped[int] = mapped_column(default=0)
    repeats: Mapped[int] = mapped_column(default=0)
    """Pairs at its tables who had met before, as the seating found them."""
    byes: Mapped[list[str]] = mapped_column(JSON)
    """The names with a bye this round, in standings order."""
    absent: Mapped[list[str]] = mapped_column(JSON, server_default="[]")
    """The roster's names marked absent for this round (CLUB.md §1: for the next round only),
    back to present once it was seated; taking the round back marks them absent again."""
    seated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """When a director closed the round (its unfinished tables ended), or None."""
    tables: Mapped[list[EventTable]] = relationship(order_by="EventTable.number", cascade="all, delete-orphan")


class EventTable(Model):
    """A table of a round: its ordinary match, or the final scores a director entered by hand."""

    __tablename__ = "event_tables"
    __table_args__ = (UniqueConstraint("round_id", "number"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("event_rounds.id", ondelete="CASCADE"))
    number: Mapped[int]
    players: Mapped[list[str]] = mapped_column(JSON)
    """Roster names in seat order (Tichu: seats 0 and 2 are partners)."""
    match_id: Mapped[str | None] = mapped_column(ForeignKey("matches.id", ondelete="SET NULL"), unique=True)
    """The table's ordinary match (None only if it was deleted since)."""
    entered_scores: Mapped[list[int] | None] = mapped_column(JSON)
    """Final scores entered by hand, in seat order (Tichu: per team): the table's result."""
    entered_by: Mapped[str | None] = mapped_column(String(40))
    """The director who entered them (the name at the time)."""
    match_result: Mapped[list[int] | None] = mapped_column(JSON)
    """Its match's final scores once they count (won, banked or ended; seat order, Tichu per
    team), None while it plays: copied from the match's replay in the transaction of every
    change of the match (`services.club.tables.keep_result`, as `Match.summary`), so the
    standings read no match. Derived, never the truth; migration 0019 filled it."""
    match: Mapped[Match | None] = relationship()


Match.event_hand_limit = column_property(
    select(Event.hand_limit)
    .join(EventRound, EventRound.event_id == Event.id)
    .join(EventTable, EventTable.round_id == EventRound.id)
    .where(EventTable.match_id == Match.id)
    .correlate_except(Event, EventRound, EventTable)
    .scalar_subquery(),
    deferred=True,
)
Match.event_table_id = column_property(
    select(EventTable.id).where(EventTable.match_id == Match.id).correlate_except(EventTable).scalar_subquery(),
    deferred=True,
)
