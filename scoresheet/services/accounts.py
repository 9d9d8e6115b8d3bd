"""Accounts: registering, checking passwords, API tokens, and the user of a session."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
import unicodedata
from datetime import timedelta
from functools import cache
from typing import Any

from sqlalchemy import bindparam, func
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import with_expression
from zxcvbn import zxcvbn

from ..config import setting
from ..rules import Malformed, Refused
from ..rules.setup import INVISIBLE, visible
from ..storage import database, passwords
from ..storage.extensions import db
from ..storage.models import (
    ApiToken,
    Match,
    Member,
    Notice,
    Rating,
    User,
    looks_of,
    lookup_name,
    new_session_secret,
    utcnow,
)
from ..words import _
from .club import tables as event_tables
from .errors import Conflict, WrongPassword
from .matches import audit
from .players import ratings

MIN_USERNAME, MAX_USERNAME = 3, 40
USERNAME_SIGNS = frozenset("0123456789._-")
"""What a username may hold besides letters of any alphabet (and their accents)."""
_SCRIPT_MIXES = (
    frozenset({"HAN", "HIRAGANA", "KATAKANA", "LATIN"}),
    frozenset({"HAN", "BOPOMOFO", "LATIN"}),
    frozenset({"HAN", "HANGUL", "LATIN"}),
)
"""The mixes of scripts names are written in (Japanese, Chinese, Korean; UTS #39's "highly
restrictive" level): never refused as an imitation."""
_SYLLABLE_SCRIPTS = frozenset({"HAN", "HIRAGANA", "KATAKANA", "HANGUL", "BOPOMOFO"})
"""Scripts whose one character is a syllable or a word (`明`): a name in them may be shorter."""
MIN_PASSWORD = 8
MAX_PASSWORD = 1024
JUDGED_LENGTH = 72
"""zxcvbn judges the first 72 characters (beyond that any password is strong enough)."""


SESSION_LIFETIME = timedelta(days=30)
"""The longest a log-in lasts ("Stay logged in" included): a session or remember-me cookie
issued earlier is refused, whatever the browser kept."""


def session_parts(session_id: str, now: float | None = None) -> tuple[int, str] | None:
    """The account id and session secret of a session id (`<id>:<secret>:<issued>`,
    `User.get_id`), if it has that shape and was issued within `SESSION_LIFETIME`."""
    parts = session_id.split(":")
    if len(parts) != 3:
        return None
    user_id, secret, issued = parts
    if not (user_id.isascii() and user_id.isdigit() and len(user_id) <= 10 and int(user_id) <= 2**31 - 1):
        return None
    if not (issued.isascii() and issued.isdigit() and len(issued) <= 12) or not secret:
        return None
    age = (time.time() if now is None else now) - int(issued)
    if not -60 <= age <= SESSION_LIFETIME.total_seconds():
        return None  # issued too long ago (or in the future)
    return int(user_id), secret


def load_user(session_id: str) -> User | None:
    """The user of a session id (`<id>:<secret>:<issued>`, Flask-Login's user loader), unless
    the user has logged out everywhere or changed the password since (a new secret), the
    account is gone (ids are never handed out again), or it was issued over 30 days ago."""
    parts = session_parts(session_id)
    if parts is None:
        return None
    user: User | None = db.session.execute(_user_by_id(), {"user_id": parts[0]}).scalar_one_or_none()
    if user is None or not same_secret(user.session_secret, parts[1]):
        return None
    return user


def same_secret(stored: str, given: str) -> bool:
    """Whether a session's secret is the account's (compared in constant time)."""
    return hmac.compare_digest(stored.encode(), given.encode())


@cache
def _user_by_id() -> Any:
    """The query of `load_user`, built once: `session.get` builds its look-up anew for every
    request, about 0.1 ms of CPU on every logged-in page (docs/performance.md). With the user,
    the id of their newest notice (`User.newest_notice`): most pages then ask nothing more."""
    newest = db.select(func.coalesce(func.max(Notice.id), 0)).where(Notice.user_id == User.id).scalar_subquery()
    return db.select(User).where(User.id == bindparam("user_id")).options(with_expression(User.newest_notice, newest))


def register(username: object, password: object, language: str | None = None) -> User:
    """Create an account, in `language` if one was chosen before it (the page's language
    switch), in one commit; raises Malformed/Refused naming the field, Conflict if taken."""
    user, _token = _registered(username, password, with_token=False, language=language)
    return user


def register_with_token(username: object, password: object) -> tuple[User, str]:
    """`register`, and the account's first API token in the same transaction (the API's
    sign-up: never an account whose token was lost)."""
    user, token = _registered(username, password, with_token=True)
    assert token is not None
    return user, token


def _registered(
    username: object, password: object, with_token: bool, language: str | None = None
) -> tuple[User, str | None]:
    """The account checked and written (with a first token if asked) in one commit."""
    if not isinstance(username, str):
        raise Malformed("username", _("The username must be text."))
    if not isinstance(password, str):
        raise Malformed("password", _("The password must be text."))
    username = unicodedata.normalize("NFC", username)
    # (a filler is a letter to Unicode: "anna\u3164" would sit beside anna on a sheet; an
    # account made before keeps it, so logging in does not ask this)
    shows_nothing = any(c in INVISIBLE for c in username)
    if shows_nothing and visible(username):
        raise Refused(
            "username",
            _("“%(name)s” holds a character that shows nothing: type the name again without it.", name=username),
        )
    if not username_allowed(username) or shows_nothing:
        raise Refused(
            "username",
            _(
                "A username has 3 to 40 characters (one or two are enough in Chinese, Japanese or "
                "Korean): letters of any alphabet, digits, “.”, “_” or “-”."
            ),
        )
    if imitates(username):
        raise Refused(
            "username",
            _(
                "“%(name)s” mixes letters of alphabets that look alike, so it could pass for another "
                "name: write its letters in one alphabet (digits, “.”, “_” and “-” may go with them).",
                name=username,
            ),
        )
    password_hash = passwords.hashed(_check_new_password(password, username, "password"))
    if find_user(username) is not None:
        raise Conflict(taken(username), "username")
    twin = db.session.execute(db.select(User.username).where(User.username_looks == looks_of(username))).scalar()
    if twin is not None:  # "Норе" or "НОРЕ", all in Cyrillic, beside the account Hope
        raise Conflict(
            _("“%(name)s” looks just like the username “%(other)s”: choose another.", name=username, other=twin),
            "username",
        )
    user = User(username=username, password_hash=password_hash, language=language)
    db.session.add(user)
    try:
        token = _new_token(user) if with_token else None
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise Conflict(taken(username), "username") from None
    return user, token


def username_allowed(username: str) -> bool:
    """3 to 40 characters (1 to 40 if every letter is Chinese, Japanese or Korean), each a
    letter of any alphabet (with its accents, in NFC), a digit 0–9, “.”, “_” or “-”; an accent
    never comes first."""
    if not 0 < len(username) <= MAX_USERNAME or unicodedata.category(username[0]).startswith("M"):
        return False
    if not all(c in USERNAME_SIGNS or unicodedata.category(c)[0] in "LM" for c in username):
        return False
    scripts = _scripts(username)
    return len(username) >= (1 if scripts and scripts <= _SYLLABLE_SCRIPTS else MIN_USERNAME)


def look_alike_refusal(name: str) -> str | None:
    """Why `name` cannot be a player's (at a match, a night's guest or team): it mixes
    look-alike letters of two alphabets (a keyboard's layout switched mid-name: “Aня” would
    stand beside “Аня” as one name twice); None if it does not."""
    if not imitates(name):
        return None
    return _(
        "“%(name)s” mixes letters of alphabets that look alike, so it could pass for another "
        "name: write its letters in one alphabet.",
        name=name,
    )


def imitates(name: str) -> bool:
    """The name (an account's, a night's guest's) mixes scripts and a letter of one looks like
    a letter of another (a Latin “a” among Cyrillic ones): Unicode's confusables data, kept by
    confusable_homoglyphs."""
    scripts = _scripts(name)
    if len(scripts) < 2 or any(scripts <= mix for mix in _SCRIPT_MIXES):
        return False
    from confusable_homoglyphs import confusables  # its 1 MB table: only for a name of mixed scripts

    return bool(confusables.is_dangerous(name))


def _scripts(text: str) -> set[str]:
    """The scripts of a text's letters (`LATIN`, `CYRILLIC`, `HAN` …), as Unicode names them."""
    if text.isascii():  # most names: no table needed
        return {"LATIN"} if any(c.isalpha() for c in text) else set()
    from confusable_homoglyphs import categories  # loaded with the first such name, not at start

    return {categories.alias(c) for c in text} - {"COMMON", "INHERITED"}


def taken(username: str) -> str:
    """The refusal of a username someone else has."""
    return _("The username “%(name)s” is taken: choose another.", name=username)


def _check_new_password(password: str, username: str, field: str) -> str:
    """The password, if it may be chosen: 8–1024 characters of text and not easy to guess
    (zxcvbn's score, which knows the commonly used passwords, at least PASSWORD_MIN_STRENGTH;
    no network call). Raises Refused/Malformed naming `field`."""
    if len(password) < MIN_PASSWORD:
        raise Refused(field, _("A password needs at least %(num)d characters.", num=MIN_PASSWORD))
    if len(password) > MAX_PASSWORD:
        raise Refused(field, _("A password has at most %(num)d characters.", num=MAX_PASSWORD))
    if not _encodable(password):
        raise Malformed(field, _("The password holds characters that are not text."))
    strength = zxcvbn(password[:JUDGED_LENGTH], user_inputs=[username])["score"]
    if strength < setting("PASSWORD_MIN_STRENGTH"):
        raise Refused(
            field,
            _(
                "This password is too easy to guess: it is a commonly used one "
                "or close to one. Add another word or two — four ordinary words "
                "make a good password."
            ),
        )
    return password


def find_user(username: str) -> User | None:
    """The user with this username, ignoring case (None for what no username can be)."""
    folded = lookup_name(username)
    if folded is None:
        return None
    return db.session.execute(db.select(User).where(User.username_folded == folded)).scalar_one_or_none()


def authenticate(username: object, password: object) -> User | None:
    """The user if the username and password match, else None."""
    if not isinstance(username, str) or not isinstance(password, str) or not _encodable(password):
        return None
    with database.read_only():  # no write lock, and no transaction open during the hash
        user = find_user(username) if username_allowed(unicodedata.normalize("NFC", username)) else None
    if user is None:
        passwords.match_nobody(password)
        return None
    return user if passwords.matches(user.password_hash, password) else None


def _encodable(text: str) -> bool:
    """The text can be hashed: no lone surrogates (JSON's "\\ud800" decodes to one)."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def token_hash(token: str) -> str:
    """What is stored of a token: its SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


def create_token(user: User) -> str:
    """A new API token for the user; only its hash is kept."""
    token = _new_token(user)
    db.session.commit()
    return token


def _new_token(user: User) -> str:
    """`create_token`'s token, added to the session (the user written first, for its id)."""
    db.session.flush()
    token = secrets.token_urlsafe(32)
    db.session.add(ApiToken(user_id=user.id, token_hash=token_hash(token)))
    return token


LIVE_TOKEN = (ApiToken.token_hash == bindparam("token_hash")) & (ApiToken.created_at > bindparam("made_after"))
"""The token row sent, made within its lifetime (its values: `token_values`)."""


def token_values(token: str) -> dict[str, Any]:
    """The values `LIVE_TOKEN` is bound to for a token: its hash, and the oldest a token may be
    made (`API_TOKEN_DAYS`: tokens have a lifetime, docs/security.md)."""
    return {"token_hash": token_hash(token), "made_after": utcnow() - timedelta(days=int(setting("API_TOKEN_DAYS")))}


def user_for_token(token: str) -> User | None:
    """The user an API token belongs to, or None (also once the token is past its lifetime)."""
    found: User | None = db.session.execute(_user_by_token(), token_values(token)).scalar_one_or_none()
    return found  # one query: most API calls start here (`queries.match_for_token`: the others)


@cache
def _user_by_token() -> Any:
    """The query of `user_for_token`, built once (as `_user_by_id`)."""
    return db.select(User).join(ApiToken, ApiToken.user_id == User.id).where(LIVE_TOKEN)


def revoke_token(token: str) -> None:
    """Make an API token stop working."""
    db.session.execute(db.delete(ApiToken).where(ApiToken.token_hash == token_hash(token)))
    db.session.commit()


def end_sessions(user: User) -> None:
    """Log the user out of every browser: every session and remember-me cookie carries the
    account's old secret, and it has a new one. API tokens are separate and keep working."""
    user.session_secret = new_session_secret()
    db.session.commit()


def logout_everywhere(user: User, keep_token: str | None = None) -> None:
    """End every session, remember-me cookie and API token of the user (but `keep_token`)."""
    tokens = db.delete(ApiToken).where(ApiToken.user_id == user.id)
    if keep_token is not None:
        tokens = tokens.where(ApiToken.token_hash != token_hash(keep_token))
    db.session.execute(tokens)
    end_sessions(user)


def _verify_password(user: User, password: object, field: str, message: str) -> None:
    """Raise WrongPassword (naming `field`) unless this is the user's password. No
    transaction, so no SQLite write lock, is held during the hash."""
    db.session.commit()
    if not isinstance(password, str) or not _encodable(password) or not passwords.matches(user.password_hash, password):
        raise WrongPassword(message, field)


def change_password(user: User, current: object, new: str, keep_token: str | None = None) -> None:
    """Change the password after checking the current one (a new one equal to it is refused:
    nothing would change but the other phones' log-ins); every session, remember-me cookie
    and API token ends but `keep_token` (the caller logs its own browser in again)."""
    _verify_password(user, current, "current_password", _("That is not your current password."))
    if new == current:
        raise Refused("new_password", _("The new password is your current one: choose another."))
    user.password_hash = passwords.hashed(_check_new_password(new, user.username, "new_password"))
    logout_everywhere(user, keep_token)


def delete_account(user: User, password: object) -> None:
    """Delete the account after checking its password: its tokens and sessions end, the
    matches it played stay as they were for their other members (each with a history entry
    saying so), and a match nobody is left in is deleted (with its hands and history)."""
    _verify_password(user, password, "password", _("That is not your password."))
    rated_since = db.session.execute(
        db.select(Rating.game, func.min(Rating.banked_at)).where(Rating.user_id == user.id).group_by(Rating.game)
    ).all()
    played = list(db.session.execute(db.select(Member.match_id).where(Member.user_id == user.id)).scalars())
    db.session.execute(db.delete(Member).where(Member.user_id == user.id))
    others_left = db.select(Member.id).where(Member.match_id == Match.id).exists()
    for shared in db.session.execute(db.select(Match).where(Match.id.in_(played), others_left)).scalars():
        audit.log(shared, user, "account_deleted")  # by name: the entry outlives the account
        shared.revision += 1  # the other phones' members and who is who follow
    gone = list(db.session.execute(db.select(Match.id).where(Match.id.in_(played), ~others_left)).scalars())
    with event_tables.deleting(gone):  # a club night's table gone: its standings without it
        db.session.execute(db.delete(Match).where(Match.id.in_(gone)))
    db.session.execute(db.delete(ApiToken).where(ApiToken.user_id == user.id))
    db.session.execute(db.delete(User).where(User.id == user.id))
    for game, since in rated_since:  # its seats are guests' now: the others rated as beside guests
        ratings.rate_from(game, since)
    db.session.commit()
