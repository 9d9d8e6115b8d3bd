"""Accounts: registering, checking passwords, API tokens, and the Flask-Login session loader."""

from __future__ import annotations

import hashlib
import re
import secrets

from flask import Flask, current_app
from flask_babel import gettext as _
from sqlalchemy.exc import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash

from . import database
from .errors import Conflict
from .extensions import db, login_manager
from .models import ApiToken, User, fold
from .rules import Malformed, Refused

USERNAME = re.compile(r"[A-Za-z0-9._-]{3,40}")
MIN_PASSWORD = 8
MAX_PASSWORD = 1024
DUMMY_HASH: dict[str, str] = {}
"""A hash per method to check against when the user does not exist (same time either way)."""


def init_app(app: Flask) -> None:
    """Nothing to bind yet; the session loader is registered on import."""


@login_manager.user_loader
def load_user(session_id: str) -> User | None:
    """The user of a session, unless the user has logged out everywhere since."""
    user_id, _sep, version = session_id.partition(":")
    if not user_id.isdigit() or not version.isdigit():
        return None
    user = db.session.get(User, int(user_id))
    if user is None or user.session_version != int(version):
        return None
    return user


def register(username: object, password: object) -> User:
    """Create an account; raises Malformed/Refused naming the field, Conflict if taken."""
    if not isinstance(username, str):
        raise Malformed("username", _("The username must be text."))
    if not isinstance(password, str):
        raise Malformed("password", _("The password must be text."))
    if not USERNAME.fullmatch(username):
        raise Refused("username", _("A username has 3 to 40 characters: letters, digits, "
                                    "“.”, “_” or “-”."))
    if len(password) < MIN_PASSWORD:
        raise Refused("password", _("A password needs at least %(num)d characters.",
                                    num=MIN_PASSWORD))
    if len(password) > MAX_PASSWORD:
        raise Refused("password", _("A password has at most %(num)d characters.",
                                    num=MAX_PASSWORD))
    if not encodable(password):
        raise Malformed("password", _("The password holds characters that are not text."))
    password_hash = hash_password(password)  # before any query: no transaction waits on it
    if find_user(username) is not None:
        raise Conflict(taken(username), "username")
    user = User(username=username, password_hash=password_hash)
    db.session.add(user)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise Conflict(taken(username), "username") from None
    return user


def taken(username: str) -> str:
    """The refusal of a username someone else has."""
    return _("The username “%(name)s” is taken: choose another.", name=username)


def find_user(username: str) -> User | None:
    """The user with this username, ignoring case."""
    return db.session.execute(
        db.select(User).where(User.username_folded == fold(username))
    ).scalar_one_or_none()


def hash_password(password: str) -> str:
    """Hash a password with the configured method (scrypt at OWASP strength by default)."""
    return generate_password_hash(password, method=current_app.config["PASSWORD_HASH_METHOD"])


def authenticate(username: object, password: object) -> User | None:
    """The user if the username and password match, else None."""
    if not isinstance(username, str) or not isinstance(password, str) or not encodable(password):
        return None
    with database.read_only():  # no write lock, and no transaction open during the hash
        user = find_user(username) if USERNAME.fullmatch(username) else None
    if user is None:
        method = current_app.config["PASSWORD_HASH_METHOD"]
        if method not in DUMMY_HASH:
            DUMMY_HASH[method] = generate_password_hash(secrets.token_hex(8), method=method)
        check_password_hash(DUMMY_HASH[method], password)
        return None
    return user if check_password_hash(user.password_hash, password) else None


def encodable(text: str) -> bool:
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
    token = secrets.token_urlsafe(32)
    db.session.add(ApiToken(user_id=user.id, token_hash=token_hash(token)))
    db.session.commit()
    return token


def user_for_token(token: str) -> User | None:
    """The user an API token belongs to, or None."""
    return db.session.execute(  # one query: every API call starts here
        db.select(User).join(ApiToken, ApiToken.user_id == User.id)
        .where(ApiToken.token_hash == token_hash(token))
    ).scalar_one_or_none()


def revoke_token(token: str) -> None:
    """Make an API token stop working."""
    db.session.execute(db.delete(ApiToken).where(ApiToken.token_hash == token_hash(token)))
    db.session.commit()


def end_sessions(user: User) -> None:
    """Log the user out of every browser: each session's version is now out of date.
    API tokens are separate and keep working."""
    db.session.execute(db.update(User).where(User.id == user.id)
                       .values(session_version=User.session_version + 1))
    db.session.commit()


def logout_everywhere(user: User) -> None:
    """End every session of the user (and every API token)."""
    user.session_version += 1
    db.session.execute(db.delete(ApiToken).where(ApiToken.user_id == user.id))
    db.session.commit()
