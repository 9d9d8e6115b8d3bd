"""Pages of players: claiming and giving seats on a match, a player's page, the leaderboard."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_login import current_user, login_required
from markupsafe import Markup

from ...rules import RuleError
from ...services.errors import Conflict, Invalid
from ...services.matches import queries, seats
from ...services.players import periods, profiles, ratings, records, statistics
from ...storage.database import form_page
from ...words.vocabulary import CALL_NAMES
from ..downloads import record_response
from ..extensions import kept
from ..i18n import html_lang
from ..match_view import back_to, refused_form
from .forms import ClaimPastForm, HeadToHeadForm, PeriodForm

bp = Blueprint("players", __name__)
bp.after_request(refused_form)  # a refused form comes back with its errors, as 422


@bp.post("/matches/<match_id>/seats/<int:seat>/claim", defaults={"step": "claim"})
@bp.post("/matches/<match_id>/seats/<int:seat>/assign", defaults={"step": "assign"})
@bp.post("/matches/<match_id>/seats/<int:seat>/release", defaults={"step": "release"})
@login_required
def seat(match_id: str, seat: int, step: str) -> Any:
    """Claim a seat as mine, give it to a member (the creator), or make it a guest again."""
    m = queries.get_match(match_id, current_user)
    name = m.setup["players"][seat] if 0 <= seat < len(m.setup["players"]) else ""
    try:
        if step == "claim":
            seats.claim(m, current_user, seat)
        elif step == "assign":
            seats.assign(m, current_user, seat, request.form.get("username", ""))
        else:
            seats.release(m, current_user, seat)
    except (Conflict, RuleError) as err:
        flash(err.message, "warning")
    else:
        flash(
            _("%(name)s's seat is a guest's again.", name=name)
            if step == "release"
            else _("%(name)s's seat is claimed: the match counts in that player's statistics.", name=name)
        )
    return back_to(m)


@bp.get("/players/<username>")
@login_required
def player(username: str) -> Any:
    """A player's statistics and ratings (theirs, or a tablemate's) over a period
    (`?period=month|year|all`, `?from=YYYY-MM-DD&to=YYYY-MM-DD`; all time by default)."""
    user = profiles.visible_player(current_user, username)
    form, period = _period_form()
    if period is None:
        return render_template("players/player.html", username=user.username, figures=None, form=form), 422
    if period.all_time:
        rows, versus = profiles.figure_rows(user), profiles.versus(current_user, user)
        body = _figures(user.username, rows, versus, profiles.played_by(current_user, user, period))
    else:
        body = _render_figures(profiles.profile(current_user, user, period))
    return render_template("players/player.html", username=user.username, figures=body, form=form)


@bp.get("/players/<username>/records")
@login_required
def player_records(username: str) -> Any:
    """A player's records, each with the match that set it, over a period (as the player's
    page takes it)."""
    user = profiles.visible_player(current_user, username)
    form, period = _period_form()
    if period is None:
        return render_template("players/records.html", username=user.username, records=None, form=form), 422
    found = records.records_of(user, period.since, period.until)
    return render_template("players/records.html", username=user.username, records=found, form=form)


FIGURES_KEPT = 128
"""At most this many rendered bodies are kept per app: each with its key, the rows it was
rendered from (a rating history of 120 points among them), a few tens of kilobytes."""


def _figures(
    username: str,
    rows: profiles.Rows,
    versus: statistics.HeadToHead | None,
    played: list[statistics.PairFigures] | None,
) -> Markup:
    """The body of a player's page of all time: made from the rows read for it, the name,
    the head to head and everyone played alone (`profiles.profile_of`), so it is rendered once
    per app, language, path prefix (its links) and those, and kept; a page read again while
    nothing of it changed renders only its frame, and builds no profile
    (docs/performance.md)."""
    key = (html_lang(), request.script_root, username, rows, versus, None if played is None else tuple(played))
    profile = lambda: profiles.profile_of(username, rows, versus, played)  # noqa: E731
    return kept("player_figures", key, lambda: _render_figures(profile()), most=FIGURES_KEPT)


def _render_figures(profile: profiles.Profile) -> Markup:
    """The body of a player's page, rendered."""
    return Markup(render_template("players/_player_figures.html", profile=profile, call_words=CALL_NAMES))


def _period_form() -> tuple[PeriodForm, periods.Period | None]:
    """The period the request's query asks for, with its form; None (the form telling the
    field at fault) if the query names none (`periods.period_from`)."""
    form = PeriodForm(request.args)
    try:
        return form, periods.period_from(request.args, datetime.now(UTC))
    except Invalid as err:
        {"period": form.period, "from": form.first, "to": form.last}[err.field or "period"].errors = [err.message]
        return form, None


@bp.get("/leaderboard")
@login_required
def leaderboard() -> Any:
    """My table (everyone I played with) by rating, per game, over a period, and a
    head-to-head picker."""
    form, period = _period_form()
    if period is None:
        return render_template("players/leaderboard.html", boards=None, period_form=form, form=None), 422
    boards = ratings.leaderboards(current_user, period)
    picker = _picker(HeadToHeadForm(), boards)
    return render_template("players/leaderboard.html", boards=boards, period_form=form, period=period, form=picker)


@bp.get("/head-to-head")
@login_required
def head_to_head() -> Any:
    """How two players of my table did against each other (`?one=anna&two=boris`; without
    them, only the picker). A name the viewer cannot see answers as a missing player."""
    form = _picker(HeadToHeadForm(request.args), ratings.leaderboards(current_user, periods.ALL_TIME))
    if not request.args:
        return render_template("players/head_to_head.html", form=form, pair=None)
    one = profiles.visible_player(current_user, form.one.data or "")
    two = profiles.visible_player(current_user, form.two.data or "")
    try:
        result = statistics.head_to_head(one, two)
    except Invalid as err:  # the same player twice
        form.two.errors = [err.message]
        return render_template("players/head_to_head.html", form=form, pair=None), 422
    return render_template("players/head_to_head.html", form=form, pair=(one, two), result=result)


def _picker(form: HeadToHeadForm, boards: dict[str, list[ratings.Entry]]) -> HeadToHeadForm:
    """The picker offering everyone rated at the viewer's table (only banked matches with
    claimed seats count, and only they give a rating); by default the viewer against the first
    other name."""
    names = sorted({e.username for board in boards.values() for e in board}, key=str.lower)
    form.one.choices, form.two.choices = list(names), list(names)
    if form.one.data is None:
        form.one.data = current_user.username
    if form.two.data is None:
        form.two.data = next((n for n in names if n != form.one.data), None)
    return form


@bp.get("/guests")
@login_required
def guests() -> str:
    """The guests of my banked matches (seats nobody claimed), by name."""
    return render_template("players/guests.html", guests=statistics.guests_of(current_user))


@bp.route("/claim-past", methods=["GET", "POST"])
@login_required
def claim_past() -> Any:
    """Claim a guest's seats (my past under a name) in every match of mine at once."""
    pasts = seats.guest_pasts(current_user)
    form = ClaimPastForm()
    form.name.choices = [
        (p.name, ngettext("%(name)s: %(num)d match", "%(name)s: %(num)d matches", p.matches, name=p.name))
        for p in pasts
    ]
    if form.validate_on_submit():
        try:
            claimed = seats.claim_past(current_user, form.name.data)
        except (Conflict, RuleError) as err:
            form.refuse(getattr(err, "field", None), err.message)
        else:
            flash(
                ngettext(
                    "You claimed the seat of %(name)s in %(num)d match.",
                    "You claimed the seat of %(name)s in %(num)d matches.",
                    claimed,
                    name=form.name.data,
                )
            )
            return redirect(url_for("players.player", username=current_user.username))
    with form_page():
        return render_template("players/claim_past.html", form=form, pasts=pasts)


@bp.get("/my-record/matches.csv", defaults={"part": "matches.csv"})
@bp.get("/my-record/statistics.csv", defaults={"part": "statistics.csv"})
@bp.get("/my-record.xlsx", defaults={"part": "xlsx"})
@login_required
def my_record(part: str) -> Any:
    """My own banked matches or statistics as CSV, or both as a workbook (never another's)."""
    return record_response(current_user, part)
