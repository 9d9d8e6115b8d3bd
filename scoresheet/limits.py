"""Brute-force limits (Flask-Limiter) on logging in, registering and joining a match.

Per address every attempt counts that did not succeed; per username only failures count, in a
moderate window, and never from a browser that has logged in as that user before (a signed
"known device" cookie, OWASP's device-cookie defence): an attacker can slow guessing down to a
crawl but cannot lock the real player out of their own phone. Limits are strings such as
"10 per minute; 50 per hour", read from the configuration on every request.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import current_app, request
from flask_limiter.util import get_remote_address
from itsdangerous import BadSignature, URLSafeSerializer
from werkzeug.wrappers import Response

from .extensions import limiter

DEFAULTS = {
    "RATELIMIT_ENABLED": True,
    "RATELIMIT_STORAGE_URI": "memory://",
    "RATELIMIT_HEADERS_ENABLED": True,
    "LOGIN_LIMIT_PER_ADDRESS": "10 per minute; 60 per hour",
    "LOGIN_LIMIT_PER_USERNAME": "10 per 15 minutes",
    "REGISTER_LIMIT_PER_ADDRESS": "5 per minute; 20 per hour",
    "REGISTER_LIMIT_PER_USERNAME": "10 per 15 minutes",
    "JOIN_LIMIT_PER_ADDRESS": "20 per minute; 100 per hour",
}
DEVICE_COOKIE = "known_device"
DEVICE_MAX_AGE = 400 * 24 * 3600
MAX_DEVICE_USERS = 8
SUCCESS = {200, 201, 204, 302, 303}


def configured(key: str) -> Callable[[], str]:
    """A limit read from the configuration when the request comes."""
    return lambda: str(current_app.config[key])


def failed(response: Response) -> bool:
    """The attempt did not succeed (a login page shown again, 400, 401, 404, 409, 422 …)."""
    if request.blueprint == "api" or response.status_code >= 400:
        return response.status_code not in SUCCESS
    return response.status_code not in (302, 303)


def username_key() -> str:
    """The username a request is about (form or JSON body), case-folded."""
    name: Any = request.form.get("username") if request.form else None
    if name is None and request.is_json:
        try:
            data = request.get_json(silent=True)
        except RecursionError:
            data = None
        name = data.get("username") if isinstance(data, dict) else None
    if not isinstance(name, str) or not name.strip():
        return "(none)"
    return name.strip().lower()[:64]


def known_device() -> bool:
    """This browser has logged in as the username it now tries (exempt per-username limit)."""
    return username_key() in device_users()


def device_users() -> list[str]:
    """The usernames this browser's device cookie vouches for."""
    raw = request.cookies.get(DEVICE_COOKIE)
    if not raw:
        return []
    try:
        users = serializer().loads(raw)
    except BadSignature:
        return []
    return [u for u in users if isinstance(u, str)] if isinstance(users, list) else []


def remember_device(response: Response, username: str) -> None:
    """After a successful page log-in: this browser is a known device for `username`."""
    users = [username.lower(), *[u for u in device_users() if u != username.lower()]]
    config = current_app.config
    response.set_cookie(DEVICE_COOKIE, serializer().dumps(users[:MAX_DEVICE_USERS]),
                        max_age=DEVICE_MAX_AGE, httponly=True, samesite="Lax",
                        secure=bool(config["SESSION_COOKIE_SECURE"]))


def serializer() -> URLSafeSerializer:
    """Signs the device cookie with the app's secret key."""
    return URLSafeSerializer(current_app.secret_key, salt="known-device")


def login_limits(view: Callable[..., Any]) -> Callable[..., Any]:
    """Log-in limits (page and API share the counters): per address, per username."""
    view = limiter.shared_limit(configured("LOGIN_LIMIT_PER_USERNAME"), scope="login-username",
                                key_func=username_key, methods=["POST"], deduct_when=failed,
                                exempt_when=known_device)(view)
    return limiter.shared_limit(configured("LOGIN_LIMIT_PER_ADDRESS"), scope="login-address",
                                key_func=get_remote_address, methods=["POST"],
                                deduct_when=failed)(view)


def register_limits(view: Callable[..., Any]) -> Callable[..., Any]:
    """Registration limits (page and API share them): every attempt per address, failures
    per username."""
    view = limiter.shared_limit(configured("REGISTER_LIMIT_PER_USERNAME"),
                                scope="register-username", key_func=username_key,
                                methods=["POST"], deduct_when=failed)(view)
    return limiter.shared_limit(configured("REGISTER_LIMIT_PER_ADDRESS"),
                                scope="register-address", key_func=get_remote_address,
                                methods=["POST"])(view)


def join_limits(view: Callable[..., Any]) -> Callable[..., Any]:
    """Failed join codes per address: guessing codes stays hopeless (docs/security.md)."""
    return limiter.shared_limit(configured("JOIN_LIMIT_PER_ADDRESS"), scope="join-address",
                                key_func=get_remote_address, methods=["POST"],
                                deduct_when=failed)(view)
