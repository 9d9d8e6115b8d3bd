"""Brute-force limits (Flask-Limiter) on logging in, registering and joining a match.

Log-ins: only failures count, per address (any username) and per username *and* address pair,
never from a browser that has logged in as that user before (a signed "known device" cookie,
OWASP's device-cookie defence). A username that fails from everywhere more often than
`LOGIN_ATTACK_THRESHOLD` is under attack: each pair then gets the stricter
`LOGIN_LIMIT_UNDER_ATTACK`. Nothing counts per username alone, so guesses from elsewhere never
refuse the real player, who logs in from an address that has not failed (docs/security.md).
Limits are strings such as "10 per minute; 50 per hour", read from the configuration on every
request; the counters live in `RATELIMIT_STORAGE_URI`, which several workers must share.
"""

from __future__ import annotations

import functools
import hashlib
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

from flask import Flask, current_app, make_response, request, session
from flask_limiter.util import get_remote_address
from itsdangerous import BadSignature, URLSafeSerializer
from limits import parse_many
from werkzeug.wrappers import Response

from ..storage.models import fold
from . import request_bodies
from .extensions import limiter
from .security import cookie_name

DEVICE_COOKIE = "known_device"
"""Its name when cookies are not Secure; `__Host-known_device` when they are."""
DEVICE_MAX_AGE = 400 * 24 * 3600
MAX_DEVICE_USERS = 8
SUCCESS = {200, 201, 204, 302, 303}


def check_shared_storage(app: Flask) -> None:
    """Refuse to start one of several workers whose limit counters would be its own: each
    would allow the whole limit, multiplying it by the number of workers."""
    workers = _gunicorn_workers() or int(app.config["WORKERS"])
    storage = str(app.config["RATELIMIT_STORAGE_URI"])
    if workers > 1 and app.config["RATELIMIT_ENABLED"] and storage.startswith("memory:"):
        raise RuntimeError(
            f"Refusing to start: {workers} workers would each keep their own count of log-in "
            f"attempts ({storage}), allowing {workers} times every limit. Give them one shared "
            "store, e.g. RATELIMIT_STORAGE_URI=redis://127.0.0.1:6379/0 (docs/deploy.md), or "
            "run a single worker (WEB_CONCURRENCY=1)."
        )


def _gunicorn_workers() -> int | None:
    """How many workers gunicorn runs, when gunicorn is loading this app (in each worker, or
    in its master with `--preload`): its own settings, however given (`-w`,
    `GUNICORN_CMD_ARGS`, a config file, `WEB_CONCURRENCY`), read from the gunicorn
    application on the stack of the call that builds the app. None under any other server."""
    if "gunicorn" not in sys.modules:
        return None
    from gunicorn.app.base import BaseApplication

    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        loader = frame.f_locals.get("self")
        if isinstance(loader, BaseApplication) and loader.cfg is not None:
            return int(loader.cfg.workers)
        frame = frame.f_back
    return None


def _configured(key: str) -> Callable[[], str]:
    """A limit read from the configuration when the request comes."""
    return lambda: str(current_app.config[key])


def _failed(response: Response) -> bool:
    """The attempt did not succeed (a login page shown again, 400, 401, 404, 409, 422 …)."""
    if request.blueprint == "api" or response.status_code >= 400:
        return response.status_code not in SUCCESS
    return response.status_code not in (302, 303)


def _username_key() -> str:
    """The username a request is about (form or JSON body), case-folded."""
    name: Any = request.form.get("username") if request.form else None
    if name is None and request.is_json:
        data = request_bodies.json_sent()
        name = data.get("username") if isinstance(data, dict) else None
    if not isinstance(name, str) or not name.strip():
        return "(none)"
    return fold(name.strip())[:64]


def _known_device() -> bool:
    """This browser has logged in as the username it now tries (exempt per-username limit)."""
    return _username_key() in _device_users()


def _device_users() -> list[str]:
    """The usernames this browser's device cookie vouches for."""
    raw = request.cookies.get(cookie_name(DEVICE_COOKIE))
    if not raw:
        return []
    try:
        users = _serializer().loads(raw)
    except BadSignature:
        return []
    return [u for u in users if isinstance(u, str)] if isinstance(users, list) else []


def remember_device(response: Response, username: str) -> None:
    """After a successful page log-in: this browser is a known device for `username`."""
    users = [fold(username), *[u for u in _device_users() if u != fold(username)]]
    config = current_app.config
    response.set_cookie(
        cookie_name(DEVICE_COOKIE),
        _serializer().dumps(users[:MAX_DEVICE_USERS]),
        max_age=DEVICE_MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=bool(config["SESSION_COOKIE_SECURE"]),
    )


def _serializer() -> URLSafeSerializer:
    """Signs the device cookie with the app's secret key."""
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt="known-device")


def _pair_key() -> str:
    """The username a log-in tries and the address it comes from."""
    return f"{_username_key()}@{get_remote_address()}"


_ATTACK_SCOPE = "login-username-failures"


def _attack_limits() -> list[Any]:
    """`LOGIN_ATTACK_THRESHOLD` as limit items."""
    return parse_many(str(current_app.config["LOGIN_ATTACK_THRESHOLD"]))


def _under_attack() -> bool:
    """The username a log-in tries failed from everywhere more often than the threshold."""
    if not current_app.config["RATELIMIT_ENABLED"]:
        return False
    key = _username_key()
    return not all(limiter.limiter.test(item, _ATTACK_SCOPE, key) for item in _attack_limits())


def _pair_limit() -> str:
    """The limit per username and address: stricter while the username is under attack."""
    name = "LOGIN_LIMIT_UNDER_ATTACK" if _under_attack() else "LOGIN_LIMIT_PER_USERNAME_AND_ADDRESS"
    return str(current_app.config[name])


def _count_username_failures(view: Callable[..., Any]) -> Callable[..., Any]:
    """Count every failed log-in against its username, from wherever it came."""

    @functools.wraps(view)
    def counted(*args: Any, **kwargs: Any) -> Any:
        response = make_response(view(*args, **kwargs))
        if (
            request.method == "POST"
            and current_app.config["RATELIMIT_ENABLED"]
            and _failed(response)
            and not _known_device()
        ):
            for item in _attack_limits():
                limiter.limiter.hit(item, _ATTACK_SCOPE, _username_key())
        return response

    return counted


def login_limits(view: Callable[..., Any]) -> Callable[..., Any]:
    """Log-in limits (page and API share the counters): failures per address, and per
    username and address (stricter while the username is under attack)."""
    view = _count_username_failures(view)
    view = limiter.shared_limit(
        _pair_limit,
        scope="login-pair",
        key_func=_pair_key,
        methods=["POST"],
        deduct_when=_failed,
        exempt_when=_known_device,
    )(view)
    return limiter.shared_limit(
        _configured("LOGIN_LIMIT_PER_ADDRESS"),
        scope="login-address",
        key_func=get_remote_address,
        methods=["POST"],
        deduct_when=_failed,
    )(view)


def register_limits(view: Callable[..., Any]) -> Callable[..., Any]:
    """Registration limits (page and API share them): every attempt per address, failures
    per username."""
    view = limiter.shared_limit(
        _configured("REGISTER_LIMIT_PER_USERNAME"),
        scope="register-username",
        key_func=_username_key,
        methods=["POST"],
        deduct_when=_failed,
    )(view)
    return limiter.shared_limit(
        _configured("REGISTER_LIMIT_PER_ADDRESS"),
        scope="register-address",
        key_func=get_remote_address,
        methods=["POST"],
    )(view)


def _credential_key() -> str:
    """Who asks to have a password checked again, by the credential the route authenticates
    with: the API's token (its blueprint reads nothing else), a page's session (whatever
    Authorization header comes along, which no page reads)."""
    if request.blueprint == "api":
        _scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        return "token:" + hashlib.sha256(token.strip().encode()).hexdigest()[:32]
    account_and_secret = str(session.get("_user_id", "")).rpartition(":")[0]  # not the issue time
    return f"session:{account_and_secret}"


def password_check_limits(view: Callable[..., Any]) -> Callable[..., Any]:
    """Wrong passwords where one is asked for again (change it, delete the account): a stolen
    session or token cannot be used to guess the password."""
    return limiter.shared_limit(
        _configured("PASSWORD_CHECK_LIMIT"),
        scope="password-check",
        key_func=_credential_key,
        methods=["PUT", "POST", "DELETE"],
        deduct_when=_failed,
    )(view)


def join_limits(view: Callable[..., Any]) -> Callable[..., Any]:
    """Failed join codes per address: guessing codes stays hopeless (docs/security.md)."""
    return limiter.shared_limit(
        _configured("JOIN_LIMIT_PER_ADDRESS"),
        scope="join-address",
        key_func=get_remote_address,
        methods=["POST"],
        deduct_when=_failed,
    )(view)


def join_link_limits(view: Callable[..., Any]) -> Callable[..., Any]:
    """A join link opened with a code that is not there counts as a failed join code (the
    same counter): guessing codes by URL is as hopeless as by form."""
    return limiter.shared_limit(
        _configured("JOIN_LIMIT_PER_ADDRESS"),
        scope="join-address",
        key_func=get_remote_address,
        methods=["GET"],
        deduct_when=lambda response: response.status_code == 404,
    )(view)
