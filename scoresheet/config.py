"""Every setting of the app in one place: the defaults, what the environment may set, and the
instance folder's `config.py`; and where the package's folders are.

`create_app(config)` applies them in this order, each over the one before: `DEFAULTS`, the
instance folder's `config.py`, the environment (`ENVIRONMENT`), the `config` argument.
docs/deploy.md's table of settings names exactly the variables of `ENVIRONMENT`
(tests/test_config.py compares them).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask, current_app

_PACKAGE = Path(__file__).resolve().parent

DEFAULT_PASSWORD_HASH = "scrypt:32768:8:3"
"""OWASP-strength scrypt (werkzeug's own default parameters are weaker)."""

RATE_LIMITS: dict[str, Any] = {
    "RATELIMIT_ENABLED": True,
    "RATELIMIT_STORAGE_URI": "memory://",
    "RATELIMIT_HEADERS_ENABLED": True,
    "LOGIN_LIMIT_PER_ADDRESS": "10 per minute; 60 per hour",
    "LOGIN_LIMIT_PER_USERNAME_AND_ADDRESS": "5 per 15 minutes",
    "LOGIN_ATTACK_THRESHOLD": "30 per hour",
    "LOGIN_LIMIT_UNDER_ATTACK": "1 per 15 minutes",
    "REGISTER_LIMIT_PER_ADDRESS": "5 per minute; 20 per hour",
    "REGISTER_LIMIT_PER_USERNAME": "10 per 15 minutes",
    "JOIN_LIMIT_PER_ADDRESS": "20 per minute; 100 per hour",
    "PASSWORD_CHECK_LIMIT": "5 per 15 minutes",
}
"""The limits on guessing (web/limits.py): strings such as "10 per minute; 50 per hour"."""

LANGUAGES = {"en": "English", "ru": "Русский", "uk": "Українська", "pl": "Polski", "de": "Deutsch"}
"""The languages the app speaks, each in its own words (the switch shows them so; never translated)."""

DEFAULTS: dict[str, Any] = {
    "LANGUAGES": list(LANGUAGES),
    "MAX_CONTENT_LENGTH": 64 * 1024,
    "PASSWORD_HASH_METHOD": DEFAULT_PASSWORD_HASH,
    "PASSWORD_MIN_STRENGTH": 3,  # zxcvbn's 0–4: 3 refuses common passwords, takes passphrases
    "SQLITE_BUSY_TIMEOUT_MS": 10_000,
    "DATABASE_AUTO_UPGRADE": True,
    "TRUSTED_PROXIES": 0,  # reverse proxies in front that set X-Forwarded-* (docs/deploy.md)
    "WTF_CSRF_TIME_LIMIT": None,
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Lax",
    "SESSION_COOKIE_SECURE": None,  # None: decided by web/security.py's configure_cookies
    "SCORESHEET_INSECURE_COOKIES": False,
    "LIVE_PUSH": None,  # None: pushed under `flask run`, else polled (web/live/push.py)
    "LIVE_FEED": "auto",  # auto: PostgreSQL's change feed (LISTEN/NOTIFY), else polled; poll: polled
    "PUSH_EVERY": 0.5,
    "PUSH_HEARTBEAT": 5.0,
    "PUSH_STREAM_SECONDS": 300.0,
    "WORKERS": 1,
    "PUBLIC_URL": "",  # e.g. https://scores.example.org: join and watch links use it, not the Host
    "API_TOKEN_DAYS": 90,  # an API token stops working this many days after it was made
    **RATE_LIMITS,
}
"""Every setting's default but the database's and the secret key's, which depend on the instance
folder (`load` sets them)."""

FALSE_WORDS = frozenset({"0", "false", "no", "off"})
"""What turns a yes-or-no variable off (set to anything else, it is on)."""


def _flag(value: str) -> bool:
    return value.strip().lower() not in FALSE_WORDS


ENVIRONMENT: dict[str, tuple[str, Callable[[str], Any]]] = {
    "DATABASE_URL": ("SQLALCHEMY_DATABASE_URI", str),
    "SECRET_KEY": ("SECRET_KEY", str),
    "TRUSTED_PROXIES": ("TRUSTED_PROXIES", int),
    "RATELIMIT_STORAGE_URI": ("RATELIMIT_STORAGE_URI", str),  # e.g. redis://… shared by every worker
    "SESSION_COOKIE_SECURE": ("SESSION_COOKIE_SECURE", _flag),
    "SCORESHEET_INSECURE_COOKIES": ("SCORESHEET_INSECURE_COOKIES", _flag),
    "LIVE_PUSH": ("LIVE_PUSH", _flag),  # set by gunicorn.conf.py for workers that hold connections
    "LIVE_FEED": ("LIVE_FEED", str),  # poll: behind a pooler that cannot LISTEN (web/live/push.py)
    "WEB_CONCURRENCY": ("WORKERS", int),
    "SCORESHEET_WORKERS": ("WORKERS", int),  # set by gunicorn.conf.py: its number of workers
    "PUBLIC_URL": ("PUBLIC_URL", str),
    "API_TOKEN_DAYS": ("API_TOKEN_DAYS", int),
}
"""The environment variables the app reads, each with the setting it sets and how its text is
read; an unset or empty variable sets nothing (a later one of the same setting wins)."""


def load(app: Flask, overrides: dict[str, Any]) -> None:
    """Configure `app` from the sources above, in their order."""
    app.config.from_mapping(SQLALCHEMY_DATABASE_URI=default_database_url(app.instance_path), **DEFAULTS)
    app.config.from_pyfile("config.py", silent=True)
    for variable, (key, read) in ENVIRONMENT.items():
        if os.environ.get(variable):
            app.config[key] = read(os.environ[variable])
    app.config.update(overrides)
    app.config["SQLALCHEMY_DATABASE_URI"] = psycopg_url(app.config["SQLALCHEMY_DATABASE_URI"])
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret_key(app.instance_path)


def default_database_url(instance_path: str) -> str:
    """The database when none is configured: SQLite in the instance folder."""
    return "sqlite:///" + os.path.join(instance_path, "scoresheet.sqlite")


def from_environment(variable: str) -> bool:
    """Whether the environment sets `variable` (of `ENVIRONMENT`): where a setting came from."""
    return bool(os.environ.get(variable))


def setting(key: str) -> Any:
    """A setting of the app at work (for the layers that take no app as an argument)."""
    return current_app.config[key]


def folder(name: str) -> str:
    """The folder `name` (`templates`, `static`, `migrations`) inside the installed package (a
    wheel), else beside it (a checkout).

    A wheel carries the top-level folders inside the package (pyproject.toml's force-include);
    an editable install or a plain checkout reads them where they stand in the repository.
    """
    inside = _PACKAGE / name
    return str(inside if inside.is_dir() else _PACKAGE.parent / name)


def psycopg_url(url: str) -> str:
    """Point `postgres://` and `postgresql://` URLs at the psycopg 3 driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _instance_secret_key(instance_path: str) -> str:
    """The secret key kept in the instance folder, generated (mode 0600) on first start."""
    path = os.path.join(instance_path, "secret_key")
    if not os.path.exists(path):
        # Write a private temporary file, then link it into place: of several workers starting
        # at once, exactly one key wins and nobody ever reads a half-written file.
        tmp = f"{path}.{os.getpid()}.{secrets.token_hex(4)}"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(secrets.token_hex(32))
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
        finally:
            os.unlink(tmp)
    with open(path, encoding="ascii") as f:
        return f.read().strip()
