"""Club nights: the JSON API of CLUB.md §6 (under `/api/events`, bearer tokens as in API.md),
and the board behind the event's watch link (no account needed).

Thin views over `services.club`: bodies read here, answers shaped by `services.club.serialize`,
refusals answered by `web/errors.py` (the engine's `ClubError` → 422 with its field).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    g,
    jsonify,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required

from ...rules import Malformed
from ...services.club import board as shown
from ...services.club import events, exports, progress, results, serialize
from ...storage.models import Event, utcnow
from .. import limits, request_bodies
from ..downloads import XLSX
from ..extensions import csrf
from ..tokens import require_bearer_token

bp = Blueprint("club", __name__)
csrf.exempt(bp)
_API = "/api/events"


@bp.before_request
def require_token() -> Response | None:
    """Every API call sends `Authorization: Bearer <token>` (the board needs none)."""
    if not request.path.startswith("/api/"):
        return None
    request.get_data(cache=True)  # 413 past MAX_CONTENT_LENGTH, as the API's other calls
    return require_bearer_token()


def _body(*keys: str) -> dict[str, Any]:
    """The request body: a JSON object holding none but these keys, each of its JSON type (else
    400 naming it, as API.md's other bodies; a value of the right type the night refuses is the
    service's 422, and so are `rounds`, `seating` and the limits of any type, CLUB.md §6)."""
    body = request_bodies.json_object(*keys)
    for key, (fits, refused) in _TYPES.items():
        if body.get(key) is not None and not fits(body[key]):
            raise Malformed(key, str(refused))
    return body


def _text(value: object) -> bool:
    """A JSON string."""
    return isinstance(value, str)


_TYPES: dict[str, tuple[Callable[[object], bool], Any]] = {
    "name": (_text, _l("The name must be text.")),
    "game": (lambda v: isinstance(v, dict), _l("The game is an object with “rules” and “options”.")),
    "seed": (events.is_int, _l("The seed is a whole number.")),
    "username": (_text, _l("The username must be text.")),
    "guest": (_text, _l("The guest's name must be text.")),
    "team": (_text, _l("The team must be text.")),
    "status": (_text, _l("A player's status is “present”, “absent” or “dropped”.")),
    "scores": (
        lambda v: isinstance(v, list) and all(events.is_int(s) for s in v),
        _l("Scores are a list of whole numbers, in seat order."),
    ),
}
"""Each body key's JSON type (null: not sent, the service's to judge), and its refusal."""


def _event_json(event: Event, status: int = 200) -> tuple[dict[str, Any], int]:
    watch = url_for("club.board", token=event.watch_token, _external=True)
    return serialize.event_data(event, watch), status


@bp.post(_API)
def create_event() -> Any:
    """Make an event; the caller is its director."""
    body = _body("name", "game", "rounds", "seating", "hand_limit", "time_limit", "seed")
    return _event_json(events.make_event(g.api_user, body), 201)


@bp.get(f"{_API}/<event_id>")
def get_event(event_id: str) -> Any:
    """The event, for its directors and the players on its roster."""
    return _event_json(events.event_for_member(event_id, g.api_user))


@bp.patch(f"{_API}/<event_id>")
def change_event(event_id: str) -> Any:
    """Plan more rounds."""
    event = events.event_for_director(event_id, g.api_user)
    return _event_json(events.add_rounds(event, _body("rounds").get("rounds")))


@bp.post(f"{_API}/<event_id>/directors")
def add_director(event_id: str) -> Any:
    """Make an account a co-director."""
    event = events.event_for_director(event_id, g.api_user)
    events.add_director(event, _body("username").get("username"))
    return _event_json(event, 201)


@bp.post(f"{_API}/<event_id>/roster")
def add_player(event_id: str) -> Any:
    """Put an account or a guest on the roster."""
    event = events.event_for_director(event_id, g.api_user)
    body = _body("username", "guest", "team")
    events.add_to_roster(event, body.get("username"), body.get("guest"), body.get("team"))
    return _event_json(event, 201)


@bp.post(f"{_API}/join")
@limits.join_limits
def join_event() -> Any:
    """The caller joins the roster of the event with this code."""
    body = _body("code", "team", "name")
    code = request_bodies.text_of(body, "code", _("The event's code must be text."))
    team = request_bodies.optional_text(body, "team", _("The team must be text."))
    name = request_bodies.optional_text(body, "name", _("The name must be text."))
    return _event_json(events.join(g.api_user, code, team, name))


@bp.patch(f"{_API}/<event_id>/roster/<path:name>")  # a guest's name may hold a "/"
def change_player(event_id: str, name: str) -> Any:
    """Mark a player present, absent or dropped, give a Tichu team, or give a guest to an account."""
    event = events.event_for_director(event_id, g.api_user)
    events.change_roster(event, name, _body("status", "team", "username"), g.api_user)
    return _event_json(event)


@bp.post(f"{_API}/<event_id>/rounds")
def seat_round(event_id: str) -> Any:
    """Seat the next round."""
    event = events.event_for_director(event_id, g.api_user)
    return serialize.round_data(event, events.seat_round(event, g.api_user)), 201


@bp.get(f"{_API}/<event_id>/rounds/<int:number>")
def get_round(event_id: str, number: int) -> Any:
    """A round, each table with its result."""
    event = events.event_for_member(event_id, g.api_user)
    return serialize.round_data(event, events.get_round(event, number))


@bp.delete(f"{_API}/<event_id>/rounds/<int:number>")
def unseat_round(event_id: str, number: int) -> Any:
    """Take the current round back before any hand (to seat it again)."""
    events.unseat_round(events.event_for_director(event_id, g.api_user), number)
    response = current_app.response_class(status=204)
    del response.headers["Content-Type"]
    return response


@bp.post(f"{_API}/<event_id>/rounds/<int:number>/close")
def close_round(event_id: str, number: int) -> Any:
    """Every unfinished table of the round ends where it stands."""
    event = events.event_for_director(event_id, g.api_user)
    return serialize.round_data(event, events.close_round(event, number, g.api_user))


@bp.put(f"{_API}/<event_id>/rounds/<int:number>/tables/<int:table>/result")
def enter_result(event_id: str, number: int, table: int) -> Any:
    """A paper table's final scores, entered by a director."""
    event = events.event_for_director(event_id, g.api_user)
    events.enter_result(event, number, table, _body("scores").get("scores"), g.api_user)
    return serialize.round_data(event, events.get_round(event, number))


@bp.get(f"{_API}/<event_id>/standings")
def get_standings(event_id: str) -> Any:
    """The standings after the results counted so far."""
    return serialize.standings_data(events.event_for_member(event_id, g.api_user))


@bp.get(f"{_API}/<event_id>/standings.csv")
def standings_csv(event_id: str) -> Any:
    """The standings as CSV (UTF-8 with a BOM, so spreadsheets read the names right)."""
    return _csv(events.event_for_member(event_id, g.api_user))


def _csv(event: Event) -> Response:
    """The standings' CSV download (UTF-8 with a BOM, so spreadsheets read the names right)."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(serialize.standings_rows(event))
    response = Response("\ufeff" + out.getvalue(), content_type="text/csv; charset=utf-8")
    response.headers["Content-Disposition"] = f'attachment; filename="standings-{event.id}.csv"'
    return response


@bp.get(f"{_API}/<event_id>/standings.xlsx")
def standings_xlsx(event_id: str) -> Any:
    """The standings as a workbook, in the reader's language."""
    return _xlsx(events.event_for_member(event_id, g.api_user))


@bp.get(f"{_API}/<event_id>/backup")
def event_backup(event_id: str) -> Any:
    """The whole event as a backup document (directors only)."""
    return exports.document(events.event_for_director(event_id, g.api_user))


@bp.post(f"{_API}/import")
def import_event() -> Any:
    """A backup document of a club night becomes a new event of the caller's."""
    return _event_json(exports.import_event(g.api_user, request_bodies.json_object()), 201)


def _xlsx(event: Event) -> Response:
    """The standings' workbook download."""
    response = Response(exports.standings_xlsx(event), content_type=XLSX)
    response.headers["Content-Disposition"] = f'attachment; filename="standings-{event.id}.xlsx"'
    return response


@bp.get("/events/watch/<token>")
def board(token: str) -> Any:
    """The board behind the event's watch link: a card per table of the current round with its
    live scores, the countdown and the standings; it follows the event by itself (app.js)."""
    event = _watched(token)
    now = utcnow()
    current = event.seated[-1] if event.seated else None
    return render_template(
        "club/board.html",
        event=event,
        token=token,
        version=progress.live_version(event, now),
        round=current,
        cards=shown.cards(event, current) if current else [],
        minutes_left=progress.countdown(event, now),
        standings=serialize.standings_data(event)["standings"],
        teams=results.club_game(event) == "tichu",
    )


@bp.get("/events/watch/<token>/version")
def board_version(token: str) -> Any:
    """The board's version (as a match's `…/version`); 304 while nothing it shows changed."""
    version = progress.live_version(_watched(token), utcnow())
    response = jsonify(version=version)
    response.set_etag(version)
    response.cache_control.no_cache = True
    response.cache_control.private = True
    response.headers["Referrer-Policy"] = "no-referrer"
    return response.make_conditional(request)


def _watched(token: str) -> Event:
    """The event whose board this watch link shows, else 404."""
    event = events.event_by_watch_token(token)
    if event is None:
        abort(404)
    return event


@bp.get("/events/<event_id>/standings.csv")
@login_required
def event_csv(event_id: str) -> Any:
    """The standings as CSV, for the event's page (web/nights/)."""
    return _csv(events.event_for_member(event_id, current_user))


@bp.get("/events/<event_id>/standings.xlsx")
@login_required
def event_xlsx(event_id: str) -> Any:
    """The standings as a workbook, for the event's page."""
    return _xlsx(events.event_for_member(event_id, current_user))


@bp.get("/events/<event_id>/backup.json")
@login_required
def event_backup_file(event_id: str) -> Any:
    """The whole event as a backup file to keep (directors only)."""
    event = events.event_for_director(event_id, current_user)
    text = json.dumps(exports.document(event), ensure_ascii=False, indent=1)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")  # no markup, ever
    filename = f"club-night-{event.id}.json"
    return Response(
        text, mimetype="application/json", headers={"Content-Disposition": f'attachment; filename="{filename}"'}
    )
