"""The web layer's Flask extensions, created unbound and bound to an app in `web.init_app`:
CSRF protection, the log-in session, the limits on guessing; and what an app keeps for itself
once made (`kept`)."""

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from flask import current_app
from flask_babel import lazy_gettext as _l
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import LoginManager
from flask_wtf.csrf import CSRFProtect


class _LoginManager(LoginManager):
    """Flask-Login's, but a remember-me cookie that is not ASCII is no cookie at all (its
    signature check would raise a TypeError: a 500 on every page, the error page too)."""

    def _load_user_from_remember_cookie(self, cookie: Any) -> Any:
        if not isinstance(cookie, str) or not cookie.isascii():
            return None
        return super()._load_user_from_remember_cookie(cookie)


csrf = CSRFProtect()
login_manager = _LoginManager()
login_manager.login_view = "pages.login"
login_manager.login_message = _l("Log in to see that page.")
limiter = Limiter(key_func=get_remote_address)
"""Brute-force limits on logging in, registering and joining (see `limits.py`)."""


@limiter.request_filter
def _limits_off() -> bool:
    """Whether the app serving this request has its limits off. The one `limiter` keeps the
    `RATELIMIT_ENABLED` of the last app bound to it: asked per request, an app with its limits
    off is never limited, whichever app of the process was bound last (a test suite's, the
    browser tests' served app among them). The other way round does not hold: an app with its
    limits on, bound before one with them off, is no longer limited; a deployment binds one
    app a process."""
    return not current_app.config["RATELIMIT_ENABLED"]


_Made = TypeVar("_Made")


def kept(cache: str, key: Hashable, make: Callable[[], _Made], most: int | None = None) -> _Made:
    """What `make()` returns, made once per app and `key` and kept by the app in its `cache`:
    words and URLs that change only with a deployment (every page asks for them), or with
    `most` a cache of at most that many (emptied when full: keys that are data, such as a
    player's figures). While the templates reload (debug), made afresh every time."""
    if current_app.jinja_env.auto_reload:
        return make()
    found: dict[Hashable, Any] = current_app.extensions.setdefault(cache, {})
    value = found.get(key, found)  # the dict itself: nothing kept under this key
    if value is found:
        value = make()
        if most is not None and len(found) >= most:
            found.clear()  # (another thread may empty it too: what it made is returned anyway)
        found[key] = value
    return value
