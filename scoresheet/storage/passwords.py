"""How a password is kept: werkzeug's salted hash with the configured method
(`PASSWORD_HASH_METHOD`: scrypt at OWASP strength by default), never the password itself."""

from __future__ import annotations

import secrets

from flask import current_app
from werkzeug.security import check_password_hash, generate_password_hash

_NOBODY: dict[str, str] = {}
"""A hash per method to check against when there is no such account (the same time either way)."""


def hashed(password: str) -> str:
    """What is stored of a new password."""
    return generate_password_hash(password, method=current_app.config["PASSWORD_HASH_METHOD"])


def matches(password_hash: str, password: str) -> bool:
    """Whether `password` is the one `password_hash` was made from."""
    return check_password_hash(password_hash, password)


def match_nobody(password: str) -> None:
    """Spend the time a check of `password` takes, for a username no account has (so the time
    of a refusal tells nothing)."""
    method = current_app.config["PASSWORD_HASH_METHOD"]
    if method not in _NOBODY:
        _NOBODY[method] = generate_password_hash(secrets.token_hex(8), method=method)
    check_password_hash(_NOBODY[method], password)
