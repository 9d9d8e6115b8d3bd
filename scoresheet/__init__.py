"""The Tysiacha scoresheet web app: `create_app` builds it (flaskr-style factory)."""

from __future__ import annotations

import os
import secrets
from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from .storage.folders import folder
from .web.limits import DEFAULTS as RATE_LIMITS

DEFAULT_PASSWORD_HASH = "scrypt:32768:8:3"
"""OWASP-strength scrypt (werkzeug's own default parameters are weaker)."""


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app; keys in `config` override every other source of configuration."""
    config = dict(config or {})
    app = Flask(
        __name__,
        instance_relative_config=True,
        instance_path=config.pop("INSTANCE_PATH", None),
        template_folder=folder("templates"),
        static_folder=folder("static"),
    )
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI="sqlite:///" + os.path.join(app.instance_path, "scoresheet.sqlite"),
        MAX_CONTENT_LENGTH=64 * 1024,
        PASSWORD_HASH_METHOD=DEFAULT_PASSWORD_HASH,
        PASSWORD_MIN_STRENGTH=3,  # zxcvbn's 0–4: 3 refuses common passwords, takes passphrases
        SQLITE_BUSY_TIMEOUT_MS=10_000,
        DATABASE_AUTO_UPGRADE=True,
        TRUSTED_PROXIES=0,  # reverse proxies in front that set X-Forwarded-* (docs/deploy.md)
        WTF_CSRF_TIME_LIMIT=None,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=None,  # None: decided in security.configure_cookies
        **RATE_LIMITS,
    )
    app.config.from_pyfile("config.py", silent=True)
    if os.environ.get("DATABASE_URL"):
        app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["DATABASE_URL"]
    if os.environ.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ["SECRET_KEY"]
    if os.environ.get("TRUSTED_PROXIES"):
        app.config["TRUSTED_PROXIES"] = int(os.environ["TRUSTED_PROXIES"])
    if os.environ.get("RATELIMIT_STORAGE_URI"):  # e.g. redis://… shared by every worker
        app.config["RATELIMIT_STORAGE_URI"] = os.environ["RATELIMIT_STORAGE_URI"]
    if os.environ.get("LIVE_PUSH"):  # set by gunicorn.conf.py for workers that hold connections
        app.config["LIVE_PUSH"] = os.environ["LIVE_PUSH"] not in ("", "0")
    app.config.update(config)
    app.config["SQLALCHEMY_DATABASE_URI"] = psycopg_url(app.config["SQLALCHEMY_DATABASE_URI"])
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret_key(app.instance_path)

    from . import storage, web

    storage.init_app(app)
    web.init_app(app)

    if app.config["TRUSTED_PROXIES"]:
        hops = int(app.config["TRUSTED_PROXIES"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)  # type: ignore[method-assign]

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        """Liveness check: the app answers."""
        return {"status": "ok"}

    return app


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
