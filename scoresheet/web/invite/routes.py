"""Pages for bringing people to a match: the join link, and the watch link with its read-only
live sheet (no account needed), made, replaced or stopped by any member.

A GET never changes anything: the join link asks first, with one "Join" button (a POST, with
its CSRF token as every form). The watch pages answer only their own match's sheet, its
scoreboard, its version and its CSV; nothing on them can change anything.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, make_response, redirect, render_template, request, url_for
from flask_babel import force_locale
from flask_babel import gettext as _
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from ...rules import MatchState
from ...rules.tichu import team_of
from ...services.errors import Conflict
from ...services.matches import commands, links, members, queries, versions
from ...storage.database import form_page
from ...storage.models import Match
from .. import downloads, limits, manifests
from ..forms import ButtonForm
from ..i18n import languages
from ..match_view import back_to, match_context

bp = Blueprint("invite", __name__)


@bp.route("/join/<code>", methods=["GET", "POST"])
@limits.join_limits
@limits.join_link_limits
def join_link(code: str) -> Any:
    """The join link: logged out, the table's match and its way in (make an account or log
    in, then back here); logged in, join with one tap. A match that is over says so, with no
    way in. A code that is not there is a 404 either way (counted against the join limit)."""
    match = links.by_join_code(code)
    if match is None:
        return render_template("invite/join.html", match=None, form=None), 404
    if not current_user.is_authenticated:
        sheet = queries.sheet_of(match)
        return render_template(
            "invite/join.html", match=match, sheet=sheet, form=None, back=request.path, **_join_context(match, sheet)
        )
    if any(m.user_id == current_user.id for m in match.members):
        return back_to(match)  # already at the table: straight to the sheet
    form = ButtonForm()
    if form.validate_on_submit():
        try:
            commands.join(current_user, code)
        except Conflict as err:  # won, banked or ended: the watch link is for onlookers
            flash(err.message, "warning")
            return redirect(url_for("pages.index"))
        flash(_("You joined the match: its sheet is on your phone too."))
        return back_to(match)
    with form_page():
        sheet = queries.sheet_of(match)
        return render_template("invite/join.html", match=match, sheet=sheet, form=form, **_join_context(match, sheet))


def _join_context(match: Match, sheet: MatchState) -> dict[str, Any]:
    """What the join page shows of the match, and `over`: why it takes nobody (None: it does)."""
    over = None if commands.takes_players(match, sheet) else commands.no_new_players().message
    return dict(over=over, **match_context(match, sheet))


@bp.get("/watch/<token>")
def watch(token: str) -> Response:
    """The watch link: the match's sheet, read-only, updated live; no account needed."""
    return _private(render_template("invite/watch.html", **_watched(token)))


@bp.get("/watch/<token>/live")
def watch_live(token: str) -> Response:
    """The watch page's live part alone (`invite/_watch_live.html`): what the page fetches to
    swap its sheet in after a change."""
    return _private(render_template("invite/_watch_live.html", **_watched(token)))


def _watched(token: str) -> dict[str, Any]:
    """What the watch page and its live part show: the watched match and its sheet."""
    match = links.by_watch_token(token)
    sheet = queries.sheet_of(match)
    return dict(match=match, sheet=sheet, watching=True, token=token, **match_context(match, sheet))


@bp.get("/watch/<token>/board")
def board(token: str) -> Response:
    """The scoreboard for a tablet or TV in the middle of the table: each side's name and score
    in very large type, who deals, the barrel, the last hand's change; read-only and live."""
    match = links.by_watch_token(token)
    sheet = queries.sheet_of(match)
    context = match_context(match, sheet)
    dealer = sheet.next.dealer if sheet.next else None
    dealing = team_of(dealer) if context["tichu"] and dealer is not None else dealer
    return _private(
        render_template("invite/board.html", match=match, sheet=sheet, token=token, dealing=dealing, **context)
    )


@bp.get("/watch/<token>/board.webmanifest")
def board_manifest(token: str) -> Response:
    """The scoreboard as an app of its own on a tablet (`manifests.board`): named after the
    board and its sides, in the board's language (`?lang=`); only for a live token."""
    match = links.by_watch_token(token)
    sides = " · ".join(s.name for s in queries.sheet_of(match).standings)
    lang = request.args.get("lang", "").replace("-", "_")
    with force_locale(lang if lang in languages() else "en"):
        body = {
            **manifests.board(url_for("invite.board", token=token)),
            "name": _("Scoreboard: %(sides)s", sides=sides),
        }
        body["short_name"] = _("Scoreboard")
    return _private(manifests.answer(body))


@bp.get("/watch/<token>/version")
def watch_version(token: str) -> Response:
    """The watched match's version (as `GET /matches/<id>/version`); 304 while unchanged."""
    match = links.by_watch_token(token)
    v = versions.version_of(match)
    response = _private({"version": v})
    response.set_etag(v)
    response.cache_control.no_cache = True
    return response.make_conditional(request)


@bp.get("/watch/<token>/sheet.csv")
def watch_csv(token: str) -> Response:
    """The watched match's sheet as CSV (the same file members download)."""
    return _private(downloads.csv_response(links.by_watch_token(token)))


@bp.get("/watch/<token>/sheet.xlsx")
def watch_xlsx(token: str) -> Response:
    """The watched match's sheet as a workbook (the same file members download)."""
    return _private(downloads.xlsx_response(links.by_watch_token(token)))


def _private(body: Any) -> Response:
    """A watch answer: never cached, never indexed, and the token never sent on as a referrer."""
    response = make_response(body)
    response.cache_control.no_store = True
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Robots-Tag"] = "noindex, nofollow"
    return response


@bp.post("/matches/<match_id>/watch")
@login_required
def make_watch(match_id: str) -> Response:
    """Make the match's watch link, or replace it (the old one stops working)."""
    match = queries.get_match(match_id, current_user)
    return _changed(
        match,
        lambda: links.make_watch_link(match, current_user),
        _("Watch link ready: anyone who has it sees the sheet, and can change nothing."),
    )


@bp.post("/matches/<match_id>/code")
@login_required
def replace_code(match_id: str) -> Response:
    """Give the match a new join code (any member): the old link, QR code and code stop working."""
    match = queries.get_match(match_id, current_user)
    return _changed(
        match,
        lambda: members.replace_join_code(match, current_user),
        _("New join code: the old link, QR code and code no longer work."),
    )


@bp.post("/matches/<match_id>/watch/stop")
@login_required
def stop_watch(match_id: str) -> Response:
    """Stop the match's watch link."""
    match = queries.get_match(match_id, current_user)
    return _changed(
        match,
        lambda: links.stop_watch_link(match, current_user),
        _("The watch link is stopped: it shows nothing any more."),
    )


@bp.post("/matches/<match_id>/board")
@login_required
def open_board(match_id: str) -> Response:
    """A member's one tap to the scoreboard: through the match's watch link, made first if the
    match has none (an existing one is kept, so boards already open stay open)."""
    match = queries.get_match(match_id, current_user)
    if not ButtonForm().validate_on_submit():
        return redirect(url_for("pages.match", match_id=match.id, _anchor="invite"))
    token = match.watch_token or links.make_watch_link(match, current_user)
    return redirect(url_for("invite.board", token=token))


def _changed(match: Match, command: Any, done: str) -> Response:
    """Run a one-button command (its CSRF token checked), then back to the match's links."""
    if ButtonForm().validate_on_submit():
        command()
        flash(done)
    return redirect(url_for("pages.match", match_id=match.id, _anchor="invite"))
