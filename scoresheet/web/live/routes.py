"""Live updates: a page asks for its match's version (`…/version`, answered 304 while nothing
changed, mostly before Flask: `quick_poll.py`), or keeps an event stream open where the server
can hold connections (`…/events`: `push.py`). Either way the version is `<hands>-<revision>`
(services/matches/versions.py), and the page reloads its sheet when it changes."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, request
from flask_babel import gettext as _
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from ...services.matches import links, versions
from .push import Pass, enabled, stream

bp = Blueprint("live", __name__)


@bp.get("/matches/<match_id>/version")
@login_required
def version(match_id: str) -> Response:
    """The match's version, from the database; 304 while it is what the phone already has."""
    v = versions.poll_version(match_id, current_user)
    response = jsonify(version=v)
    response.set_etag(v)
    response.cache_control.no_cache = True
    response.cache_control.private = True
    return response.make_conditional(request)


@bp.get("/matches/<match_id>/events")
@login_required
def events(match_id: str) -> Response:
    """A member's stream of the match's versions (404 like `…/version` for anyone else)."""
    version = versions.poll_version(match_id, current_user)  # a stranger: as a missing match
    if not enabled():
        abort(404, _("There is nothing here."))
    return stream(version, Pass(match_id, session_id=current_user.get_id()))


@bp.get("/watch/<token>/events")
def watch_events(token: str) -> Response:
    """The watched match's stream (as `/watch/<token>/version`); no account needed."""
    match = links.by_watch_token(token)  # a stopped or wrong token: as on the watch page
    if not enabled():
        abort(404, _("There is nothing here."))
    response = stream(versions.version_of(match), Pass(match.id, token=token))
    response.headers["Referrer-Policy"] = "no-referrer"
    return response
