"""The web layer: the blueprints (pages, API, club nights and their pages, live updates, offline,
invite, players, account, guide, recovery, language), the errors mapped to answers, and what every request
goes through."""

from __future__ import annotations

from flask import Flask

from ..services import accounts
from . import assets, errors, i18n, limits, notices, security, template_globals
from .account import routes as account
from .api import routes as api
from .club import routes as club
from .extensions import csrf, limiter, login_manager
from .guide import routes as guide
from .invite import routes as invite
from .language import routes as language
from .live import push, quick_poll
from .live import routes as live
from .nights import routes as nights
from .offline import routes as offline
from .pages import routes as pages
from .players import routes as players
from .recovery import routes as recovery


def init_app(app: Flask) -> None:
    """Bind the web extensions and register every blueprint, in the order requests need them."""
    security.init_app(app)  # first: its body guard runs before the CSRF check and the limiter
    login_manager.init_app(app)
    csrf.init_app(app)
    limits.check_shared_storage(app)
    limiter.init_app(app)
    i18n.init_app(app)
    errors.init_app(app)
    template_globals.init_app(app)
    notices.init_app(app)
    login_manager.user_loader(accounts.load_user)
    app.register_blueprint(api.bp, url_prefix="/api")
    app.register_blueprint(club.bp)
    app.register_blueprint(nights.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(account.bp)
    app.register_blueprint(recovery.bp)
    app.register_blueprint(offline.bp)
    app.register_blueprint(guide.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(invite.bp)
    app.register_blueprint(live.bp)
    push.init_app(app)
    app.register_blueprint(language.bp)
    assets.init_app(app)
    quick_poll.init_app(app)  # before ProxyFix wraps the app: the proxy's addresses come first
