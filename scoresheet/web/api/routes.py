"""The JSON API of API.md: thin views over `queries` and `services`, with Bearer tokens.

Bodies are read by `bodies`, answers shaped by `shapes`, errors answered by `errors`.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Response, abort, current_app, g, request
from flask_babel import gettext as _

from ...rules import Malformed, setup_from_dict
from ...rules.figures import GAMES
from ...services import accounts
from ...services.matches import audit, backup, commands, links, members, queries, seats, serialize
from ...services.matches.replay_cache import encoded_hands, setup_of
from ...services.players import periods, profiles, ratings, records, statistics
from ...storage.database import reads_only
from ...storage.models import Match, User
from .. import downloads, limits, request_bodies
from ..errors import error_response
from ..extensions import csrf
from ..links import join_url, watch_url
from ..tokens import bearer_token, require_bearer_token
from . import shapes

bp = Blueprint("api", __name__)
csrf.exempt(bp)
_PUBLIC = {"api.create_user", "api.create_token"}
_SIGNS_IN_ITSELF = {"api.get_match", "api.add_hand"}
"""Views that check the token in the statement that reads what they answer (one round trip);
they set no `g.api_user`. Flask answers their OPTIONS itself: that is checked here."""
_ACCOUNT_KEYS = ("username", "password")


@bp.before_request
def refuse_large_body() -> None:
    """413 for a body over 64 KiB on every route, also one that never reads its body (the
    import sets its own, larger limit)."""
    if request.endpoint != "api.import_matches":
        request.get_data(cache=True)  # werkzeug raises 413 past MAX_CONTENT_LENGTH


@bp.before_request
def require_token() -> Response | None:
    """Every call but registering and logging in sends `Authorization: Bearer <token>`."""
    if request.endpoint in _PUBLIC or (request.endpoint in _SIGNS_IN_ITSELF and request.method != "OPTIONS"):
        return None
    return require_bearer_token()


def _body() -> dict[str, Any]:
    """The request body, which must be a JSON object sent as `application/json`."""
    return request_bodies.json_object()


def _texts_body(keys: tuple[str, ...], required: bool = False) -> dict[str, Any]:
    """A body with these keys and nothing else (with `required`: each of them a text)."""
    data = request_bodies.json_object(*keys)
    for key in keys if required else ():
        if not isinstance(data.get(key), str):
            raise Malformed(key, _not_a_text(key))
    return data


def _not_a_text(key: str) -> str:
    """The refusal of a key that must be a text."""
    return {
        "username": _("The username must be text."),
        "current_password": _("The current password must be text."),
        "new_password": _("The new password must be text."),
        "name": _("The name must be text."),
    }.get(key, _("The password must be text."))


def _no_content() -> Response:
    """204: done, nothing to say (and so no Content-Type either)."""
    response = current_app.response_class(status=204)
    del response.headers["Content-Type"]
    return response


def _match_response(match: Any, sheet: Any, status: int = 200, members: list[str] | None = None) -> Response:
    """The match object (its hands as this process's replay cache keeps them encoded;
    `members`: their names, if the request read them already)."""
    text = shapes.match_json(match, sheet, encoded_hands(match.id, sheet), members)
    return current_app.response_class(text, status, mimetype="application/json")


@bp.post("/users")
@limits.register_limits
def create_user() -> Any:
    """Register; answers with the username and a first token."""
    data = _texts_body(_ACCOUNT_KEYS)
    user, token = accounts.register_with_token(data.get("username"), data.get("password"))
    return {"username": user.username, "token": token}, 201


@bp.post("/tokens")
@limits.login_limits
def create_token() -> Any:
    """Log in: a new token for a username and password."""
    data = _texts_body(_ACCOUNT_KEYS, required=True)  # a wrong type is 400, not bad credentials
    user = accounts.authenticate(data["username"], data["password"])
    if user is None:
        return error_response(401, _("Wrong username or password."))
    return {"token": accounts.create_token(user)}, 201


@bp.delete("/tokens/current")
def revoke_token() -> Any:
    """Log out: the token used for this call stops working."""
    accounts.revoke_token(g.api_token)
    return _no_content()


@bp.put("/users/me/password")
@limits.password_check_limits
def change_password() -> Any:
    """Change the password; every other token and every session ends."""
    data = _texts_body(("current_password", "new_password"), required=True)
    accounts.change_password(g.api_user, data["current_password"], data["new_password"], keep_token=g.api_token)
    return _no_content()


@bp.delete("/users/me")
@limits.password_check_limits
def delete_me() -> Any:
    """Delete the account (its password again in the body); the matches stay for the others."""
    data = _texts_body(("password",), required=True)
    accounts.delete_account(g.api_user, data["password"])
    return _no_content()


@bp.get("/matches")
def list_matches() -> Any:
    """The caller's matches, newest first, in brief."""
    return {"matches": [serialize.match_brief(m) for m in queries.listed_matches(g.api_user, grouped=False)]}


@bp.post("/matches")
def create_match() -> Any:
    """Start a match; the caller is its first member."""
    match = commands.create_match(g.api_user, setup_from_dict(_body()))
    return _match_response(match, queries.sheet_of(match), 201)


@bp.get("/matches/<match_id>")
def get_match(match_id: str) -> Any:
    """One of the caller's matches, read with the token's check (`_SIGNS_IN_ITSELF`)."""
    match, names, _user = _signed_in_match(match_id)
    return _match_response(match, queries.sheet_of(match), members=names)


def _signed_in_match(match_id: str, for_update: bool = False) -> tuple[Match, list[str], User | None]:
    """The match and its members' names read with the check of the request's token in one
    statement (`queries.match_for_token`), for the views of `_SIGNS_IN_ITSELF`; `for_update`:
    read locked for a change, with the token's user, its author. 401 without a live token."""
    token = bearer_token()
    found = queries.match_for_token(match_id, token, for_update=for_update) if token else None
    if found is None:
        abort(error_response(401))
    return found


@bp.post("/matches/join")
@limits.join_limits
def join_match() -> Any:
    """Join a match by its code."""
    match = commands.join(g.api_user, request_bodies.join_code(request_bodies.json_object("code")))
    return _match_response(match, queries.sheet_of(match))


@bp.post("/matches/<match_id>/code")
def replace_join_code(match_id: str) -> Any:
    """A new join code for the match (any member): the old one joins nothing from now on."""
    match = queries.get_match(match_id, g.api_user)
    return {"join_code": members.replace_join_code(match, g.api_user)}, 201


@bp.delete("/matches/<match_id>/members/<username>")
def remove_member(match_id: str, username: str) -> Any:
    """Remove a member (the creator removes anyone; a member removes themselves: leaving)."""
    members.remove_member(queries.get_match(match_id, g.api_user), g.api_user, username)
    return _no_content()


@bp.get("/matches/<match_id>/links")
def match_links(match_id: str) -> Any:
    """The match's join link and watch link (null while it has none)."""
    return _links(queries.get_match(match_id, g.api_user))


@bp.post("/matches/<match_id>/watch")
def make_watch_link(match_id: str) -> Any:
    """Make the match's watch link, or replace it: the old one stops working."""
    match = queries.get_match(match_id, g.api_user)
    links.make_watch_link(match, g.api_user)
    return _links(match), 201


@bp.delete("/matches/<match_id>/watch")
def stop_watch_link(match_id: str) -> Any:
    """Stop the match's watch link."""
    links.stop_watch_link(queries.get_match(match_id, g.api_user), g.api_user)
    return _no_content()


def _links(match: Any) -> dict[str, Any]:
    """The match's links object."""
    return shapes.links_json(join_url(match), watch_url(match))


@bp.post("/matches/<match_id>/rematch")
def rematch(match_id: str) -> Any:
    """Start the table's next match (201), or get the one already started (200)."""
    new, started = commands.rematch(queries.get_match(match_id, g.api_user), g.api_user)
    return _match_response(new, queries.sheet_of(new), 201 if started else 200)


@bp.post("/matches/<match_id>/hands")
def add_hand(match_id: str) -> Any:
    """Record the next hand."""
    match, names, user = _signed_in_match(match_id, for_update=True)
    assert user is not None  # read with the locked row, as the hand's author
    record, expected, _version = request_bodies.hand_body(_body(), match.setup["rules"])
    return _match_response(match, commands.add_hand(match, user, record, expected), 201, names)


@bp.post("/matches/<match_id>/hands/preview")
@reads_only
def preview_hand(match_id: str) -> Any:
    """The next hand as it would be stored, with its results; nothing is stored."""
    match = queries.get_match(match_id, g.api_user)
    record, expected, _version = request_bodies.hand_body(_body(), match.setup["rules"])
    result = commands.preview_hand(match, record, expected_hand=expected)
    return {"hand": serialize.hand_json(result, setup_of(match), 1)}


@bp.put("/matches/<match_id>/hands/<int:number>")
def edit_hand(match_id: str, number: int) -> Any:
    """Correct a hand; later hands are recomputed."""
    match = queries.get_match(match_id, g.api_user)
    body = _body()
    record, _expected, version = request_bodies.hand_body(body, match.setup["rules"], correction=True)
    uid = request_bodies.hand_uid(body, request.args.get("uid"))
    return _match_response(match, commands.edit_hand(match, g.api_user, number, record, version, uid))


@bp.delete("/matches/<match_id>/hands/<int:number>")
def delete_hand(match_id: str, number: int) -> Any:
    """Delete a hand (while it is still the hand `uid` names, if one is sent); later hands
    renumber."""
    match = queries.get_match(match_id, g.api_user)
    body = _texts_body(("uid",)) if request.get_data(cache=True) else None
    uid = request_bodies.hand_uid(body, request.args.get("uid"))
    return _match_response(match, commands.delete_hand(match, g.api_user, number, uid))


@bp.post("/matches/<match_id>/bank")
def bank(match_id: str) -> Any:
    """Bank a finished match."""
    match = queries.get_match(match_id, g.api_user)
    return _match_response(match, commands.bank(match, g.api_user))


@bp.post("/matches/<match_id>/end")
def end(match_id: str) -> Any:
    """End an unfinished match."""
    match = queries.get_match(match_id, g.api_user)
    return _match_response(match, commands.end(match, g.api_user))


@bp.get("/matches/<match_id>/sheet.csv")
def sheet_csv(match_id: str) -> Response:
    """The sheet as CSV."""
    return downloads.csv_response(queries.get_match(match_id, g.api_user))


@bp.get("/matches/<match_id>/sheet.xlsx")
def sheet_xlsx(match_id: str) -> Response:
    """The sheet as a workbook, its words in the language of Accept-Language."""
    return downloads.xlsx_response(queries.get_match(match_id, g.api_user))


@bp.get("/matches/<match_id>/history")
def history(match_id: str) -> Any:
    """Every change to the match, newest first, with the records before and after."""
    match = queries.get_match(match_id, g.api_user)
    players = list(match.setup["players"])
    entries = audit.entries(match)
    restorable = commands.restorable_ids(match, entries)
    return {"history": [shapes.history_entry(e, players, e.id in restorable) for e in entries]}


@bp.post("/matches/<match_id>/history/<int:entry_id>/restore")
def restore_hand(match_id: str, entry_id: int) -> Any:
    """Bring back a deleted hand (the id of its `hand_deleted` history entry)."""
    match = queries.get_match(match_id, g.api_user)
    _number, sheet = commands.restore_hand(match, g.api_user, entry_id)
    return _match_response(match, sheet)


@bp.get("/matches/<match_id>/backup")
def match_backup(match_id: str) -> Any:
    """One match as a backup document."""
    return backup.document([queries.get_match(match_id, g.api_user)])


@bp.get("/backup")
def my_backup() -> Any:
    """Every match of the caller as one backup document."""
    return backup.document(queries.user_matches(g.api_user))


@bp.post("/matches/import")
def import_matches() -> Any:
    """Import a backup document: each match in it becomes a new match of the caller's."""
    imported, imported_before = backup.import_matches(g.api_user, _body())
    members = [g.api_user.username]  # an imported match's one member
    stamps = queries.hand_stamps_of([m.id for m, _sheet in imported])  # its hands' versions and uids: one query
    answer = [shapes.match_to_dict(m, sheet, stamps.get(m.id, {}), members) for m, sheet in imported]
    return {"matches": answer, "imported_before": imported_before}, 201


def _seats_answer(match: Any) -> Any:
    """The match's seats as the API shows them."""
    return shapes.seats_json(seats.seats_of(match))


@bp.get("/matches/<match_id>/seats")
def get_seats(match_id: str) -> Any:
    """Who sits where: each seat's name and the account that claimed it (null: a guest)."""
    return _seats_answer(queries.get_match(match_id, g.api_user))


@bp.post("/matches/<match_id>/seats/<int:seat>/claim")
def claim_seat(match_id: str, seat: int) -> Any:
    """The caller claims this seat as theirs ("I am Anna")."""
    match = queries.get_match(match_id, g.api_user)
    seats.claim(match, g.api_user, seat)
    return _seats_answer(match)


@bp.put("/matches/<match_id>/seats/<int:seat>")
def assign_seat(match_id: str, seat: int) -> Any:
    """The match's creator gives this seat to a member: `{"username": "boris"}`."""
    match = queries.get_match(match_id, g.api_user)
    seats.assign(match, g.api_user, seat, _texts_body(("username",), required=True)["username"])
    return _seats_answer(match)


@bp.delete("/matches/<match_id>/seats/<int:seat>")
def release_seat(match_id: str, seat: int) -> Any:
    """The seat becomes a guest again (its own player, or the creator)."""
    match = queries.get_match(match_id, g.api_user)
    seats.release(match, g.api_user, seat)
    return _seats_answer(match)


@bp.get("/players/<username>")
def player(username: str) -> Any:
    """A player's statistics and ratings (themself, or someone who shared a match with them)."""
    user = profiles.visible_player(g.api_user, username)
    return shapes.profile_json(profiles.profile(g.api_user, user, _period(), everyone=False))


@bp.get("/players/<username>/played")
def played(username: str) -> Any:
    """Everyone the caller played with (their own only: a tablemate's opponents may be
    strangers to the caller), over a period."""
    user = profiles.visible_player(g.api_user, username)
    period = _period()
    found = profiles.played_by(g.api_user, user, period)
    if found is None:
        return error_response(403, _("Only the player sees everyone they have played."))
    return shapes.played_json(user.username, period, found)


def _period() -> periods.Period:
    """The period the query asks for (`?period=month|year|all`, `?from=…&to=…`; 422 with the
    field at fault, `periods.period_from`)."""
    return periods.period_from(request.args, datetime.now(UTC))


@bp.get("/players/<username>/records")
def player_records(username: str) -> Any:
    """A player's records, each with the match that set it, over a period."""
    user = profiles.visible_player(g.api_user, username)
    period = _period()
    return shapes.records_json(user.username, records.records_of(user, period.since, period.until))


@bp.get("/leaderboard/<game>")
def leaderboard(game: str) -> Any:
    """The caller's table (everyone they played with) by rating in one game."""
    if game not in GAMES:
        return error_response(404, _("There is no such game: the games are “tysiacha” and “tichu”."))
    return shapes.leaderboard_json(game, ratings.leaderboards(g.api_user, _period())[game])


@bp.get("/players/<username>/versus/<other>")
def versus(username: str, other: str) -> Any:
    """Head to head of two players the caller can see (each the caller or a tablemate)."""
    one, two = profiles.visible_player(g.api_user, username), profiles.visible_player(g.api_user, other)
    return shapes.versus_json(one.username, two.username, statistics.head_to_head(one, two, _period()))


@bp.get("/guests")
def guests() -> Any:
    """The guests of the caller's banked matches (seats nobody claimed), by name."""
    return shapes.guests_json(statistics.guests_of(g.api_user))


@bp.get("/guests/claimable")
def claimable_guests() -> Any:
    """The guest names the caller may claim at once: free seats of their matches."""
    return {"guests": [{"name": p.name, "matches": p.matches} for p in seats.guest_pasts(g.api_user)]}


@bp.post("/guests/claim")
def claim_guest() -> Any:
    """Claim a guest's free seat in every match of the caller's at once: `{"name": "Boris"}`."""
    claimed = seats.claim_past(g.api_user, _texts_body(("name",), required=True)["name"])
    return {"claimed": claimed}


@bp.get("/my-record/matches.csv", defaults={"part": "matches.csv"})
@bp.get("/my-record/statistics.csv", defaults={"part": "statistics.csv"})
@bp.get("/my-record.xlsx", defaults={"part": "xlsx"})
def my_record(part: str) -> Any:
    """The caller's own banked matches or statistics as CSV, or both as a workbook."""
    return downloads.record_response(g.api_user, part)
